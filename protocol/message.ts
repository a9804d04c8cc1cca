import * as z from 'zod/mini';
import { InboxItemIdSchema, MessageIdSchema, RpcIdSchema, SessionIdSchema, type InboxItemId, type MessageId } from './ids.js';
import { PrincipalIdSchema } from './principal.js';
import type { PrincipalLimitRefusal } from './limitErrors.js';
import { TaskSurfaceCorrelationSchema } from './taskSurface.js';

/**
 * Where a user message came from. `kind: 'user'` keeps the ordinary user bubble and prompt
 * semantics; `taskSurface` is the merge-extension that correlates a Task Surface submission.
 */
export const MessageSourceSchema = z.strictObject({
  kind: z.literal('user'),
  rpcId: RpcIdSchema,
  taskSurface: z.optional(TaskSurfaceCorrelationSchema),
  /** The principal who sent or submitted it (absent: host code, or a log from before principals). */
  by: z.optional(PrincipalIdSchema),
});
export type MessageSource = z.infer<typeof MessageSourceSchema>;

export type QueuePlacement = 'queued' | 'steering';

/** A user message waiting in a session's inbox for a later turn, as clients see it. */
export interface QueuedMessage {
  id: InboxItemId;
  messageId: MessageId;
  placement: QueuePlacement;
  source: MessageSource;
  text: string;
  /** The first line of `text`, at most 120 characters. */
  preview: string;
}

/** Longest ordinary user message, in characters. */
export const MESSAGE_MAX_LENGTH = 32 * 1024;

export const SendMessageRequestSchema = z.strictObject({
  sessionId: SessionIdSchema,
  messageId: MessageIdSchema,
  rpcId: RpcIdSchema,
  text: z
    .string()
    .check(
      z.minLength(1, 'message must not be empty'),
      z.maxLength(MESSAGE_MAX_LENGTH, `message must be at most ${MESSAGE_MAX_LENGTH} characters`),
    ),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequestSchema>;
export type SendMessageResult =
  | { accepted: true; messageId: MessageId; itemId: InboxItemId }
  /** `queue-full`: the session already holds the host's `maxQueuedMessages` rows; nothing was added. */
  | { accepted: false; reason: 'unknown-session' | 'read-only' | 'queue-full' }
  | PrincipalLimitRefusal;

export const UpdateQueueRequestSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('remove'), sessionId: SessionIdSchema, itemId: InboxItemIdSchema }),
  z.strictObject({
    op: z.literal('edit'),
    sessionId: SessionIdSchema,
    itemId: InboxItemIdSchema,
    text: z.string().check(z.minLength(1), z.maxLength(MESSAGE_MAX_LENGTH)),
  }),
  z.strictObject({ op: z.literal('steer'), sessionId: SessionIdSchema, itemId: InboxItemIdSchema }),
]);
export type UpdateQueueRequest = z.infer<typeof UpdateQueueRequestSchema>;
export type UpdateQueueResult = { ok: true } | { ok: false; reason: 'queue-item-not-found' | 'task-surface-row' };
