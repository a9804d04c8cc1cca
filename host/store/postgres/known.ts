/*
 * What the PostgreSQL store knows of every session without loading it: its record, last seq, first
 * event (which names its owner) and stored bytes, with an index by owner for listing a principal's
 * sessions in O(its own sessions).
 */
import type { SessionId } from '../../../protocol/index.js';
import type { OwnedSessionRecord, SessionRecord } from '../types.js';

export interface Known {
  record: SessionRecord;
  lastSeq: number;
  /** The first event's JSON (it names the session's owner). */
  first: string | undefined;
  /** UTF-8 bytes of its stored events. */
  bytes: number;
}

export interface SessionRow {
  session_id: string;
  title: string;
  created_at: string;
  tool_mode: string;
  read_only: boolean;
  locale: string;
  owner: string | null;
  bytes: string;
}

export type KnownRow = SessionRow & { last: number | null; first: string | null };

export const toRecord = (row: SessionRow): SessionRecord => ({
  sessionId: row.session_id as SessionId,
  title: row.title,
  createdAt: Number(row.created_at),
  toolMode: row.tool_mode as SessionRecord['toolMode'],
  readOnly: row.read_only,
  locale: row.locale as SessionRecord['locale'],
  ...(row.owner === null ? {} : { owner: row.owner }),
});

export const fromKnownRow = (row: KnownRow): Known => ({
  record: toRecord(row),
  lastSeq: row.last ?? 0,
  first: row.first ?? undefined,
  bytes: Number(row.bytes),
});

/** The query for `KnownRow`s: the sessions table filtered by `where` (in SQL over `s`), in creation order. */
export const selectKnown = (q: string, where = 'TRUE'): string =>
  `SELECT s.*, (SELECT max(seq) FROM ${q}.ts_events e WHERE e.session_id = s.session_id) AS last,
          (SELECT body FROM ${q}.ts_events e WHERE e.session_id = s.session_id AND e.seq = 1) AS first
     FROM ${q}.ts_sessions s WHERE ${where} ORDER BY s.created_at, s.session_id`;

/** The known sessions, indexed by id and by owner. */
export class KnownSessions {
  readonly #byId = new Map<SessionId, Known>();
  readonly #byOwner = new Map<string, Set<SessionId>>();

  get(sessionId: SessionId): Known | undefined {
    return this.#byId.get(sessionId);
  }

  has(sessionId: SessionId): boolean {
    return this.#byId.has(sessionId);
  }

  values(): IterableIterator<Known> {
    return this.#byId.values();
  }

  learn(sessionId: SessionId, entry: Known): void {
    const before = this.#byId.get(sessionId);
    if (before?.record.owner != null && before.record.owner !== entry.record.owner) this.#unindex(sessionId, before.record.owner);
    this.#byId.set(sessionId, entry);
    const owner = entry.record.owner;
    if (owner == null) return;
    let owned = this.#byOwner.get(owner);
    if (!owned) this.#byOwner.set(owner, (owned = new Set()));
    owned.add(sessionId);
  }

  drop(sessionId: SessionId): void {
    const owner = this.#byId.get(sessionId)?.record.owner;
    this.#byId.delete(sessionId);
    if (owner != null) this.#unindex(sessionId, owner);
  }

  /** The owner's sessions, oldest first. */
  listOf(owner: string): OwnedSessionRecord[] {
    const owned: OwnedSessionRecord[] = [];
    for (const sessionId of this.#byOwner.get(owner) ?? []) {
      const entry = this.#byId.get(sessionId)!;
      owned.push({ ...entry.record, lastSeq: entry.lastSeq, bytes: entry.bytes });
    }
    return owned.sort((a, b) => a.createdAt - b.createdAt || (a.sessionId < b.sessionId ? -1 : 1));
  }

  #unindex(sessionId: SessionId, owner: string): void {
    const owned = this.#byOwner.get(owner);
    owned?.delete(sessionId);
    if (owned?.size === 0) this.#byOwner.delete(owner);
  }
}
