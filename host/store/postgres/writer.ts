/*
 * The PostgreSQL store's writes: queued per session as the mirror changes, sent in order; every
 * session's writes of one event-loop turn go in one transaction (group commit: one WAL flush for
 * all), at most one batch in flight per session.
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
    this.#markDirty(sessionId);
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
    const batch: Batch[] = [];
    for (const sessionId of this.#dirty) {
      const writes = this.#sessions.get(sessionId);
      if (!writes || writes.busy || writes.ops.length === 0) continue;
      batch.push({ sessionId, writes, ops: writes.ops });
      writes.ops = [];
      writes.busy = true;
    }
    this.#dirty.clear();
    // Every session's writes of this turn in one transaction: one commit (one WAL flush) for all.
    for (let i = 0; i < batch.length; i += MAX_GROUP) void this.#sendGroup(batch.slice(i, i + MAX_GROUP));
  }

  async #sendGroup(batch: Batch[]): Promise<void> {
    let refused: Map<SessionId, Error>;
    try {
      refused = await this.#commit(batch);
    } catch (error) {
      if (batch.length === 1) {
        refused = new Map([[batch[0]!.sessionId, asError(conflictOf(batch[0]!.sessionId, error, batch[0]!.ops))]]);
      } else {
        // One session's batch failed the group (a seq another writer stored…): each alone, so
        // that session alone is lost and the others are committed as before.
        await Promise.all(batch.map((one) => this.#sendGroup([one])));
        return;
      }
    }
    for (const { sessionId, writes, ops } of batch) {
      writes.busy = false;
      const error = refused.get(sessionId);
      if (error) this.#fail(sessionId, writes, error);
      else this.#committed(sessionId, writes, ops);
    }
  }

  #committed(sessionId: SessionId, writes: SessionWrites, ops: WriteOp[]): void {
    writes.committed += ops.length;
    for (const op of ops) {
      if (op.kind === 'session') writes.created = true;
      else if (op.kind === 'event') writes.lastCommittedSeq = op.seq;
    }
    const done = writes.waiters.filter((w) => w.upTo <= writes.committed);
    writes.waiters = writes.waiters.filter((w) => w.upTo > writes.committed);
    for (const waiter of done) waiter.resolve();
    // What arrived while this batch was in flight goes with the next group.
    if (writes.ops.length > 0) this.#markDirty(sessionId);
    else if (writes.forgotten && writes.waiters.length === 0 && this.#sessions.get(sessionId) === writes) this.#sessions.delete(sessionId);
  }

  #markDirty(sessionId: SessionId): void {
    this.#dirty.add(sessionId);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#sendDirty());
    }
  }

  #fail(sessionId: SessionId, writes: SessionWrites, error: Error): void {
    if (this.#sessions.get(sessionId) === writes) this.#sessions.delete(sessionId);
    this.#lost.set(sessionId, error);
    for (const waiter of writes.waiters) waiter.reject(error);
    this.options.onFailed(sessionId, error, { created: writes.created, lastSeq: writes.lastCommittedSeq });
  }

  /**
   * Commits the batches of several sessions in one transaction. A fenced session's rows are left
   * out and it alone is refused (the answer's map); any other failure rejects the whole group.
   */
  async #commit(batch: Batch[]): Promise<Map<SessionId, Error>> {
    const { tables: t } = this.options;
    const refused = new Map<SessionId, Error>();
    const client = await this.options.pool.connect();
    // A connection that drops mid-batch fails the batch's query; its 'error' event must not crash the process.
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const fenced = batch.flatMap(({ sessionId }) => {
        const token = this.#fences.get(sessionId);
        return token === undefined ? [] : [[sessionId, token] as const];
      });
      if (fenced.length > 0) {
        // FOR SHARE: a takeover (which raises the token) waits until this transaction has ended.
        const held = await client.query<{ s: string }>(
          `SELECT f.s FROM unnest($1::text[], $2::bigint[]) AS f(s, t) JOIN ${t.owners} o ON o.session_id = f.s AND o.token = f.t FOR SHARE OF o`,
          [fenced.map(([id]) => id), fenced.map(([, token]) => token.toString())],
        );
        const ok = new Set(held.rows.map((row) => row.s));
        for (const [id, token] of fenced) if (!ok.has(id)) refused.set(id, new FencedError(id, token));
      }
      const kept = batch.filter(({ sessionId }) => !refused.has(sessionId));
      const records = kept.flatMap(({ ops }) => ops.flatMap((op) => (op.kind === 'session' ? [op.record] : [])));
      if (records.length > 0) {
        await client.query(
          `INSERT INTO ${t.sessions} (session_id, title, created_at, tool_mode, read_only, locale, owner)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::boolean[], $6::text[], $7::text[])`,
          [
            records.map((r) => r.sessionId),
            records.map((r) => r.title),
            records.map((r) => r.createdAt),
            records.map((r) => r.toolMode),
            records.map((r) => r.readOnly),
            records.map((r) => r.locale),
            records.map((r) => r.owner ?? null),
          ],
        );
      }
      const events = kept.flatMap(({ sessionId, ops }) => ops.flatMap((op) => (op.kind === 'event' ? [{ sessionId, ...op }] : [])));
      if (events.length > 0) {
        // The seqs are stated: (session_id, seq) is the key, so a second writer's batch fails whole.
        await client.query(
          `INSERT INTO ${t.events} (session_id, seq, call_id, body) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])`,
          [events.map((e) => e.sessionId), events.map((e) => e.seq), events.map((e) => e.callId), events.map((e) => e.body)],
        );
        // The owner index's stored size, in the same transaction as the events it counts.
        const grown = new Map<string, number>();
        for (const e of events) grown.set(e.sessionId, (grown.get(e.sessionId) ?? 0) + Buffer.byteLength(e.body));
        await client.query(
          `UPDATE ${t.sessions} s SET bytes = s.bytes + d.b FROM unnest($1::text[], $2::bigint[]) AS d(id, b) WHERE s.session_id = d.id`,
          [[...grown.keys()], [...grown.values()]],
        );
      }
      const saved: { sessionId: SessionId; itemId: string; order: number; body: string }[] = [];
      const deleted: { sessionId: SessionId; itemId: string }[] = [];
      for (const { sessionId, ops } of kept) {
        // The last change of each inbox row wins (a save then a delete is a delete).
        const rows = new Map<string, { order: number; body: string } | null>();
        for (const op of ops) if (op.kind === 'queued') rows.set(op.itemId, op.row);
        for (const [itemId, row] of rows) {
          if (row) saved.push({ sessionId, itemId, ...row });
          else deleted.push({ sessionId, itemId });
        }
      }
      if (saved.length > 0) {
        await client.query(
          `INSERT INTO ${t.inbox} (session_id, item_id, ord, body) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
           ON CONFLICT (session_id, item_id) DO UPDATE SET ord = EXCLUDED.ord, body = EXCLUDED.body`,
          [saved.map((r) => r.sessionId), saved.map((r) => r.itemId), saved.map((r) => r.order), saved.map((r) => r.body)],
        );
      }
      if (deleted.length > 0) {
        await client.query(
          `DELETE FROM ${t.inbox} i USING unnest($1::text[], $2::text[]) AS d(s, id) WHERE i.session_id = d.s AND i.item_id = d.id`,
          [deleted.map((r) => r.sessionId), deleted.map((r) => r.itemId)],
        );
      }
      await client.query('COMMIT');
      return refused;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw error;
    } finally {
      // A connection that could not even roll back is destroyed, not returned to the pool.
      client.off('error', ignore);
      client.release(broken);
    }
  }
}

/** Sessions per transaction at most (a bigger turn's writes go in several, sent together). */
const MAX_GROUP = 1_000;

interface Batch {
  sessionId: SessionId;
  writes: SessionWrites;
  ops: WriteOp[];
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

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
