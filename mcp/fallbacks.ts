import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitResult,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  formatIssuePath,
  formatSubmission,
  validateSubmission,
  type NormalizedTaskSurfaceModel,
  type TaskSurfaceLimits,
} from '../protocol/index.js';
import { elicitationOf, valuesOfElicitation } from './elicitation.js';
import { panelText } from './textForm.js';

/**
 * How long a person has to answer an elicitation form by default (a person is on the other end, but
 * each wait holds one of the principal's requests in flight: bounded, `elicitationTimeoutMs`).
 */
export const ELICITATION_TIMEOUT_MS = 10 * 60_000;
const ANSWER_KEY = 'answer';

/** The capabilities the client declared: per request (2026-07-28 era) or at initialize (earlier). */
export function clientCapabilities(server: McpServer, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope];
  return (envelope as ClientCapabilities | undefined) ?? server.server.getClientCapabilities();
}

/** Whether the client renders MCP Apps of our mime type. */
export function supportsApps(capabilities: ClientCapabilities | undefined): boolean {
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) ?? false;
}

/** Whether the client takes form elicitations (an empty `elicitation` object means form, by the spec). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return elicitation !== undefined && (elicitation['form'] !== undefined || Object.keys(elicitation).length === 0);
}

const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError } : {}) });

/** The result for the model when the client shows neither apps nor forms: the panel to ask in chat. */
export function textFallback(model: NormalizedTaskSurfaceModel): CallToolResult {
  return text(
    'This client cannot show the panel, so ask the person in chat instead, in your own words, and wait for their answer. The panel:\n\n' +
      panelText(model),
  );
}

/** What an elicitation's outcome tells the model. */
export function elicitationResult(model: NormalizedTaskSurfaceModel, result: ElicitResult, limits: TaskSurfaceLimits): CallToolResult {
  const title = JSON.stringify(model.title);
  if (result.action === 'decline') return text(`The person declined to answer the panel ${title}.`);
  if (result.action === 'cancel') return text(`The person closed the panel ${title} without answering.`);
  const values = valuesOfElicitation(model, result.content);
  const valid = validateSubmission(model, { values }, limits);
  if (!valid.ok) {
    const issues = valid.issues.map((i) => `- ${formatIssuePath(i.path, 'values')}: ${i.message}`).join('\n');
    return text(`The person's answer to the panel ${title} could not be read:\n${issues}`, true);
  }
  return {
    content: [
      { type: 'text', text: `The person answered the panel:\n${formatSubmission(model, valid.values, undefined, { locale: 'en' })}` },
    ],
    structuredContent: { status: 'submitted', values: valid.values },
  };
}

/**
 * A panel for a client without MCP Apps: a form elicitation when the client takes one and every
 * field maps (2025 era: an `elicitation/create` request; 2026-07-28: an `input_required` result and
 * the retried call), else the text form.
 */
export async function answerWithoutApps(
  model: NormalizedTaskSurfaceModel,
  capabilities: ClientCapabilities | undefined,
  ctx: ServerContext,
  limits: TaskSurfaceLimits,
  timeoutMs: number = ELICITATION_TIMEOUT_MS,
): Promise<CallToolResult> {
  const form = supportsFormElicitation(capabilities) ? elicitationOf(model) : null;
  if (!form) return textFallback(model);
  if (ctx.mcpReq.envelope !== undefined) {
    const view = inputResponse(ctx.mcpReq.inputResponses, ANSWER_KEY);
    if (view.kind === 'elicit') return elicitationResult(model, view as unknown as ElicitResult, limits);
    return inputRequired({ inputRequests: { [ANSWER_KEY]: inputRequired.elicit(form) } }) as unknown as CallToolResult;
  }
  const result = await ctx.mcpReq.elicitInput(form, { timeout: timeoutMs, signal: ctx.mcpReq.signal });
  return elicitationResult(model, result, limits);
}

export type { InputRequiredResult };
