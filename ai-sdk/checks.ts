/*
 * The server's checks on an app's own messages: the Host's submit and dismiss decisions
 * (host/taskSurface/decide.ts) run against the fold of the persisted `UIMessage[]`.
 */
import type { UIMessage } from 'ai';
import * as z from 'zod/mini';
import { decideDismissal, decideSubmission } from '../host/taskSurface/decide.js';
import {
  formatSubmission,
  issueText,
  OWN_WORDS,
  resolveLimits,
  submissionLocaleOf,
  submissionLocales,
  TaskSurfaceDismissalIdSchema,
  TaskSurfaceIdSchema,
  type CallId,
  type JsonValue,
  type TaskSurfaceId,
  type TaskSurfaceLimitsInput,
  type TaskSurfaceSubmissionId,
} from '../protocol/index.js';
import type { CardKind } from '../host/types.js';
import { ACTION_CARD_DECISION_PART, ACTION_CARDS_NOTICE_PART } from './cardMessages.js';
import { withActionCardsNotice } from './cards.js';
import { foldTaskSurface } from './fold.js';
import { refusedPart, type TaskSurfaceUserParts } from './parts.js';
import { TASK_SURFACE_DISMISSAL_PART, TaskSurfaceSubmissionMetadataSchema, type TaskSurfaceDismissalData } from './messages.js';

/** Why a message is refused: the Host's submit reasons, and `invalid-message` for what is not a user message at all. */
export type TaskSurfaceMessageRejection = 'not-open' | 'stale' | 'invalid-submission' | 'invalid-message';

/**
 * The answer for one incoming message. `accepted`: append it (`messages` is the conversation with
 * it, its correlation in canonical form) and run the model. `repeated`: this message id, or this
 * submissionId, is already in the messages: the first answer again, `messages` unchanged, no model
 * call. Otherwise refused with a reason and a readable `message`; nothing to append.
 */
export type TaskSurfaceMessageCheck =
  | { accepted: true; repeated: boolean; kind: 'submission' | 'message'; messageId: string; messages: UIMessage[] }
  | { accepted: false; reason: TaskSurfaceMessageRejection; message: string };

const MessageShapeSchema = z.looseObject({
  id: z.string().check(z.minLength(1), z.maxLength(256)),
  role: z.literal('user'),
  parts: z.array(z.looseObject({ type: z.string() })),
});

/** Parts only the server writes: a page that sends one could forge a dismissal, a decision or a notice. */
const RESERVED_PARTS = new Set([TASK_SURFACE_DISMISSAL_PART, ACTION_CARD_DECISION_PART, ACTION_CARDS_NOTICE_PART]);

const refuse = (reason: TaskSurfaceMessageRejection, message: string): TaskSurfaceMessageCheck => ({ accepted: false, reason, message });

/**
 * Checks the message `useChat` sent (`incoming`) against the app's persisted `messages`, as the
 * Host's submit does: a submission (a user message whose `metadata.taskSurface` answers the open
 * surface) must name the open surface, carry values valid for its persisted model, and have
 * `formatSubmission`'s text; an ordinary user message is accepted (and bypasses an open surface).
 * Persist the accepted `messages` before calling the model, so a retry finds them. With the app's
 * card `kinds`, a new message also gains the notice of the card decisions not reported yet
 * (`withActionCardsNotice`). Parts only the server writes are refused, and so is any part but text
 * unless `parts` allows it (`file` from named origins, the app's own types). Pure; never throws.
 */
export function checkTaskSurfaceMessage(
  messages: readonly UIMessage[],
  incoming: unknown,
  options: {
    kinds?: readonly CardKind[] | undefined;
    limits?: TaskSurfaceLimitsInput | undefined;
    parts?: TaskSurfaceUserParts | undefined;
  } = {},
): TaskSurfaceMessageCheck {
  const check = checkMessage(messages, incoming, options.limits, options.parts);
  // A new message carries the card decisions no request reported yet: exactly once, in place.
  if (!check.accepted || check.repeated || !options.kinds) return check;
  return { ...check, messages: withActionCardsNotice(check.messages, options.kinds) };
}

