/*
 * The PostgreSQL store's writes: queued per session as the mirror changes, sent in order, one
 * transaction per session per event-loop turn (group commit), at most one in flight per session.
 */
import type pg from 'pg';
import type { SessionId } from '../../../protocol/index.js';
import type { SessionRecord } from '../types.js';

/** One change to make durable, in the order the mirror made it. */
export type WriteOp =
  | { kind: 'session'; record: SessionRecord }
  | { kind: 'event'; seq: number; callId: string | null; body: string }
  | { kind: 'queued'; itemId: string; row: { order: number; body: string } | null };

/** The owner row no longer holds this process's token: another process owns the session now. */
export class FencedError extends Error {
  override name = 'FencedError';
  constructor(
    readonly sessionId: string,
    readonly token: bigint,
  ) {
    super(`session ${sessionId}: this process's ownership (token ${token}) was taken over; its writes are refused`);
  }
}

/** Another writer stored the seq (or the session) this batch expected to write: the copy here is stale. */
export class ConflictError extends Error {
  override name = 'ConflictError';
  constructor(
    readonly sessionId: string,
    detail: string,
  ) {
    super(`session ${sessionId}: ${detail}; another writer got there first, so this process's copy of the session is stale`);
  }
}

export interface Tables {
  sessions: string;
  events: string;
  inbox: string;
  owners: string;
}

interface Waiter {
  upTo: number;
  resolve(): void;
  reject(error: Error): void;
}

interface SessionWrites {
  ops: WriteOp[];
  /** Ops ever queued / committed for the session (a flush waits until committed reaches its mark). */
  queued: number;
  committed: number;
  busy: boolean;
  waiters: Waiter[];
  /** The session's own row is committed (false while its creation is still queued). */
  created: boolean;
  lastCommittedSeq: number;
  /** The session was unloaded with writes pending: drop this once they are committed. */
  forgotten: boolean;
}

export interface WriterOptions {
  pool: pg.Pool;
  tables: Tables;
  /** A batch failed: every queued op of the session was dropped and its waiters refused. */
  onFailed(sessionId: SessionId, error: Error, durable: { created: boolean; lastSeq: number }): void;
}

/** Queues, group-commits and flushes the writes of every session. */
export class Writer {
  readonly #sessions = new Map<SessionId, SessionWrites>();
  readonly #dirty = new Set<SessionId>();
  readonly #fences = new Map<SessionId, bigint>();
  readonly #lost = new Map<SessionId, Error>();
  #scheduled = false;

  constructor(private readonly options: WriterOptions) {}

  /** A session that exists in the database, as `load` found it. Clears an earlier loss. */
  adopt(sessionId: SessionId, lastSeq: number): void {
    this.#lost.delete(sessionId);
    const writes = this.#sessions.get(sessionId);
    if (writes) writes.forgotten = false;
    else this.#sessions.set(sessionId, fresh(true, lastSeq));
  }

