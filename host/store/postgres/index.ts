/*
 * The PostgreSQL session-log store (Node only: `task-surface/host/postgres`). PostgreSQL is the
 * durable truth; the sessions this process serves are mirrored in memory so the Host's synchronous
 * reads and appends keep working: a change applies to the mirror at once and its write is queued,
 * group-committed per session, and `flush` says when it is durable. A failed write makes the
 * session lost here: its mirror is dropped and `onLost` listeners run.
 */
import pg from 'pg';
import type { CallId, SessionEvent, SessionId } from '../../../protocol/index.js';
import { decodeEvent } from '../codec.js';
import { createMirrorStore } from '../memory.js';
import { utf8Length } from '../../../protocol/utf8.js';
import { CorruptEventError, type AsyncSessionLogStore, type OwnedSessionRecord } from '../types.js';
import { fromKnownRow, KnownSessions, selectKnown, toRecord, type KnownRow, type SessionRow } from './known.js';
import { migrate, quoteSchema } from './migrations.js';
import { Writer, type WriteOp } from './writer.js';

export { migrations, migrate, type Migration } from './migrations.js';
export { ConflictError, FencedError } from './writer.js';
export { createPostgresMessageRate, type PostgresMessageRate, type PostgresMessageRateOptions } from './messageRate.js';

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db`; the store makes (and ends) its own pool. */
  connectionString?: string;
  /** A pool you own (the store never ends it). */
  pool?: pg.Pool;
  /** Where its tables live (created if missing). Default `public`. */
  schema?: string;
}

export interface PostgresStore extends AsyncSessionLogStore {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** Reads a stored session (record, log, inbox rows) into the mirror; false when there is none. */
  load(sessionId: SessionId): Promise<boolean>;
  /** Drops the session's mirror; writes still queued for it are still made (a later load waits for them). */
  unload(sessionId: SessionId): void;
  /** Resolves when every write made so far (for the session, or all) is committed; rejects with the write's error. */
  flush(sessionId?: SessionId): Promise<void>;
  onLost(listener: (sessionId: SessionId, error: Error) => void): () => void;
  /**
   * Fencing: appends for this session carry `token` and commit only while ts_session_owners holds
   * (session_id, token); otherwise the batch is refused with FencedError and the session is lost.
   * undefined (the default): no check (one process).
   */
  setFence(sessionId: SessionId, token: bigint | undefined): void;
  /**
   * The owner index as the database has it now (sessions other processes opened too), one indexed
   * query that reads no log: the records are learnt (listed and loadable here), not loaded.
   */
  fetchSessionsOf(owner: string): Promise<OwnedSessionRecord[]>;
  /** Learns one session's record (its owner) as the database has it, reading no log; false when there is none. */
  peek(sessionId: SessionId): Promise<boolean>;
  /** Flushes, then ends its own pool (not a given one). */
  close(): Promise<void>;
}

/** A read or write of a session this process has not loaded (`await store.load(sessionId)` first). */
export class SessionNotLoadedError extends Error {
  override name = 'SessionNotLoadedError';
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} is not loaded in this process: await load(sessionId) first`);
  }
}

/** Sessions read in one transaction at most (a takeover's loads are read in several, sent together). */
const LOAD_BATCH = 250;

