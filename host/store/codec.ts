import { describeIssues, SessionEventSchema, type NewSessionEvent, type SessionEvent, type SessionId } from '../../protocol/index.js';
import { CorruptEventError } from './types.js';

/** An event the store refused to append because it fails its schema. */
export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
  constructor(readonly sessionId: string, detail: string) {
    super(`session ${sessionId}: refused to append an invalid session event: ${detail}`);
  }
}

/** Numbers, stamps and validates an event before a store writes it; throws InvalidEventError. */
export function stampEvent(sessionId: SessionId, event: NewSessionEvent, seq: number, at: number): SessionEvent {
  const parsed = SessionEventSchema.safeParse({ ...event, seq, at });
  if (!parsed.success) throw new InvalidEventError(sessionId, describeIssues(parsed.error.issues));
  return parsed.data;
}

/** Parses a stored row back into an event; a row that fails its schema throws CorruptEventError. */
export function decodeEvent(sessionId: SessionId, seq: number, json: string): SessionEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new CorruptEventError(sessionId, seq, `not JSON (${(error as Error).message})`);
  }
  const parsed = SessionEventSchema.safeParse(raw);
  if (!parsed.success) throw new CorruptEventError(sessionId, seq, describeIssues(parsed.error.issues));
  if (parsed.data.seq !== seq) throw new CorruptEventError(sessionId, seq, `its body says seq ${parsed.data.seq}`);
  return parsed.data;
}
