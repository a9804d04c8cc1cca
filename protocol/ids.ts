import * as z from 'zod/mini';

declare const brand: unique symbol;

/** A nominal type: a `T` that only a parser or a `mint…` helper can produce. */
export type Branded<T, Name extends string> = T & { readonly [brand]: Name };

export type SessionId = Branded<string, 'SessionId'>;
export type CallId = Branded<string, 'CallId'>;
export type MessageId = Branded<string, 'MessageId'>;
export type RpcId = Branded<string, 'RpcId'>;
export type InboxItemId = Branded<string, 'InboxItemId'>;
export type TurnId = Branded<string, 'TurnId'>;
export type TaskSurfaceId = Branded<string, 'TaskSurfaceId'>;
export type TaskSurfaceSubmissionId = Branded<string, 'TaskSurfaceSubmissionId'>;
export type TaskSurfaceDismissalId = Branded<string, 'TaskSurfaceDismissalId'>;

/** Ids are opaque strings of 1–128 characters from a URL- and log-safe set. */
export const ID_MAX_LENGTH = 128;
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

function idSchema<Id extends Branded<string, string>>(name: string) {
  return z
    .string()
    .check(
      z.minLength(1, `${name} must not be empty`),
      z.maxLength(ID_MAX_LENGTH, `${name} must be at most ${ID_MAX_LENGTH} characters`),
      z.regex(ID_PATTERN, `${name} must start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'`),
    ) as unknown as z.ZodMiniType<Id, string>;
}

export const SessionIdSchema = idSchema<SessionId>('sessionId');
export const CallIdSchema = idSchema<CallId>('callId');
export const MessageIdSchema = idSchema<MessageId>('messageId');
export const RpcIdSchema = idSchema<RpcId>('rpcId');
export const InboxItemIdSchema = idSchema<InboxItemId>('inboxItemId');
export const TurnIdSchema = idSchema<TurnId>('turnId');
export const TaskSurfaceIdSchema = idSchema<TaskSurfaceId>('surfaceId');
export const TaskSurfaceSubmissionIdSchema = idSchema<TaskSurfaceSubmissionId>('submissionId');
export const TaskSurfaceDismissalIdSchema = idSchema<TaskSurfaceDismissalId>('dismissalId');

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts; a page served over plain
 * http (a LAN demo) still has `getRandomValues`, so ids can always be minted.
 */
export function mintUuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const mint =
  <Id extends Branded<string, string>>() =>
  (): Id =>
    mintUuid() as Id;

/* Minters of fresh branded ids (random UUIDs), one per id kind. */
export const mintSessionId = mint<SessionId>();
export const mintCallId = mint<CallId>();
export const mintMessageId = mint<MessageId>();
export const mintRpcId = mint<RpcId>();
export const mintInboxItemId = mint<InboxItemId>();
export const mintTurnId = mint<TurnId>();
export const mintTaskSurfaceId = mint<TaskSurfaceId>();
export const mintTaskSurfaceSubmissionId = mint<TaskSurfaceSubmissionId>();
export const mintTaskSurfaceDismissalId = mint<TaskSurfaceDismissalId>();