function checkMessage(
  messages: readonly UIMessage[],
  incoming: unknown,
  limits: TaskSurfaceLimitsInput | undefined,
  parts: TaskSurfaceUserParts | undefined,
): TaskSurfaceMessageCheck {
  const shape = MessageShapeSchema.safeParse(incoming);
  if (!shape.success) {
    return refuse('invalid-message', 'the incoming message must be a user message { id, role: "user", parts: [...] }');
  }
  const reserved = shape.data.parts.find((p) => RESERVED_PARTS.has(p.type));
  if (reserved) return refuse('invalid-message', `a page cannot send a "${reserved.type}" part: the server records it`);
  const refused = refusedPart(shape.data.parts, parts);
  if (refused) return refuse('invalid-message', refused);
  const message = incoming as UIMessage;
  const state = foldTaskSurface(messages);
  const metadata: unknown = message.metadata;
  const asked = typeof metadata === 'object' && metadata !== null && 'taskSurface' in metadata ? metadata.taskSurface : undefined;
  const kind = asked === undefined ? 'message' : 'submission';
  if (messages.some((m) => m.id === message.id))
    return { accepted: true, repeated: true, kind, messageId: message.id, messages: [...messages] };
  if (asked === undefined) return { accepted: true, repeated: false, kind, messageId: message.id, messages: [...messages, message] };

  const correlation = TaskSurfaceSubmissionMetadataSchema.safeParse(asked, OWN_WORDS);
  if (!correlation.success) {
    const issue = correlation.error.issues[0];
    return refuse(
      'invalid-submission',
      `metadata.taskSurface is malformed: ${issue?.path.join('.') || '(root)'}: ${issue === undefined ? '' : issueText(issue)}`,
    );
  }
  const { submissionId, callId, surfaceId, values, note } = correlation.data;
  const decision = decideSubmission(
    state.fold,
    note === undefined ? { submissionId, surfaceId, values } : { submissionId, surfaceId, values, note },
    {
      model: (open) => (state.open?.callId === open ? state.open.model : null),
      // The configured limits, or those the show wrote beside its model (the same, when the route passes them to both).
      limits: limits === undefined ? state.open?.limits : resolveLimits(limits),
    },
  );
  if (decision.decision === 'repeat')
    return { accepted: true, repeated: true, kind, messageId: decision.messageId, messages: [...messages] };
  // Nothing is pending here (an accepted message is durable at once): the Host's other reasons remain.
  if (decision.decision === 'refuse') return refuse(decision.reason as TaskSurfaceMessageRejection, refusalText(decision.reason));
  if (decision.callId !== (callId as CallId)) return refuse('stale', refusalText('stale'));
  const text = message.parts.map((p) => (p.type === 'text' ? p.text : '\u0000')).join('');
  // In any language the formatter knows (the six shipped, and those the app registered): the page writes the person's.
  const written = (locale: string) => formatSubmission(decision.model, decision.values, decision.note, { locale }) === text;
  if (!submissionLocales().some(written)) {
    return refuse('invalid-submission', "the submission's text must be formatSubmission's text of its values (and nothing but text parts)");
  }
  const canonical = { version: 1 as const, submissionId, callId, surfaceId, values: decision.values as Record<string, JsonValue> };
  const taskSurface = decision.note === undefined ? canonical : { ...canonical, note: decision.note };
  const accepted = { ...message, metadata: { ...(metadata as object), taskSurface } };
  return { accepted: true, repeated: false, kind, messageId: message.id, messages: [...messages, accepted] };
}

function refusalText(reason: 'not-open' | 'stale' | 'invalid-submission' | 'submission-pending'): string {
  switch (reason) {
    case 'not-open':
      return 'no task surface is open in this conversation';
    case 'stale':
      return 'the submission answers a task surface that is no longer the open one';
    case 'invalid-submission':
      return "the submitted values do not match the open surface's fields";
    default:
      return 'another submission of this surface is pending';
  }
}

/** What a page submits: the Dock's request without the session (the chat is the session). */
export interface TaskSurfaceSubmissionRequest {
  surfaceId: string;
  submissionId: string;
  values: Record<string, JsonValue>;
  note?: string | undefined;
  /** The language of the text: a shipped tag (en, zh, es, de, ja, ar) or one the app registered; default `en`. */
  locale?: string | undefined;
}

