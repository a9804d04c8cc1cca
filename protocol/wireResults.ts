import * as z from 'zod/mini';
import {
  CallIdSchema,
  InboxItemIdSchema,
  MessageIdSchema,
  SessionIdSchema,
  TaskSurfaceIdSchema,
  TurnIdSchema,
  TaskSurfaceSubmissionIdSchema,
} from './ids.js';
import { JsonObjectSchema } from './json.js';
import { MessageSourceSchema } from './message.js';
import { SessionEventSchema } from './events.js';
import { TaskSurfaceModelV1Schema } from './model.js';
import type { SessionView } from './session.js';

/*
 * Schemas of what a host answers, as the WebSocket client checks them. Objects are loose: a newer
 * host may add fields and an older client keeps them instead of failing.
 */

const seq = z.int().check(z.nonnegative());

export const QueuedMessageSchema = z.looseObject({
  id: InboxItemIdSchema,
  messageId: MessageIdSchema,
  placement: z.enum(['queued', 'steering']),
  source: MessageSourceSchema,
  text: z.string(),
  preview: z.string(),
});

export const CardProposalSchema = z.looseObject({
  callId: CallIdSchema,
  action: z.string(),
  title: z.string(),
  brief: z.string(),
  details: JsonObjectSchema,
  seq,
});
export const CardDecisionSchema = z.looseObject({
  callId: CallIdSchema,
  action: z.string(),
  phase: z.string(),
  data: JsonObjectSchema,
  seq,
});
export const ActionCardsViewSchema = z.looseObject({
  proposals: z.array(CardProposalSchema),
  decisions: z.record(z.string(), CardDecisionSchema),
});

export const PendingSubmissionSchema = z.looseObject({
  submissionId: TaskSurfaceSubmissionIdSchema,
  messageId: MessageIdSchema,
  phase: z.enum(['queued', 'claiming']),
});

/** The pushed view. Typed as `SessionView`, so the compiler keeps the schema and the contract the same. */
export const SessionViewSchema: z.ZodMiniType<SessionView> = z.looseObject({
  sessionId: SessionIdSchema,
  lastSeq: seq,
  readOnly: z.boolean(),
  turn: z.enum(['idle', 'running']),
  taskSurface: z.looseObject({
    active: z.nullable(
      z.looseObject({ callId: CallIdSchema, surfaceId: TaskSurfaceIdSchema, pending: z.nullable(PendingSubmissionSchema) }),
    ),
  }),
  queue: z.array(QueuedMessageSchema),
  actionCards: ActionCardsViewSchema,
  streaming: z.optional(z.strictObject({ turnId: TurnIdSchema, text: z.string() })),
  preview: z.optional(z.strictObject({ turnId: TurnIdSchema, model: TaskSurfaceModelV1Schema })),
  waiting: z.optional(z.literal('model')),
});

export const SessionSummarySchema = z.looseObject({
  sessionId: SessionIdSchema,
  title: z.string(),
  lastSeq: seq,
});

export const LogPageSchema = z.looseObject({
  events: z.array(SessionEventSchema),
  hasMore: z.boolean(),
  lastSeq: seq,
});

export const GetActiveResultSchema = z.discriminatedUnion('active', [
  z.looseObject({
    active: z.literal(true),
    callId: CallIdSchema,
    surfaceId: TaskSurfaceIdSchema,
    model: TaskSurfaceModelV1Schema,
    pending: z.nullable(PendingSubmissionSchema),
  }),
  z.looseObject({ active: z.literal(false), reason: z.literal('not-open') }),
]);

const closedAt = { callId: CallIdSchema, seq: z.int().check(z.positive()) };
export const TaskSurfaceOutcomeSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('open'), callId: CallIdSchema, pending: z.nullable(PendingSubmissionSchema) }),
  z.looseObject({ status: z.literal('submitted'), ...closedAt, messageId: MessageIdSchema, values: JsonObjectSchema }),
  z.looseObject({ status: z.literal('dismissed'), ...closedAt }),
  z.looseObject({ status: z.literal('bypassed'), ...closedAt }),
  z.looseObject({ status: z.literal('unknown') }),
]);

export const SubmitResultSchema = z.discriminatedUnion('accepted', [
  z.looseObject({ accepted: z.literal(true), messageId: MessageIdSchema, phase: z.literal('queued') }),
  z.looseObject({
    accepted: z.literal(false),
    reason: z.enum(['not-open', 'stale', 'invalid-submission', 'submission-pending', 'quota-exceeded', 'too-busy']),
    message: z.optional(z.string()),
    retryAfterMs: z.optional(z.int().check(z.nonnegative())),
  }),
]);

export const DismissResultSchema = z.discriminatedUnion('dismissed', [
  z.looseObject({ dismissed: z.literal(true), eventSeq: z.int().check(z.positive()) }),
  z.looseObject({ dismissed: z.literal(false), reason: z.enum(['not-open', 'stale', 'submission-pending']) }),
]);

export const SendMessageResultSchema = z.discriminatedUnion('accepted', [
  z.looseObject({ accepted: z.literal(true), messageId: MessageIdSchema, itemId: InboxItemIdSchema }),
  z.looseObject({
    accepted: z.literal(false),
    reason: z.enum(['unknown-session', 'read-only', 'queue-full', 'quota-exceeded', 'too-busy']),
    message: z.optional(z.string()),
    retryAfterMs: z.optional(z.int().check(z.nonnegative())),
  }),
]);

export const UpdateQueueResultSchema = z.discriminatedUnion('ok', [
  z.looseObject({ ok: z.literal(true) }),
  z.looseObject({ ok: z.literal(false), reason: z.enum(['queue-item-not-found', 'task-surface-row']) }),
]);

export const ActResultSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('accepted'), phase: z.string() }),
  z.looseObject({ status: z.literal('settled'), phase: z.string() }),
  z.looseObject({ status: z.literal('refused'), reason: z.string() }),
  z.looseObject({ status: z.literal('unconfirmed') }),
]);
