import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/mini';
import { formatIssuePath, issueText, OWN_WORDS, SessionIdSchema, type ToolDefinition } from '../protocol/index.js';
import { ANSWER_TOOL } from './constants.js';
import type { PanelLedger, PanelState } from './ledger.js';

/*
 * The second channel of an answer. Hosts do not all carry what the panel sends: claude.ai drops an
 * App's `ui/message` and `ui/update-model-context`, VS Code only pre-fills the chat input, and a
 * host may take a message and never show it to the model. So the model can read a panel itself,
 * through this read-only tool. The two channels carry one answer: whichever reaches the model first
 * delivers it (recorded in the panel's log, see `channelOf`), and the other then says so, with the
 * answer's text, so the model acts on it once whatever the host dropped.
 */

/** `task_surface_answer` as the model sees it: the one declaration both `tools/list` and the call use. */
export const taskSurfaceAnswerTool: ToolDefinition = {
  name: ANSWER_TOOL,
  description:
    "Read what the person answered in a panel shown by show_task_surface: their answer's text and values, " +
    'that they dismissed it, or that it is still open. Call it when the person says they answered the panel, ' +
    'or when their next message is not the answer. Read-only; an answer that already reached you is marked as such.',
  inputSchema: {
    type: 'object',
    properties: { panelId: { type: 'string', minLength: 1, maxLength: 128, description: "The panel id from show_task_surface's result." } },
    required: ['panelId'],
    additionalProperties: false,
  },
};

/** The tool's annotations: it reads, it changes nothing the person can see, and a repeat is harmless. */
export const ANSWER_TOOL_ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

const AnswerCallSchema = z.strictObject({ panelId: SessionIdSchema });

/** What `show_task_surface` tells the model on this path, where an ordinary message does not close the panel. */
export function shownText(panelId: string, title: string): string {
  return (
    `Task surface ${JSON.stringify(title)} (panel id ${JSON.stringify(panelId)}) is now shown to the user; your turn ends here. ` +
    'Their answer arrives as their next message. If they say they answered it, or their next message is not the answer, ' +
    `call ${ANSWER_TOOL} with {"panelId": ${JSON.stringify(panelId)}} to read it. An ordinary message does not close the panel.`
  );
}

const result = (text: string, state: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: state,
  ...(isError ? { isError } : {}),
});

/** The model's read of a panel: the first read of an undelivered answer delivers it; every other read says where it stands. */
export async function handleAnswerCall(ledger: PanelLedger, args: unknown): Promise<CallToolResult> {
  const parsed = AnswerCallSchema.safeParse(args, OWN_WORDS);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${formatIssuePath(i.path as (string | number)[], 'arguments')}: ${issueText(i)}`);
    return { isError: true, content: [{ type: 'text', text: issues.join('\n') }] };
  }
  const panelId = parsed.data.panelId;
  const state: PanelState = await ledger.state(panelId);
  if (state.status === 'unknown')
    return result(`No panel with the id ${JSON.stringify(panelId)} is known to this server.`, { status: 'unknown' }, true);
  const title = JSON.stringify(state.model.title);
  if (state.status === 'open')
    return result(
      `The person has not answered the panel ${title} yet; it is still open. If they say they did, their answer did not reach this server: ask them to press the panel's button again, or to answer in the chat.`,
      { status: 'open' },
    );
  if (state.status === 'dismissed')
    return result(`The person dismissed the panel ${title} without answering. Do not wait for an answer to it.`, { status: 'dismissed' });
  const before = state.channel;
  const after = before === null || before === 'sending' ? await ledger.mark(panelId, state.submissionId, 'answer-tool') : state;
  const now = after.status === 'submitted' ? after.channel : before;
  const answer = { status: 'submitted', values: state.values, text: state.text };
  if (before === null && now === 'answer-tool')
    return result(`The person answered the panel ${title}. This is their answer; act on it now:\n\n${state.text}`, {
      ...answer,
      alreadyDelivered: false,
    });
  const how = before === 'answer-tool' ? `through ${ANSWER_TOOL}` : 'as their chat message';
  return result(
    `The person's answer to the panel ${title} was already delivered to you ${how}. Act on it once: if you have acted on it, do nothing more. Their answer:\n\n${state.text}`,
    { ...answer, alreadyDelivered: true },
  );
}
