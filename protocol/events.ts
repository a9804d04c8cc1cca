import * as z from 'zod/mini';
import { CallIdSchema, MessageIdSchema, SessionIdSchema, TaskSurfaceDismissalIdSchema, TaskSurfaceIdSchema, TurnIdSchema } from './ids.js';
import { JsonObjectSchema, JsonValueSchema } from './json.js';
import { MessageSourceSchema } from './message.js';
import { PrincipalIdSchema } from './principal.js';

/*
 * The session log: append-only, numbered by `seq` from 1, the only authority. Every event is
 * checked against `SessionEventSchema` when read back from a store, and when a plugin appends it;
 * events the host builds are typed and only stamped on append.
 */

const seq = z.int().check(z.positive());
const at = z.int().check(z.nonnegative());

const event = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.strictObject({ seq, at, type: z.literal(type), ...shape });

export const UserMessageEventSchema = event('user/message', {
  messageId: MessageIdSchema,
  text: z.string(),
  source: MessageSourceSchema,
});
export const AssistantMessageEventSchema = event('assistant/message', {
  messageId: MessageIdSchema,
  turnId: TurnIdSchema,
  text: z.string(),
});
export const ToolCallEventSchema = event('tool/call', {
  callId: CallIdSchema,
  turnId: TurnIdSchema,
  name: z.string().check(z.minLength(1)),
  args: JsonValueSchema,
  /** `code`: dispatched from a program (code mode), not by the model directly. */
  origin: z.enum(['model', 'code']),
  agent: z.enum(['root', 'subagent']),
});
export const ToolResultEventSchema = event('tool/result', {
  callId: CallIdSchema,
  turnId: TurnIdSchema,
  name: z.string().check(z.minLength(1)),
  ok: z.boolean(),
  /** The plain text the model receives (and a client without a renderer shows). */
  content: z.string(),
  /** Presentation metadata (for `show_task_surface`: TaskSurfacePresentationMeta). */
  meta: z.optional(JsonValueSchema),
});
export const TaskSurfaceDismissedEventSchema = event('task-surface/dismissed', {
  callId: CallIdSchema,
  surfaceId: TaskSurfaceIdSchema,
  dismissalId: TaskSurfaceDismissalIdSchema,
  /** The principal who dismissed it (absent: host code, or a log from before principals). */
  by: z.optional(PrincipalIdSchema),
});
export const ActionCardsDecisionEventSchema = event('action-cards/decision', {
  callId: CallIdSchema,
  action: z.string().check(z.minLength(1)),
  phase: z.string().check(z.minLength(1)),
  data: JsonObjectSchema,
  /** The principal whose act recorded it (absent: host code, or a log from before principals). */
  by: z.optional(PrincipalIdSchema),
});
export const ActionCardsNoticeEventSchema = event('action-cards/notice', {
  /** Every decision with seq ≤ through has been reported. */
  through: seq,
  text: z.string(),
});
/**
 * The agent's conditional tools changed (a card skill loaded, or a reopened agent lost an
 * activation): the append-only `tool-addition` notice, so the request prefix before it stays cached.
 */
export const ToolsChangedEventSchema = event('tools/changed', {
  added: z.array(z.string().check(z.minLength(1))),
  removed: z.array(z.string().check(z.minLength(1))),
});
export const TurnStartedEventSchema = event('turn/started', {
  turnId: TurnIdSchema,
  /** Set on the one rerun of a turn a crash interrupted; a rerun is never run again. */
  rerunOf: z.optional(TurnIdSchema),
});
export const TurnEndedEventSchema = event('turn/ended', {
  turnId: TurnIdSchema,
  /** `interrupted`: the process stopped mid-turn; appended by the next host when it loads the session. */
  outcome: z.enum(['completed', 'concluded', 'failed', 'cancelled', 'interrupted']),
  error: z.optional(z.string()),
});
/** A session's first event: who owns it (the principal that opened it). */
export const SessionOpenedEventSchema = event('session/opened', {
  owner: PrincipalIdSchema,
});
export const SessionForkedEventSchema = event('session/forked', {
  from: SessionIdSchema,
  /** Who forked it, and so owns the fork (absent in logs from before principals). */
  owner: z.optional(PrincipalIdSchema),
  /** Events with seq ≤ throughSeq were inherited from `from`: they keep their meaning but start nothing. */
  throughSeq: z.int().check(z.nonnegative()),
});
export const SessionRewoundEventSchema = event('session/rewound', {
  /** Events after `toSeq` and before this marker no longer count. */
  toSeq: z.int().check(z.nonnegative()),
});

export const SessionEventSchema = z.discriminatedUnion('type', [
  UserMessageEventSchema,
  AssistantMessageEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  TaskSurfaceDismissedEventSchema,
  ActionCardsDecisionEventSchema,
  ActionCardsNoticeEventSchema,
  ToolsChangedEventSchema,
  TurnStartedEventSchema,
  TurnEndedEventSchema,
  SessionOpenedEventSchema,
  SessionForkedEventSchema,
  SessionRewoundEventSchema,
]);

export type SessionEvent = z.infer<typeof SessionEventSchema>;
export type SessionEventType = SessionEvent['type'];
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
/** An event before the store numbers and stamps it. */
export type NewSessionEvent = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'seq' | 'at'> : never) : never;

export type UserMessageEvent = SessionEventOf<'user/message'>;
export type ToolCallEvent = SessionEventOf<'tool/call'>;
export type ToolResultEvent = SessionEventOf<'tool/result'>;

/** One page of the log, oldest first. `hasMore` says whether older events exist before `events[0]`. */
export interface LogPage {
  events: SessionEvent[];
  hasMore: boolean;
  /** seq of the newest event in the whole log (0 when empty). */
  lastSeq: number;
}
