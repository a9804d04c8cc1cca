import type { CallId, NewSessionEvent, SessionEvent, SessionId } from '../../protocol/index.js';
import { utf8Length } from '../../protocol/utf8.js';
import { decodeEvent, decodeQueueRow, encodeQueueRow, stampEvent } from './codec.js';
import type { OwnedSessionRecord, SessionLogStore, SessionRecord } from './types.js';

/** The callId of a stored tool/call or tool/result row, without validating the rest. */
function callOf(json: string): { type: 'tool/call' | 'tool/result'; callId: CallId } | undefined {
  try {
    const row = JSON.parse(json) as { type?: unknown; callId?: unknown };
    if ((row.type === 'tool/call' || row.type === 'tool/result') && typeof row.callId === 'string') {
      return { type: row.type, callId: row.callId as CallId };
    }
  } catch {
    // Corrupt: reading it reports it.
  }
  return undefined;
}

interface MemorySession {
  record: SessionRecord;
  /** Serialised events, index = seq - 1: a read decodes and validates like a real store. */
  rows: string[];
  calls: Map<CallId, { call?: number; result?: number }>;
  /** Pending inbox rows, serialised like events, by itemId. */
  queued: Map<string, string>;
  /** UTF-8 bytes of `rows`. */
  bytes: number;
}

export interface MemoryStore extends SessionLogStore {
  /** Test hook: overwrite a stored row, as disk corruption would. */
  corrupt(sessionId: SessionId, seq: number, json: string): void;
  /** Test hook: overwrite a stored inbox row. */
  corruptQueued(sessionId: SessionId, itemId: string, json: string): void;
}

/**
 * The memory store as another store's in-process copy of its sessions (the PostgreSQL store's
 * mirror): it can take in a session read from elsewhere, forget one, and hand out the JSON it keeps.
 */
export interface MirrorStore extends MemoryStore {
  /** Takes in a stored session: its events' JSON by seq (from 1, unvalidated: reads validate) and inbox rows. */
  adopt(record: SessionRecord, rows: string[], queued: Iterable<[itemId: string, json: string]>): void;
  forget(sessionId: SessionId): void;
  isHeld(sessionId: SessionId): boolean;
  /** The JSON kept for an event (appended or adopted) / an inbox row; undefined when there is none. */
  eventJson(sessionId: SessionId, seq: number): string | undefined;
  queuedJson(sessionId: SessionId, itemId: string): string | undefined;
}

/**
 * A session-log store in memory (tests, browsers, ephemeral hosts). Events are kept serialised so a
 * read returns fresh, validated objects and callers can never mutate the log through a reference.
 */
export function createMemoryStore(): MemoryStore {
  return createMirrorStore();
}