  enqueue(sessionId: SessionId, op: WriteOp): void {
    let writes = this.#sessions.get(sessionId);
    if (!writes) this.#sessions.set(sessionId, (writes = fresh(op.kind !== 'session', 0)));
    if (op.kind === 'session') this.#lost.delete(sessionId);
    writes.ops.push(op);
    writes.queued++;
    this.#dirty.add(sessionId);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#sendDirty());
    }
  }

  setFence(sessionId: SessionId, token: bigint | undefined): void {
    if (token === undefined) this.#fences.delete(sessionId);
    else this.#fences.set(sessionId, token);
  }

  /**
   * Resolves when every write queued so far for the session is committed; rejects with a failure's
   * error. Without a session: waits for every session's writes to settle, then rejects with the first failure.
   */
  flush(sessionId?: SessionId): Promise<void> {
    if (sessionId === undefined) {
      return Promise.allSettled([...this.#sessions.keys()].map((id) => this.flush(id))).then((results) => {
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      });
    }
    const lost = this.#lost.get(sessionId);
    if (lost) return Promise.reject(lost);
    const writes = this.#sessions.get(sessionId);
    if (!writes || writes.committed === writes.queued) return Promise.resolve();
    return new Promise((resolve, reject) => writes.waiters.push({ upTo: writes.queued, resolve, reject }));
  }

  /** Nothing queued or in flight for the session. */
  idle(sessionId: SessionId): boolean {
    const writes = this.#sessions.get(sessionId);
    return !writes || (writes.committed === writes.queued && !writes.busy);
  }

  /** Forgets the bookkeeping of a session whose mirror was dropped, now or once its pending writes are committed. */
  forget(sessionId: SessionId): void {
    const writes = this.#sessions.get(sessionId);
    if (!writes) return;
    if (this.idle(sessionId)) this.#sessions.delete(sessionId);
    else writes.forgotten = true;
  }

  #sendDirty(): void {
    this.#scheduled = false;
    for (const sessionId of this.#dirty) {
      const writes = this.#sessions.get(sessionId);
      if (writes && !writes.busy && writes.ops.length > 0) void this.#send(sessionId, writes);
    }
    this.#dirty.clear();
  }

  async #send(sessionId: SessionId, writes: SessionWrites): Promise<void> {
    const ops = writes.ops;
    writes.ops = [];
    writes.busy = true;
    try {
      await this.#commit(sessionId, ops);
    } catch (error) {
      writes.busy = false;
      this.#fail(sessionId, writes, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    writes.busy = false;
    writes.committed += ops.length;
    for (const op of ops) {
      if (op.kind === 'session') writes.created = true;
      else if (op.kind === 'event') writes.lastCommittedSeq = op.seq;
    }
    const done = writes.waiters.filter((w) => w.upTo <= writes.committed);
    writes.waiters = writes.waiters.filter((w) => w.upTo > writes.committed);
    for (const waiter of done) waiter.resolve();
    // What arrived while this batch was in flight goes next, in one transaction.
    if (writes.ops.length > 0) void this.#send(sessionId, writes);
    else if (writes.forgotten && writes.waiters.length === 0 && this.#sessions.get(sessionId) === writes) this.#sessions.delete(sessionId);
  }

  #fail(sessionId: SessionId, writes: SessionWrites, error: Error): void {
    this.#sessions.delete(sessionId);
    this.#lost.set(sessionId, error);
    for (const waiter of writes.waiters) waiter.reject(error);
    this.options.onFailed(sessionId, error, { created: writes.created, lastSeq: writes.lastCommittedSeq });
  }

  async #commit(sessionId: SessionId, ops: WriteOp[]): Promise<void> {
    const { tables: t } = this.options;
    const client = await this.options.pool.connect();
    // A connection that drops mid-batch fails the batch's query; its 'error' event must not crash the process.
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const fence = this.#fences.get(sessionId);
      if (fence !== undefined) {
        const owner = await client.query(`SELECT 1 FROM ${t.owners} WHERE session_id = $1 AND token = $2 FOR SHARE`, [
          sessionId,
          fence.toString(),
        ]);
        if (owner.rowCount === 0) throw new FencedError(sessionId, fence);
      }
      const events = ops.filter((op) => op.kind === 'event');
      for (const op of ops) {
        if (op.kind !== 'session') continue;
        const r = op.record;
        await client.query(
          `INSERT INTO ${t.sessions} (session_id, title, created_at, tool_mode, read_only, locale) VALUES ($1, $2, $3, $4, $5, $6)`,
          [r.sessionId, r.title, r.createdAt, r.toolMode, r.readOnly, r.locale],
        );
      }
      if (events.length > 0) {
        // The seqs are stated: (session_id, seq) is the key, so a second writer's batch fails whole.
        await client.query(
          `INSERT INTO ${t.events} (session_id, seq, call_id, body) SELECT $1, s, c, b FROM unnest($2::int[], $3::text[], $4::text[]) AS u(s, c, b)`,
          [sessionId, events.map((e) => e.seq), events.map((e) => e.callId), events.map((e) => e.body)],
        );
      }
      // The last change of each inbox row wins (a save then a delete is a delete).
      const rows = new Map<string, { order: number; body: string } | null>();
      for (const op of ops) if (op.kind === 'queued') rows.set(op.itemId, op.row);
      const saved = [...rows].filter((entry): entry is [string, { order: number; body: string }] => entry[1] !== null);
      const deleted = [...rows].filter(([, row]) => row === null).map(([itemId]) => itemId);
      if (saved.length > 0) {
        await client.query(
          `INSERT INTO ${t.inbox} (session_id, item_id, ord, body) SELECT $1, i, o, b FROM unnest($2::text[], $3::bigint[], $4::text[]) AS u(i, o, b)
           ON CONFLICT (session_id, item_id) DO UPDATE SET ord = EXCLUDED.ord, body = EXCLUDED.body`,
          [sessionId, saved.map(([itemId]) => itemId), saved.map(([, row]) => row.order), saved.map(([, row]) => row.body)],
        );
      }
      if (deleted.length > 0) {
        await client.query(`DELETE FROM ${t.inbox} WHERE session_id = $1 AND item_id = ANY($2::text[])`, [sessionId, deleted]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw conflictOf(sessionId, error, ops);
    } finally {
      // A connection that could not even roll back is destroyed, not returned to the pool.
      client.off('error', ignore);
      client.release(broken);
    }
  }
}

const ignore = () => undefined;

function fresh(created: boolean, lastSeq: number): SessionWrites {
  return { ops: [], queued: 0, committed: 0, busy: false, waiters: [], created, lastCommittedSeq: lastSeq, forgotten: false };
}

/** A unique violation on the log's key or the session's row is a lost race with another writer. */
function conflictOf(sessionId: SessionId, error: unknown, ops: WriteOp[]): unknown {
  const code = (error as { code?: unknown })?.code;
  const constraint = (error as { constraint?: unknown })?.constraint;
  if (code !== '23505') return error;
  if (constraint === 'ts_sessions_pkey') return new ConflictError(sessionId, 'the session already exists in the database');
  const seqs = ops.flatMap((op) => (op.kind === 'event' ? [op.seq] : []));
  return new ConflictError(sessionId, `seq ${seqs[0]}${seqs.length > 1 ? `–${seqs[seqs.length - 1]}` : ''} is already stored`);
}
