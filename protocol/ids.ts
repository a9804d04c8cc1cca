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

export * from './mint.js';