/**
 * The user message that submits the open surface, as `chat.sendMessage` takes it (`id`, `role`,
 * one text part with `formatSubmission`'s text, `metadata.taskSurface`), decided as the server's
 * check will decide it; `repeated` when the messages already hold this submissionId (send nothing).
 */
export function taskSurfaceSubmissionMessage(
  messages: readonly UIMessage[],
  request: TaskSurfaceSubmissionRequest,
  messageId: string,
):
  | { accepted: true; repeated: false; message: UIMessage & { role: 'user' } }
  | { accepted: true; repeated: true; messageId: string }
  | { accepted: false; reason: 'not-open' | 'stale' | 'invalid-submission'; message: string } {
  const state = foldTaskSurface(messages);
  const asked = {
    surfaceId: request.surfaceId as TaskSurfaceId,
    submissionId: request.submissionId as TaskSurfaceSubmissionId,
    values: request.values,
    note: request.note,
  };
  const decision = decideSubmission(state.fold, asked, {
    model: (open) => (state.open?.callId === open ? state.open.model : null),
    ...(state.open ? { limits: state.open.limits } : {}),
  });
  if (decision.decision === 'repeat') return { accepted: true, repeated: true, messageId: decision.messageId };
  if (decision.decision === 'refuse') {
    const reason = decision.reason === 'submission-pending' ? 'stale' : decision.reason;
    return { accepted: false, reason, message: refusalText(reason) };
  }
  const locale = submissionLocaleOf(request.locale);
  const base = {
    version: 1 as const,
    submissionId: asked.submissionId,
    callId: decision.callId,
    surfaceId: decision.surfaceId,
    values: decision.values,
  };
  const taskSurface = decision.note === undefined ? base : { ...base, note: decision.note };
  const text = formatSubmission(decision.model, decision.values, decision.note, { locale });
  return {
    accepted: true,
    repeated: false,
    message: { id: messageId, role: 'user', parts: [{ type: 'text', text }], metadata: { taskSurface } },
  };
}

/** What a page asks to dismiss. */
export const TaskSurfaceDismissalRequestSchema = z.strictObject({
  surfaceId: TaskSurfaceIdSchema,
  dismissalId: TaskSurfaceDismissalIdSchema,
});
export type TaskSurfaceDismissalRequest = z.infer<typeof TaskSurfaceDismissalRequestSchema>;

/**
 * The answer to a dismissal. `dismissed`: persist `messages` (the last assistant message gains a
 * `data-task-surface-dismissal` part); `repeated`: this dismissalId is already recorded, `messages`
 * unchanged. No model is called either way.
 */
export type TaskSurfaceDismissalResult =
  | { dismissed: true; repeated: boolean; messages: UIMessage[] }
  | { dismissed: false; reason: 'not-open' | 'stale' | 'invalid-request'; message: string };

/**
 * Records the dismissal of the open surface in the messages, as the Host's dismiss decides it:
 * idempotent by `dismissalId`, refused when no surface is open or another one is. Pure; never throws.
 */
export function dismissTaskSurface(messages: readonly UIMessage[], request: unknown): TaskSurfaceDismissalResult {
  const parsed = TaskSurfaceDismissalRequestSchema.safeParse(request, OWN_WORDS);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      dismissed: false,
      reason: 'invalid-request',
      message: `${issue?.path.join('.') || '(root)'}: ${issue === undefined ? '' : issueText(issue)}`,
    };
  }
  const state = foldTaskSurface(messages);
  const decision = decideDismissal(state.fold, parsed.data);
  if (decision.decision === 'repeat') return { dismissed: true, repeated: true, messages: [...messages] };
  if (decision.decision === 'refuse') {
    return { dismissed: false, reason: decision.reason === 'stale' ? 'stale' : 'not-open', message: refusalText(decision.reason) };
  }
  const data: TaskSurfaceDismissalData = { dismissalId: parsed.data.dismissalId, callId: decision.callId, surfaceId: decision.surfaceId };
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const next = [...messages];
  const holder = next[at]!;
  next[at] = { ...holder, parts: [...holder.parts, { type: TASK_SURFACE_DISMISSAL_PART, id: data.dismissalId, data }] };
  return { dismissed: true, repeated: false, messages: next };
}