/** A memory store with the hooks a mirroring store needs (see MirrorStore). */
export function createMirrorStore(): MirrorStore {
  const sessions = new Map<SessionId, MemorySession>();
  /** The owner index: each owner's sessions, in the order they were taken in. */
  const byOwner = new Map<string, Set<SessionId>>();
  let closed = false;

  const index = (record: SessionRecord) => {
    if (typeof record.owner !== 'string') return;
    let owned = byOwner.get(record.owner);
    if (!owned) byOwner.set(record.owner, (owned = new Set()));
    owned.add(record.sessionId);
  };
  const unindex = (record: SessionRecord) => {
    const owned = typeof record.owner === 'string' ? byOwner.get(record.owner) : undefined;
    if (!owned) return;
    owned.delete(record.sessionId);
    if (owned.size === 0) byOwner.delete(record.owner!);
  };

  const session = (sessionId: SessionId): MemorySession => {
    if (closed) throw new Error('the session-log store is closed');
    const s = sessions.get(sessionId);
    if (!s) throw new Error(`unknown session ${sessionId}`);
    return s;
  };
  const decode = (s: MemorySession, seq: number) => decodeEvent(s.record.sessionId, seq, s.rows[seq - 1]!);
  const keep = (s: MemorySession, json: string) => {
    s.rows.push(json);
    s.bytes += utf8Length(json);
  };
  const store = (s: MemorySession, stamped: SessionEvent) => {
    keep(s, JSON.stringify(stamped));
    if (stamped.type === 'tool/call' || stamped.type === 'tool/result') {
      const entry = s.calls.get(stamped.callId) ?? {};
      // The first call/result of an id wins, as in the SQLite store's unique index.
      if (stamped.type === 'tool/call') entry.call ??= stamped.seq;
      else entry.result ??= stamped.seq;
      s.calls.set(stamped.callId, entry);
    }
  };

  return {
    createSession(record) {
      if (closed) throw new Error('the session-log store is closed');
      if (sessions.has(record.sessionId)) throw new Error(`session ${record.sessionId} already exists`);
      sessions.set(record.sessionId, { record: { ...record }, rows: [], calls: new Map(), queued: new Map(), bytes: 0 });
      index(record);
    },
    getSession: (sessionId) => {
      const s = sessions.get(sessionId);
      return s && { ...s.record };
    },
    listSessions: () => [...sessions.values()].map((s) => ({ ...s.record })),
    listSessionsOf(owner) {
      const owned: OwnedSessionRecord[] = [];
      for (const sessionId of byOwner.get(owner) ?? []) {
        const s = sessions.get(sessionId)!;
        owned.push({ ...s.record, lastSeq: s.rows.length, bytes: s.bytes });
      }
      return owned.sort((a, b) => a.createdAt - b.createdAt || (a.sessionId < b.sessionId ? -1 : 1));
    },
    storedBytes: (sessionId) => sessions.get(sessionId)?.bytes ?? 0,
    append(sessionId, event: NewSessionEvent, at) {
      const s = session(sessionId);
      const stamped = stampEvent(sessionId, event, s.rows.length + 1, at);
      store(s, stamped);
      return stamped;
    },
    appendMany(sessionId, entries) {
      const s = session(sessionId);
      // Every event is validated before any is stored: all or none.
      const stamped: SessionEvent[] = [];
      for (const { event, at } of entries) stamped.push(stampEvent(sessionId, event, s.rows.length + stamped.length + 1, at));
      for (const e of stamped) store(s, e);
      return stamped;
    },
    read(sessionId, range = {}) {
      const s = session(sessionId);
      const first = Math.max(1, (range.afterSeq ?? 0) + 1);
      const last = Math.min(s.rows.length, (range.beforeSeq ?? Infinity) - 1);
      const limit = range.limit ?? Infinity;
      let from = first;
      let to = last;
      if (to - from + 1 > limit) {
        if (range.fromEnd) from = to - limit + 1;
        else to = from + limit - 1;
      }
      const out: SessionEvent[] = [];
      for (let seq = from; seq <= to; seq++) out.push(decode(s, seq));
      return out;
    },
    get(sessionId, seq) {
      const s = session(sessionId);
      return Number.isInteger(seq) && seq >= 1 && seq <= s.rows.length ? decode(s, seq) : undefined;
    },
    findCall(sessionId, callId) {
      const s = session(sessionId);
      const entry = s.calls.get(callId);
      const out: { call?: SessionEvent; result?: SessionEvent } = {};
      if (entry?.call !== undefined) out.call = decode(s, entry.call);
      if (entry?.result !== undefined) out.result = decode(s, entry.result);
      return out;
    },
    lastSeq: (sessionId) => session(sessionId).rows.length,
    saveQueued(sessionId, row) {
      session(sessionId).queued.set(row.itemId, encodeQueueRow(sessionId, row));
    },
    updateQueued(sessionId, itemId, change) {
      const s = session(sessionId);
      const json = s.queued.get(itemId);
      if (json !== undefined) s.queued.set(itemId, encodeQueueRow(sessionId, { ...decodeQueueRow(sessionId, itemId, json), ...change }));
    },
    deleteQueued(sessionId, itemId) {
      session(sessionId).queued.delete(itemId);
    },
    listQueued(sessionId) {
      const s = session(sessionId);
      return [...s.queued].map(([itemId, json]) => decodeQueueRow(sessionId, itemId, json)).sort((a, b) => a.order - b.order);
    },
    close() {
      closed = true;
    },
    corrupt(sessionId, seq, json) {
      const s = session(sessionId);
      if (seq < 1 || seq > s.rows.length) throw new RangeError(`no stored event ${seq}`);
      s.bytes += utf8Length(json) - utf8Length(s.rows[seq - 1]!);
      s.rows[seq - 1] = json;
    },
    corruptQueued(sessionId, itemId, json) {
      session(sessionId).queued.set(itemId, json);
    },
    adopt(record, rows, queued) {
      if (closed) throw new Error('the session-log store is closed');
      const s: MemorySession = { record: { ...record }, rows: [], calls: new Map(), queued: new Map(queued), bytes: 0 };
      const before = sessions.get(record.sessionId);
      if (before) unindex(before.record);
      sessions.set(record.sessionId, s);
      index(record);
      // Indexed by callId as they are read: a corrupt row is kept as it is and fails when it is read.
      for (const json of rows) {
        keep(s, json);
        const call = callOf(json);
        if (call) {
          const entry = s.calls.get(call.callId) ?? {};
          if (call.type === 'tool/call') entry.call ??= s.rows.length;
          else entry.result ??= s.rows.length;
          s.calls.set(call.callId, entry);
        }
      }
    },
    forget(sessionId) {
      const s = sessions.get(sessionId);
      if (s) unindex(s.record);
      sessions.delete(sessionId);
    },
    isHeld: (sessionId) => sessions.has(sessionId),
    eventJson: (sessionId, seq) => sessions.get(sessionId)?.rows[seq - 1],
    queuedJson: (sessionId, itemId) => sessions.get(sessionId)?.queued.get(itemId),
  };
}
