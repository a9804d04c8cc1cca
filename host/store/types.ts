import type { CallId, NewSessionEvent, SessionEvent, SessionId } from '../../protocol/index.js';

export interface SessionRecord {
  sessionId: SessionId;
  title: string;
  createdAt: number;
  toolMode: 'native' | 'both' | 'code';
  readOnly: boolean;
  locale: 'en' | 'zh';
}

/**
 * An append-only session log. Appends are synchronous and durable when they return (SQLite: one
 * transaction each). Reads by seq and by callId use indexes, never a scan.
 */
export interface SessionLogStore {
  createSession(record: SessionRecord): void;
  getSession(sessionId: SessionId): SessionRecord | undefined;
  listSessions(): SessionRecord[];
  /** Validates, numbers (lastSeq + 1) and stamps the event, then stores it. */
  append(sessionId: SessionId, event: NewSessionEvent, at: number): SessionEvent;
  /**
   * Appends events in order, all or none (SQLite: one transaction for the whole batch), each
   * validated, numbered and stamped with its own `at`. Used to copy a log prefix (fork).
   */
  appendMany(sessionId: SessionId, entries: Iterable<{ event: NewSessionEvent; at: number }>): SessionEvent[];
  /** Events with afterSeq < seq < beforeSeq, oldest first, at most `limit` (newest ones when `fromEnd`). */
  read(sessionId: SessionId, range?: { afterSeq?: number; beforeSeq?: number; limit?: number; fromEnd?: boolean }): SessionEvent[];
  get(sessionId: SessionId, seq: number): SessionEvent | undefined;
  /** The tool/call and tool/result events of one call. */
  findCall(sessionId: SessionId, callId: CallId): { call?: SessionEvent; result?: SessionEvent };
  lastSeq(sessionId: SessionId): number;
  close(): void;
}

/** A stored event failed its schema when read back: corrupt or from an unknown version. */
export class CorruptEventError extends Error {
  override name = 'CorruptEventError';
  constructor(readonly sessionId: string, readonly seq: number, detail: string) {
    super(`session ${sessionId}: stored event seq ${seq} is not a valid session event: ${detail}`);
  }
}