/** Connects, creates or migrates the schema, and reads the sessions' records. */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const schema = options.schema ?? 'public';
  const q = quoteSchema(schema);
  if (!options.pool && !options.connectionString) throw new TypeError('createPostgresStore: give a connectionString or a pool');
  const owned = !options.pool;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, application_name: 'task-surface', max: 10 });
  // An idle connection that drops is replaced by the next query; the pool must not crash the process.
  const onPoolError = () => undefined;
  if (owned) pool.on('error', onPoolError);
  const known = new KnownSessions();
  try {
    await migrate(pool, schema);
    const { rows } = await pool.query<KnownRow>(selectKnown(q));
    for (const row of rows) known.learn(row.session_id as SessionId, fromKnownRow(row));
  } catch (error) {
    if (owned) await pool.end();
    throw error;
  }

  const mirror = createMirrorStore();
  const lostListeners = new Set<(sessionId: SessionId, error: Error) => void>();
  const loading = new Map<SessionId, Promise<boolean>>();
  let closed = false;

  const writer = new Writer({
    pool,
    tables: { sessions: `${q}.ts_sessions`, events: `${q}.ts_events`, inbox: `${q}.ts_inbox`, owners: `${q}.ts_session_owners` },
    onFailed(sessionId, error, durable) {
      mirror.forget(sessionId);
      const entry = known.get(sessionId);
      if (entry && durable.created) entry.lastSeq = durable.lastSeq;
      else known.drop(sessionId);
      for (const listener of [...lostListeners]) {
        try {
          listener(sessionId, error);
        } catch {
          // A listener's failure must not keep the others from hearing of the loss.
        }
      }
    },
  });

  /** The session's mirror must be here; otherwise a clear error (unknown, or stored but not loaded). */
  const held = (sessionId: SessionId): void => {
    if (closed) throw new Error('the session-log store is closed');
    if (mirror.isHeld(sessionId)) return;
    if (known.has(sessionId)) throw new SessionNotLoadedError(sessionId);
    throw new Error(`unknown session ${sessionId}`);
  };
  const write = (sessionId: SessionId, op: WriteOp) => writer.enqueue(sessionId, op);
  const appended = (sessionId: SessionId, events: SessionEvent[]): void => {
    for (const event of events) {
      const callId = event.type === 'tool/call' || event.type === 'tool/result' ? event.callId : null;
      write(sessionId, { kind: 'event', seq: event.seq, callId, body: mirror.eventJson(sessionId, event.seq)! });
    }
    const entry = known.get(sessionId);
    if (entry && events.length > 0) {
      for (const event of events) entry.bytes += utf8Length(mirror.eventJson(sessionId, event.seq)!);
      entry.lastSeq = events[events.length - 1]!.seq;
      if (events[0]!.seq === 1) entry.first = mirror.eventJson(sessionId, 1);
    }
  };
  const queuedChanged = (sessionId: SessionId, itemId: string): void => {
    const body = mirror.queuedJson(sessionId, itemId);
    write(sessionId, {
      kind: 'queued',
      itemId,
      row: body === undefined ? null : { order: (JSON.parse(body) as { order: number }).order, body },
    });
  };

  /**
   * Reads stored sessions into the mirror, many in one transaction (three queries for all of them:
   * a takeover reads a dead process's sessions in bulk). Answers, per session, whether it exists.
   */
  const readStored = async (ids: SessionId[]): Promise<Map<SessionId, boolean | Error>> => {
    // Writes queued before an unload land first: the copy read back includes them.
    await Promise.all(ids.map((id) => writer.flush(id).catch(() => undefined)));
    const client = await pool.connect();
    client.on('error', onPoolError);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const sessions = await client.query<SessionRow>(`SELECT * FROM ${q}.ts_sessions WHERE session_id = ANY($1::text[])`, [ids]);
      const events = await client.query<{ session_id: string; seq: number; body: string }>(
        `SELECT session_id, seq, body FROM ${q}.ts_events WHERE session_id = ANY($1::text[]) ORDER BY session_id, seq`,
        [ids],
      );
      const inbox = await client.query<{ session_id: string; item_id: string; body: string }>(
        `SELECT session_id, item_id, body FROM ${q}.ts_inbox WHERE session_id = ANY($1::text[]) ORDER BY session_id, ord`,
        [ids],
      );
      await client.query('COMMIT');
      const group = <T extends { session_id: string }>(rows: T[]) => {
        const by = new Map<string, T[]>();
        for (const row of rows) {
          const list = by.get(row.session_id);
          if (list) list.push(row);
          else by.set(row.session_id, [row]);
        }
        return by;
      };
      const rows = new Map(sessions.rows.map((row) => [row.session_id, row]));
      const [eventsOf, inboxOf] = [group(events.rows), group(inbox.rows)];
      const found = new Map<SessionId, boolean | Error>();
      for (const sessionId of ids) {
        const row = rows.get(sessionId);
        if (!row) {
          known.drop(sessionId);
          found.set(sessionId, false);
          continue;
        }
        if (closed || mirror.isHeld(sessionId)) {
          found.set(sessionId, !closed);
          continue;
        }
        const log = eventsOf.get(sessionId) ?? [];
        // The log's key makes gaps impossible through this store; a gap means someone edited the table.
        const gap = log.findIndex((event, i) => event.seq !== i + 1);
        if (gap >= 0) {
          found.set(sessionId, new CorruptEventError(sessionId, gap + 1, 'it is missing (the stored log has a gap)'));
          continue;
        }
        const record = toRecord(row);
        mirror.adopt(
          record,
          log.map((e) => e.body),
          (inboxOf.get(sessionId) ?? []).map((r) => [r.item_id, r.body]),
        );
        known.learn(sessionId, {
          record,
          lastSeq: log.length,
          first: log[0]?.body,
          bytes: log.reduce((n, e) => n + utf8Length(e.body), 0),
        });
        writer.adopt(sessionId, log.length);
        found.set(sessionId, true);
      }
      return found;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw error;
    } finally {
      client.off('error', onPoolError);
      client.release(broken);
    }
  };

  /** Loads asked for in one event-loop turn are read together, in transactions of `LOAD_BATCH` sessions. */
  let toRead = new Map<SessionId, { resolve(found: boolean): void; reject(error: Error): void }>();
  const readQueued = (): void => {
    const batch = [...toRead];
    toRead = new Map();
    for (let i = 0; i < batch.length; i += LOAD_BATCH) {
      const chunk = batch.slice(i, i + LOAD_BATCH);
      readStored(chunk.map(([id]) => id)).then(
        (found) => {
          for (const [id, waiting] of chunk) {
            const result = found.get(id);
            if (result instanceof Error) waiting.reject(result);
            else waiting.resolve(result === true);
          }
        },
        (error: unknown) => {
          for (const [, waiting] of chunk) waiting.reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }
  };
  const read = (sessionId: SessionId): Promise<boolean> =>
    new Promise((resolve, reject) => {
      if (toRead.size === 0) setImmediate(readQueued);
      toRead.set(sessionId, { resolve, reject });
    });

  const store: PostgresStore = {
    pool,
    schema,
    createSession(record) {
      if (closed) throw new Error('the session-log store is closed');
      if (known.has(record.sessionId)) throw new Error(`session ${record.sessionId} already exists`);
      mirror.createSession(record);
      known.learn(record.sessionId, { record: { ...record }, lastSeq: 0, first: undefined, bytes: 0 });
      write(record.sessionId, { kind: 'session', record: { ...record } });
    },
    getSession(sessionId) {
      const entry = known.get(sessionId);
      return entry && { ...entry.record };
    },
    listSessions: () => [...known.values()].map((entry) => ({ ...entry.record })),
    listSessionsOf: (owner) => known.listOf(owner),
    storedBytes: (sessionId) => known.get(sessionId)?.bytes ?? 0,
    async fetchSessionsOf(owner) {
      if (closed) throw new Error('the session-log store is closed');
      const { rows } = await pool.query<KnownRow>(selectKnown(q, 's.owner = $1'), [owner]);
      for (const row of rows) {
        const sessionId = row.session_id as SessionId;
        // A session held here is newer in the mirror than in the database (writes still queued).
        if (mirror.isHeld(sessionId) && known.has(sessionId)) continue;
        known.learn(sessionId, fromKnownRow(row));
      }
      return store.listSessionsOf(owner);
    },
    async peek(sessionId) {
      if (known.has(sessionId)) return true;
      if (closed) throw new Error('the session-log store is closed');
      const { rows } = await pool.query<KnownRow>(selectKnown(q, 's.session_id = $1'), [sessionId]);
      if (rows[0] && !known.has(sessionId)) known.learn(sessionId, fromKnownRow(rows[0]));
      return rows[0] !== undefined;
    },
    append(sessionId, event, at) {
      held(sessionId);
      const stored = mirror.append(sessionId, event, at);
      appended(sessionId, [stored]);
      return stored;
    },
    appendMany(sessionId, entries) {
      held(sessionId);
      const stored = mirror.appendMany(sessionId, entries);
      appended(sessionId, stored);
      return stored;
    },
    read(sessionId, range = {}) {
      // The owner check reads a session's first event without loading it.
      const entry = known.get(sessionId);
      if (!mirror.isHeld(sessionId) && entry && range.limit === 1 && !range.fromEnd && (range.afterSeq ?? 0) < 1) {
        return entry.first === undefined || (range.beforeSeq ?? 2) <= 1 ? [] : [decodeEvent(sessionId, 1, entry.first)];
      }
      held(sessionId);
      return mirror.read(sessionId, range);
    },
    get(sessionId, seq) {
      held(sessionId);
      return mirror.get(sessionId, seq);
    },
    findCall(sessionId, callId: CallId) {
      held(sessionId);
      return mirror.findCall(sessionId, callId);
    },
    lastSeq(sessionId) {
      if (!mirror.isHeld(sessionId) && known.has(sessionId)) return known.get(sessionId)!.lastSeq;
      held(sessionId);
      return mirror.lastSeq(sessionId);
    },
    saveQueued(sessionId, row) {
      held(sessionId);
      mirror.saveQueued(sessionId, row);
      queuedChanged(sessionId, row.itemId);
    },
    updateQueued(sessionId, itemId, change) {
      held(sessionId);
      if (mirror.queuedJson(sessionId, itemId) === undefined) return;
      mirror.updateQueued(sessionId, itemId, change);
      queuedChanged(sessionId, itemId);
    },
    deleteQueued(sessionId, itemId) {
      held(sessionId);
      if (mirror.queuedJson(sessionId, itemId) === undefined) return;
      mirror.deleteQueued(sessionId, itemId);
      queuedChanged(sessionId, itemId);
    },
    listQueued(sessionId) {
      held(sessionId);
      return mirror.listQueued(sessionId);
    },
    load(sessionId) {
      if (closed) return Promise.reject(new Error('the session-log store is closed'));
      if (mirror.isHeld(sessionId)) return Promise.resolve(true);
      let pending = loading.get(sessionId);
      if (!pending) {
        pending = read(sessionId).finally(() => loading.delete(sessionId));
        loading.set(sessionId, pending);
      }
      return pending;
    },
    unload(sessionId) {
      mirror.forget(sessionId);
      writer.forget(sessionId);
    },
    flush: (sessionId) => writer.flush(sessionId),
    onLost(listener) {
      lostListeners.add(listener);
      return () => void lostListeners.delete(listener);
    },
    setFence: (sessionId, token) => writer.setFence(sessionId, token),
    async close() {
      if (closed) return;
      closed = true;
      await writer.flush().catch(() => undefined);
      mirror.close();
      if (owned) {
        pool.off('error', onPoolError);
        await pool.end();
      }
    },
  };
  return store;
}
