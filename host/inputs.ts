import * as z from 'zod/mini';
import { LocaleTagSchema, SessionIdSchema, type SessionId } from '../protocol/index.js';
import { parseInput } from './errors.js';
import type { OpenSessionOptions } from './types.js';

/*
 * Schemas of the Host's own method arguments (the Task Surface and queue requests have theirs in
 * `protocol/`). Host code is outside input too: a bad option must fail here, clearly, rather than
 * be stored in a session record or a log.
 */

const TitleSchema = z.string().check(z.minLength(1, 'title must not be empty'), z.maxLength(200, 'title must be at most 200 characters'));

const OpenSessionOptionsSchema = z.strictObject({
  sessionId: z.optional(SessionIdSchema),
  title: z.optional(TitleSchema),
  toolMode: z.optional(z.enum(['native', 'both', 'code'])),
  readOnly: z.optional(z.boolean()),
  locale: z.optional(LocaleTagSchema),
});

const ReadLogOptionsSchema = z.strictObject({
  before: z.optional(z.int().check(z.positive('before must be a positive seq'))),
  limit: z.int().check(z.positive('limit must be a positive integer')),
  maxBytes: z.optional(z.int().check(z.positive('maxBytes must be a positive integer'))),
});

const ForkOptionsSchema = z.strictObject({
  throughSeq: z.optional(z.int().check(z.nonnegative('throughSeq must not be negative'))),
  title: z.optional(TitleSchema),
});

/** A session id argument: a malformed one is a HostInputError, never an unknown session. */
export const sessionIdInput = (operation: string, sessionId: unknown): SessionId => parseInput(operation, SessionIdSchema, sessionId);

/** `openSession` options, checked (an absent argument is `{}`). */
export const openSessionInput = (options: unknown): OpenSessionOptions =>
  parseInput('openSession', OpenSessionOptionsSchema, options ?? {});

/** `readLog` options, checked: `limit` a positive integer, `before` a positive seq, `maxBytes` positive. */
export const readLogInput = (options: unknown): { before?: number; limit: number; maxBytes?: number } =>
  parseInput('readLog', ReadLogOptionsSchema, options);

/** `fork` options, checked (the seq range is checked against the log by `forkSession`). */
export const forkInput = (options: unknown): { throughSeq?: number; title?: string } =>
  parseInput('fork', ForkOptionsSchema, options ?? {});
