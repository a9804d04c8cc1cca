import type {
  CallId,
  InboxItemId,
  MessageId,
  MessageSource,
  NewSessionEvent,
  QueuePlacement,
  SessionEvent,
  SessionId,
} from '../../protocol/index.js';

/**
 * An ordinary user message waiting in a session's inbox, kept so a restart does not lose it.
 * Separate from the append-only log: rows are replaced and deleted.
 */
export interface StoredQueueRow {
  itemId: InboxItemId;
  messageId: MessageId;
  placement: QueuePlacement;
  source: MessageSource;
  text: string;
  /** Position in the inbox (ascending); unique within a session. */
  order: number;
}

export interface SessionRecord {
  sessionId: SessionId;
  title: string;
  createdAt: number;
  toolMode: 'native' | 'both' | 'code';
  readOnly: boolean;
  /** A BCP 47 tag (see `localeChain` in protocol). */
  locale: string;
  /**
   * The principal id that owns the session (who opened or forked it), kept in the store's owner
   * index. null or absent: host code opened it, or the store predates owners (the Host then reads
   * the owner from the session's first event).
   */
  owner?: string | null;
}

/** A session as the owner index lists it: its record, its last seq and its stored size. */
export interface OwnedSessionRecord extends SessionRecord {
  lastSeq: number;
  /** UTF-8 bytes of its stored events' JSON (what its log costs the store). */
  bytes: number;
}

/**
 * An append-only session log. Appends are synchronous and durable when they return (SQLite: one
 * transaction each). Reads by seq and by callId use indexes, never a scan.
 */
export interface SessionLogStore {
  createSession(record: SessionRecord): void;
  getSession(sessionId: SessionId): SessionRecord | undefined;
  listSessions(): SessionRecord[];
  /**
   * The owner index: the sessions whose record names `owner`, oldest first. Costs O(those
   * sessions), never a scan of every session or a read of any log.
   */
  listSessionsOf(owner: string): OwnedSessionRecord[];
  /** UTF-8 bytes of the session's stored events' JSON; 0 for an unknown session. */
  storedBytes(sessionId: SessionId): number;
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
  /** Stores (or replaces, by itemId) a pending inbox row; validated first (InvalidQueueRowError). */
  saveQueued(sessionId: SessionId, row: StoredQueueRow): void;
  /** Changes a stored row's text or placement; nothing when there is no such row. */
  updateQueued(sessionId: SessionId, itemId: InboxItemId, change: { text?: string; placement?: QueuePlacement }): void;
  /** Forgets a stored row; nothing when there is no such row. */
  deleteQueued(sessionId: SessionId, itemId: InboxItemId): void;
  /** The session's stored rows by `order`, each validated (CorruptQueueRowError). */
  listQueued(sessionId: SessionId): StoredQueueRow[];
  close(): void;
}

/** A stored event failed its schema when read back: corrupt or from an unknown version. */
export class CorruptEventError extends Error {
  override name = 'CorruptEventError';
  constructor(
    readonly sessionId: string,
    readonly seq: number,
    detail: string,
  ) {
    super(`session ${sessionId}: stored event seq ${seq} is not a valid session event: ${detail}`);
  }
}

/** A stored inbox row failed its schema when read back. */
export class CorruptQueueRowError extends Error {
  override name = 'CorruptQueueRowError';
  constructor(
    readonly sessionId: string,
    readonly itemId: string,
    detail: string,
  ) {
    super(`session ${sessionId}: stored inbox row ${itemId} is not a valid queued message: ${detail}`);
  }
}

/**
 * A store whose durable truth is elsewhere (PostgreSQL): sessions are loaded into memory before the
 * synchronous calls use them, and a write is durable only when `flush` resolves. A write that fails
 * makes the session lost in this process (`onLost`): its copy is dropped and it must be loaded again.
 */
export interface AsyncSessionLogStore extends SessionLogStore {
  load(sessionId: SessionId): Promise<boolean>;
  unload(sessionId: SessionId): void;
  flush(sessionId?: SessionId): Promise<void>;
  onLost(listener: (sessionId: SessionId, error: Error) => void): () => void;
}

/** True for a store that needs `load` and `flush` (see AsyncSessionLogStore). */
export function isAsyncStore(store: SessionLogStore): store is AsyncSessionLogStore {
  const s = store as Partial<AsyncSessionLogStore>;
  return typeof s.load === 'function' && typeof s.flush === 'function' && typeof s.onLost === 'function';
}
