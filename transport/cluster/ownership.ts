/*
 * Who serves which session, kept in PostgreSQL: a row per host process (`ts_workers`, renewed by a
 * heartbeat) and a row per session (`ts_session_owners`, whose `token` is the fencing token the
 * store checks on every append). Nothing here votes or elects: each decision is one SQL statement,
 * and Postgres's row locks decide which of two processes wins a session.
 */

/** The part of a `pg.Pool` (or `pg.Client`) this file uses. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

/** The two tables, qualified by the store's schema. */
export interface Tables {
  owners: string;
  workers: string;
}

/** A schema name as the Postgres store accepts it (checked there too), quoted. */
export function tablesIn(schema: string): Tables {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new TypeError(`schema must be a lower-case SQL identifier, not ${JSON.stringify(schema)}`);
  return { owners: `"${schema}".ts_session_owners`, workers: `"${schema}".ts_workers` };
}

/** Where a session is served, as the table says. */
export type Ownership =
  /** This process holds the session with this fencing token. */
  | { kind: 'mine'; token: bigint }
  /** A live process (heartbeat within the expiry) holds it. */
  | { kind: 'peer'; workerId: string; url: string };

/**
 * Takes the session when nobody holds it, this process already does, or its holder's heartbeat is
 * older than `expiryMs` (by the database's clock): the token goes up by one, which fences every
 * later append of the previous holder. Otherwise answers who holds it.
 */
const acquireSql = (t: Tables) => `
WITH taken AS (
  INSERT INTO ${t.owners} AS o (session_id, owner_id, token) VALUES ($1, $2, 1)
  ON CONFLICT (session_id) DO UPDATE SET owner_id = EXCLUDED.owner_id, token = o.token + 1
  WHERE o.owner_id = EXCLUDED.owner_id OR NOT EXISTS (
    SELECT 1 FROM ${t.workers} w
    WHERE w.worker_id = o.owner_id AND w.heartbeat_at > now() - $3 * interval '1 millisecond')
  RETURNING token)
SELECT (SELECT token FROM taken)::text AS token, cur.owner_id, cur.url
FROM (SELECT 1) one
LEFT JOIN (SELECT o.owner_id, w.url FROM ${t.owners} o JOIN ${t.workers} w ON w.worker_id = o.owner_id
           WHERE o.session_id = $1) cur ON true`;

export async function acquire(db: Queryable, t: Tables, sessionId: string, workerId: string, expiryMs: number): Promise<Ownership | null> {
  const { rows } = await db.query(acquireSql(t), [sessionId, workerId, expiryMs]);
  // null: the holder's worker row is gone (cleaned up long after it died) yet the WHERE saw it
  // alive, a race with its cleanup. The caller asks again.
  return ownershipOf(rows[0]);
}

/** The most sessions one bulk lookup asks about (a larger burst is sent as several queries). */
export const MAX_LOOKUP_BATCH = 500;

/** `acquireSql` for many sessions in one statement, locked in session order (two processes never wait on each other in a cycle). */
const acquireManySql = (t: Tables) => `
WITH ids AS (SELECT DISTINCT unnest($1::text[]) AS session_id),
taken AS (
  INSERT INTO ${t.owners} AS o (session_id, owner_id, token)
  SELECT session_id, $2, 1 FROM ids ORDER BY session_id
  ON CONFLICT (session_id) DO UPDATE SET owner_id = EXCLUDED.owner_id, token = o.token + 1
  WHERE o.owner_id = EXCLUDED.owner_id OR NOT EXISTS (
    SELECT 1 FROM ${t.workers} w
    WHERE w.worker_id = o.owner_id AND w.heartbeat_at > now() - $3 * interval '1 millisecond')
  RETURNING session_id, token)
SELECT ids.session_id, taken.token::text AS token, cur.owner_id, cur.url
FROM ids
LEFT JOIN taken ON taken.session_id = ids.session_id
LEFT JOIN (SELECT o.session_id, o.owner_id, w.url FROM ${t.owners} o JOIN ${t.workers} w ON w.worker_id = o.owner_id
           WHERE o.session_id = ANY($1::text[])) cur ON cur.session_id = ids.session_id`;

const ownershipOf = (row: Record<string, unknown> | undefined): Ownership | null => {
  if (row?.token != null) return { kind: 'mine', token: BigInt(row.token as string) };
  if (row?.owner_id != null && row.url != null) return { kind: 'peer', workerId: row.owner_id as string, url: row.url as string };
  return null;
};

/** `acquire` for many sessions at once: one query, one answer per session asked about. */
export async function acquireMany(
  db: Queryable,
  t: Tables,
  sessionIds: readonly string[],
  workerId: string,
  expiryMs: number,
): Promise<Map<string, Ownership | null>> {
  const { rows } = await db.query(acquireManySql(t), [sessionIds, workerId, expiryMs]);
  const byId = new Map(rows.map((row) => [row.session_id as string, row]));
  return new Map(sessionIds.map((sessionId) => [sessionId, ownershipOf(byId.get(sessionId))]));
}

/**
 * Owner lookups asked for in the same event-loop turn go to the database as one query (at most
 * `MAX_LOOKUP_BATCH` sessions each): a burst of first requests on a fresh process costs a few round
 * trips, not one per session. A bulk query that fails (a deadlock, a lost connection) is asked again
 * session by session, so each caller gets its own answer or its own error.
 */
