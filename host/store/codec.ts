import * as z from 'zod/mini';
import {
  describeIssues,
  InboxItemIdSchema,
  MessageIdSchema,
  MessageSourceSchema,
  SessionEventSchema,
  type NewSessionEvent,
  type SessionEvent,
  type SessionId,
} from '../../protocol/index.js';
import { CorruptEventError, CorruptQueueRowError, type StoredQueueRow } from './types.js';

/** An event the store refused to append because it fails its schema. */
export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
  constructor(
    readonly sessionId: string,
    detail: string,
  ) {
    super(`session ${sessionId}: refused to append an invalid session event: ${detail}`);
  }
}

/** The event types the log knows (the values of the union's discriminator). */
const EVENT_TYPES: ReadonlySet<unknown> = SessionEventSchema._zod.propValues.type ?? new Set();

/**
 * Numbers and stamps an event before a store writes it. Events are built by host code and typed, so
 * they are not parsed again here (what comes from outside was validated at its edge: the wire, tool
 * arguments, plugin appends); a cheap guard still refuses what no typed code can build (not an
 * object, an unknown type) with InvalidEventError. Every event is validated when it is read back.
 */
export function stampEvent(sessionId: SessionId, event: NewSessionEvent, seq: number, at: number): SessionEvent {
  if (typeof event !== 'object' || event === null || !EVENT_TYPES.has((event as { type?: unknown }).type)) {
    throw new InvalidEventError(sessionId, `type: expected one of ${[...EVENT_TYPES].join(', ')}`);
  }
  return { ...event, seq, at } as SessionEvent;
}

/** Validates an event from code the host does not type-check (a plugin); throws InvalidEventError. */
export function validateNewEvent(sessionId: SessionId, event: NewSessionEvent): NewSessionEvent {
  const parsed = SessionEventSchema.safeParse({ ...event, seq: 1, at: 0 });
  if (!parsed.success) throw new InvalidEventError(sessionId, describeIssues(parsed.error.issues));
  const { seq: _seq, at: _at, ...checked } = parsed.data;
  return checked as NewSessionEvent;
}

/** Parses stored JSON with `schema`; `corrupt(detail)` makes the error for a row that fails it. */
function decodeStored<T>(json: string, schema: z.ZodMiniType<T>, corrupt: (detail: string) => Error): T {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw corrupt(`not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw corrupt(describeIssues(parsed.error.issues));
  return parsed.data;
}

/** Parses a stored row back into an event; a row that fails its schema throws CorruptEventError. */
export function decodeEvent(sessionId: SessionId, seq: number, json: string): SessionEvent {
  const corrupt = (detail: string) => new CorruptEventError(sessionId, seq, detail);
  const event = decodeStored(json, SessionEventSchema, corrupt);
  if (event.seq !== seq) throw corrupt(`its body says seq ${event.seq}`);
  return event;
}

const QueueRowSchema = z.strictObject({
  itemId: InboxItemIdSchema,
  messageId: MessageIdSchema,
  placement: z.enum(['queued', 'steering']),
  source: MessageSourceSchema,
  text: z.string(),
  order: z.number().check(z.int()),
});

/** An inbox row the store refused to save because it fails its schema. */
export class InvalidQueueRowError extends Error {
  override name = 'InvalidQueueRowError';
  constructor(
    readonly sessionId: string,
    detail: string,
  ) {
    super(`session ${sessionId}: refused to save an invalid inbox row: ${detail}`);
  }
}

/** Validates an inbox row before a store writes it, and returns its JSON. */
export function encodeQueueRow(sessionId: SessionId, row: StoredQueueRow): string {
  const parsed = QueueRowSchema.safeParse(row);
  if (!parsed.success) throw new InvalidQueueRowError(sessionId, describeIssues(parsed.error.issues));
  return JSON.stringify(parsed.data);
}

/** Parses a stored inbox row; a row that fails its schema throws CorruptQueueRowError. */
export function decodeQueueRow(sessionId: SessionId, itemId: string, json: string): StoredQueueRow {
  const corrupt = (detail: string) => new CorruptQueueRowError(sessionId, itemId, detail);
  const row = decodeStored(json, QueueRowSchema, corrupt);
  if (row.itemId !== itemId) throw corrupt(`its body says itemId ${row.itemId}`);
  return row;
}
