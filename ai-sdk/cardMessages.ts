/*
 * Action cards in an AI SDK app's `UIMessage[]`: the `propose_action` and `skill` tool parts, the
 * decision data parts a card's acts record, and the notice data part that reports them to the
 * model. Read as the session log's events (messages.ts), so the Host's card fold runs on them.
 */
import type { UIMessage } from 'ai';
import * as z from 'zod/mini';
import { JsonObjectSchema, PROPOSE_ACTION, SKILL_TOOL, type CallId, type SessionEvent, type TurnId } from '../protocol/index.js';

/** The data part a recorded decision adds to the conversation's last assistant message. */
export const ACTION_CARD_DECISION_PART = 'data-action-card-decision';
/** The data part that reports decisions to the model, on the user message of the next request. */
export const ACTION_CARDS_NOTICE_PART = 'data-action-cards-notice';

const Id = z.string().check(z.minLength(1), z.maxLength(256));

/** The `data` of a decision part: one recorded decision of one card. */
export const ActionCardDecisionDataSchema = z.strictObject({
  decisionId: Id,
  /** The `propose_action` call's id as the AI SDK gave it. */
  callId: Id,
  action: z.string().check(z.minLength(1), z.maxLength(64)),
  phase: z.string().check(z.minLength(1), z.maxLength(64)),
  data: JsonObjectSchema,
});
export type ActionCardDecisionData = z.infer<typeof ActionCardDecisionDataSchema>;

/** The `data` of a notice part: the text the model reads and the decisions it reports. */
export const ActionCardsNoticeDataSchema = z.strictObject({
  decisionIds: z.array(Id).check(z.minLength(1)),
  text: z.string(),
});
export type ActionCardsNoticeData = z.infer<typeof ActionCardsNoticeDataSchema>;

/** A decision part as the messages hold it. */
export type ActionCardDecisionPart = { type: typeof ACTION_CARD_DECISION_PART; id: string; data: ActionCardDecisionData };

/** A tool call in a message part: static (`tool-<name>`) or dynamic. */
export interface ToolPart {
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
}

/** The part as a call of tool `name`, or null. */
export function toolPartOf(part: UIMessage['parts'][number], name: string): ToolPart | null {
  if (part.type === `tool-${name}`) return part as ToolPart;
  if (part.type === 'dynamic-tool' && part.toolName === name) return part;
  return null;
}

/** The tool's success output: `ok: true` (the outputs of all the package's tools say so). */
export function isOkOutput(output: unknown): boolean {
  return typeof output === 'object' && output !== null && (output as { ok?: unknown }).ok === true;
}

/** A decision part's data, when the part is one and well-formed. */
export function decisionOf(part: unknown): ActionCardDecisionData | null {
  if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== ACTION_CARD_DECISION_PART) return null;
  const parsed = ActionCardDecisionDataSchema.safeParse((part as { data?: unknown }).data);
  return parsed.success ? parsed.data : null;
}

/** A notice part's data, when the part is one and well-formed. */
export function noticeOf(part: unknown): ActionCardsNoticeData | null {
  if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== ACTION_CARDS_NOTICE_PART) return null;
  const parsed = ActionCardsNoticeDataSchema.safeParse((part as { data?: unknown }).data);
  return parsed.success ? parsed.data : null;
}

type NewEvent = DistributiveOmit<SessionEvent, 'seq' | 'at'>;

/**
 * The log events of one assistant part that concerns cards: a finished `propose_action` or `skill`
 * call is a `tool/call` (the model's own, direct) and its `tool/result`, in the assistant message's
 * turn; a decision part is `action-cards/decision`. Anything else gives nothing.
 */
export function cardPartEvents(part: UIMessage['parts'][number], turnId: TurnId): { events: NewEvent[]; decisionId?: string } {
  const decision = decisionOf(part);
  if (decision) {
    const { decisionId, callId, action, phase, data } = decision;
    return { events: [{ type: 'action-cards/decision', callId: callId as CallId, action, phase, data }], decisionId };
  }
  for (const name of [PROPOSE_ACTION, SKILL_TOOL]) {
    const call = toolPartOf(part, name);
    if (!call) continue;
    if (call.state !== 'output-available' && call.state !== 'output-error') return { events: [] };
    const callId = String(call.toolCallId) as CallId;
    const ok = call.state === 'output-available' && isOkOutput(call.output);
    const args = (call.input ?? null) as never;
    return {
      events: [
        { type: 'tool/call', callId, turnId, name, args, origin: 'model', agent: 'root' },
        { type: 'tool/result', callId, turnId, name, ok, content: '' },
      ],
    };
  }
  return { events: [] };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
