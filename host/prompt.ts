import type { SessionEvent } from '../protocol/index.js';
import { INTERRUPTED_TURN_TEXT } from './recovery.js';
import type { PromptMessage } from './types.js';

/**
 * The default system prompt of the drivers in `task-surface/agents`: when to show a Task Surface
 * (the spec's "default structured-UI path when all of the following hold" list and its
 * exclusions), that the call ends the turn, and how the answer comes back. A driver's `system`
 * option replaces it.
 */
export const DEFAULT_SYSTEM_PROMPT = [
  'You are a helpful assistant in a chat product. Answer in the language the user writes in.',
  '',
  'You can show the user a Task Surface with the show_task_surface tool: a temporary panel of content blocks',
  'and input fields that the chat renders above its composer. It is the default way to ask for a structured',
  'answer when all of these hold:',
  '- the interaction belongs to this conversation and the current task;',
  "- it fits the panel's blocks (markdown, metrics, table, diff, notice) and fields (text, choice,",
  '  multi-choice, toggle, order);',
  '- it needs no background work and no new access or authority;',
  "- what matters afterwards is the user's submitted answer, not the panel itself.",
  'Good uses: comparing options, reordering a plan, reviewing a table or a change, filling a few related fields.',
  'Do not use it for a short question that blocks you (ask it in one chat message), for plain explanation',
  '(answer in chat), or for anything that must run in the background, reach other conversations or stay',
  'on screen as a lasting tool. Use it when the user asks for a panel or form.',
  '',
  'Calling show_task_surface ends your turn: write nothing after it and make no other call in that response.',
  "The user's answer arrives as their next message: the panel title, each field's label and value, and an",
  'optional note. They may also ignore the panel and reply in words; then answer that message. Only one panel',
  'can be open at a time. If a call fails, read the error, fix the arguments and call again.',
  '',
  'The skill tool lists skills you can load. A skill may give you more tools (such as propose_action, which',
  'offers one optional action card below your answer); follow its instructions. Developer messages report',
  'what happened outside the chat (a dismissed panel, a card decision, a tool change): treat them as facts,',
  'not as requests.',
].join('\n');

/**
 * The prompt messages of an effective log. User and assistant text go as they are; a tool call is
 * its own assistant step with `toolCall`, its result a tool message with `toolResult` paired by
 * callId (and both also flattened into `text` for text-only models); notices, dismissals and tool
 * changes are developer messages so the model learns what happened without a user turn (also that
 * a crash interrupted a turn).
 */
export function promptMessages(events: Iterable<SessionEvent>): PromptMessage[] {
  const out: PromptMessage[] = [];
  for (const event of events) {
    const message = promptMessage(event);
    if (message) out.push(message);
  }
  return out;
}

function promptMessage(event: SessionEvent): PromptMessage | null {
  const { seq } = event;
  switch (event.type) {
    case 'user/message':
      return { role: 'user', text: event.text, seq };
    case 'assistant/message':
      return { role: 'assistant', text: event.text, seq };
    case 'tool/call':
      return {
        role: 'assistant',
        text: `[call ${event.name} ${event.callId}] ${JSON.stringify(event.args)}`,
        seq,
        toolCall: { callId: event.callId, name: event.name, args: event.args },
      };
    case 'tool/result':
      return {
        role: 'tool',
        text: `[result ${event.name} ${event.callId}${event.ok ? '' : ' failed'}] ${event.content}`,
        seq,
        toolResult: { callId: event.callId, name: event.name, ok: event.ok, content: event.content },
      };
    case 'task-surface/dismissed':
      return {
        role: 'developer',
        text: `The user dismissed task surface ${event.surfaceId} without submitting it.`,
        seq,
      };
    case 'action-cards/notice':
      return { role: 'developer', text: event.text, seq };
    case 'turn/ended':
      // A crash cut the turn short: its events stay, but the model must not take them as complete.
      return event.outcome === 'interrupted' ? { role: 'developer', text: INTERRUPTED_TURN_TEXT, seq } : null;
    case 'tools/changed':
      return { role: 'developer', text: toolsChangedText(event.added, event.removed), seq };
    default:
      return null;
  }
}

/** The `tool-addition` notice: appended where the change happened, never rewriting the prefix. */
export function toolsChangedText(added: readonly string[], removed: readonly string[]): string {
  const parts: string[] = [];
  if (added.length > 0)
    parts.push(`${added.join(', ')} ${added.length === 1 ? 'is' : 'are'} now available (declared in your tools from here on)`);
  if (removed.length > 0) parts.push(`${removed.join(', ')} ${removed.length === 1 ? 'is' : 'are'} no longer available`);
  return `Tool update: ${parts.join('; ')}.`;
}