export class OwnerLookups {
  #queued = new Map<string, { resolve: (owner: Ownership | null) => void; reject: (error: unknown) => void }[]>();

  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
    private readonly workerId: string,
    private readonly expiryMs: number,
  ) {}

  acquire(sessionId: string): Promise<Ownership | null> {
    if (this.#queued.size === 0) setImmediate(() => this.#flush());
    return new Promise((resolve, reject) => {
      const waiting = this.#queued.get(sessionId);
      if (waiting) waiting.push({ resolve, reject });
      else this.#queued.set(sessionId, [{ resolve, reject }]);
    });
  }

  #flush(): void {
    const queued = this.#queued;
    this.#queued = new Map();
    const ids = [...queued.keys()];
    for (let i = 0; i < ids.length; i += MAX_LOOKUP_BATCH) void this.#ask(ids.slice(i, i + MAX_LOOKUP_BATCH), queued);
  }

  async #ask(ids: string[], queued: Map<string, { resolve: (owner: Ownership | null) => void; reject: (error: unknown) => void }[]>) {
    const settle = (sessionId: string, answer: Promise<Ownership | null>) =>
      answer.then(
        (owner) => queued.get(sessionId)!.forEach((w) => w.resolve(owner)),
        (error: unknown) => queued.get(sessionId)!.forEach((w) => w.reject(error)),
      );
    if (ids.length === 1) return settle(ids[0]!, acquire(this.db, this.t, ids[0]!, this.workerId, this.expiryMs));
    try {
      const owners = await acquireMany(this.db, this.t, ids, this.workerId, this.expiryMs);
      for (const sessionId of ids) void settle(sessionId, Promise.resolve(owners.get(sessionId) ?? null));
    } catch {
      for (const sessionId of ids) void settle(sessionId, acquire(this.db, this.t, sessionId, this.workerId, this.expiryMs));
    }
  }
}

/** Gives a session up (graceful stop, or a session that turned out not to exist). Only with our token. */
export async function release(db: Queryable, t: Tables, sessionId: string, workerId: string, token: bigint): Promise<void> {
  await db.query(`DELETE FROM ${t.owners} WHERE session_id = $1 AND owner_id = $2 AND token = $3`, [sessionId, workerId, token.toString()]);
}

/**
 * Registers (or re-registers) this process; its heartbeat starts now. `locked`: it holds its
 * advisory lock (`LIVENESS_LOCK`) on a connection, so peers may test that lock to learn it died.
 */
export async function register(db: Queryable, t: Tables, workerId: string, url: string, locked: boolean): Promise<void> {
  await db.query(
    `INSERT INTO ${t.workers} (worker_id, url, heartbeat_at, locked) VALUES ($1, $2, now(), $3)
     ON CONFLICT (worker_id) DO UPDATE SET url = EXCLUDED.url, heartbeat_at = now(), locked = EXCLUDED.locked`,
    [workerId, url, locked],
  );
}

/**
 * The advisory lock a live process holds on its own id (first key; the second is `hashtext` of
 * the worker id), session-level, on its heartbeat connection. PostgreSQL releases it the moment
 * that connection ends: a process killed outright loses it at once.
 */
export const LIVENESS_LOCK = 0x7a60;

/** Takes this process's liveness lock on `client` (held until that connection ends); false when another holds it. */
export async function lockLiveness(client: Queryable, workerId: string): Promise<boolean> {
  const { rows } = await client.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LIVENESS_LOCK, workerId]);
  return rows[0]?.locked === true;
}

/**
 * A peer at `url` stopped answering: each process registered there that holds no liveness lock
 * any more (its connection is gone, so it is dead) is removed at once, and its sessions may be
 * taken without waiting for its heartbeat to expire. Answers how many were removed. A process that
 * never took the lock (`locked` false) is left to the expiry.
 */
export async function removeIfDead(db: Queryable, t: Tables, url: string, self: string): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM ${t.workers} w WHERE w.url = $1 AND w.worker_id <> $2 AND w.locked
       AND pg_try_advisory_xact_lock($3, hashtext(w.worker_id))`,
    [url, self, LIVENESS_LOCK],
  );
  return rowCount ?? 0;
}

/** Renews the heartbeat: false when the row is gone (another process cleaned this one up as dead). */
export async function heartbeat(db: Queryable, t: Tables, workerId: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE ${t.workers} SET heartbeat_at = now() WHERE worker_id = $1`, [workerId]);
  return rowCount === 1;
}

/** A graceful stop: every session this process holds is free at once, and so is its row. */
export async function leave(db: Queryable, t: Tables, workerId: string): Promise<void> {
  await db.query(`DELETE FROM ${t.owners} WHERE owner_id = $1`, [workerId]);
  await db.query(`DELETE FROM ${t.workers} WHERE worker_id = $1`, [workerId]);
}

/** Forgets processes silent for `olderThanMs` (their sessions stay, taken over on first use). */
export async function forgetDeadWorkers(db: Queryable, t: Tables, olderThanMs: number): Promise<void> {
  await db.query(`DELETE FROM ${t.workers} WHERE heartbeat_at < now() - $1 * interval '1 millisecond'`, [olderThanMs]);
}

/** `promise`, or a rejection after `ms` (a database that does not answer is as bad as one that refuses). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
