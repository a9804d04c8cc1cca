/*
 * The PostgreSQL store's schema, as a versioned list of migrations. Each runs once per schema, in
 * order, inside one transaction that holds an advisory lock on the schema's name, so several
 * processes starting at once apply each step exactly once (the others wait, then find it applied).
 */
import type pg from 'pg';

export interface Migration {
  /** 1, 2, 3 … in order; never renumber or edit one that has shipped: add the next. */
  version: number;
  name: string;
  /** Runs with `search_path` set to the store's schema, so tables are named unqualified. */
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, events, inbox, session owners',
    sql: `
CREATE TABLE ts_sessions (
  session_id text PRIMARY KEY,
  title text NOT NULL,
  created_at bigint NOT NULL,
  tool_mode text NOT NULL,
  read_only boolean NOT NULL,
  locale text NOT NULL
);
CREATE TABLE ts_events (
  session_id text NOT NULL REFERENCES ts_sessions (session_id),
  seq integer NOT NULL CHECK (seq > 0),
  call_id text,
  body text NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX ts_events_by_call ON ts_events (session_id, call_id) WHERE call_id IS NOT NULL;
CREATE TABLE ts_inbox (
  session_id text NOT NULL REFERENCES ts_sessions (session_id),
  item_id text NOT NULL,
  ord bigint NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (session_id, item_id)
);
CREATE TABLE ts_session_owners (
  session_id text PRIMARY KEY,
  owner_id text NOT NULL,
  token bigint NOT NULL
);`,
  },
  {
    version: 2,
    name: 'cluster: host processes and their heartbeats',
    sql: `
CREATE TABLE ts_workers (
  worker_id text PRIMARY KEY,
  url text NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ts_session_owners_by_owner ON ts_session_owners (owner_id);`,
  },
  {
    version: 3,
    name: 'cluster: a process holds an advisory lock on its id while its connection lives',
    sql: `ALTER TABLE ts_workers ADD COLUMN locked boolean NOT NULL DEFAULT false;`,
  },
  {
    version: 4,
    name: 'the owner index: each session names its principal and its stored bytes',
    // Filled from each log once: the newest fork's owner, else the opening event's.
    sql: `
ALTER TABLE ts_sessions ADD COLUMN owner text, ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
UPDATE ts_sessions s SET
  bytes = COALESCE((SELECT sum(octet_length(e.body)) FROM ts_events e WHERE e.session_id = s.session_id), 0),
  owner = COALESCE(
    (SELECT e.body::jsonb ->> 'owner' FROM ts_events e WHERE e.session_id = s.session_id
       AND e.body::jsonb ->> 'type' = 'session/forked' AND e.body::jsonb ? 'owner' ORDER BY e.seq DESC LIMIT 1),
    (SELECT e.body::jsonb ->> 'owner' FROM ts_events e WHERE e.session_id = s.session_id AND e.seq = 1
       AND e.body::jsonb ->> 'type' = 'session/opened'));
CREATE INDEX ts_sessions_by_owner ON ts_sessions (owner, created_at, session_id);`,
  },
  {
    version: 5,
    name: 'cluster: a token bucket per client address, shared by every process',
    // One row per (bucket, address): the tokens left at `at` (the database's clock) and whether the
    // last take got one. Rows idle long enough to be full again are deleted (by `at`).
    sql: `
CREATE TABLE ts_address_buckets (
  bucket text NOT NULL,
  address text NOT NULL,
  tokens double precision NOT NULL,
  taken boolean NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (bucket, address)
);
CREATE INDEX ts_address_buckets_by_at ON ts_address_buckets (bucket, at);`,
  },
];

/** A schema name the store accepts: a plain SQL identifier (it is quoted, never interpolated raw). */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `"name"`: a checked schema name as an SQL identifier. */
export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new TypeError(`schema must be a lower-case SQL identifier (letters, digits, _; at most 63), not ${JSON.stringify(schema)}`);
  }
  return `"${schema}"`;
}

/** The advisory lock's first key: this library's migrations (the second is the schema's hash). */
const LOCK_CLASS = 0x7a5f;

/**
 * Creates the schema if needed and applies the migrations it lacks, all in one transaction under
 * `pg_advisory_xact_lock`. Refuses a schema migrated by a newer version (it would not understand it).
 * Returns the versions it applied.
 */
export async function migrate(pool: pg.Pool, schema: string, list: readonly Migration[] = migrations): Promise<number[]> {
  const name = quoteSchema(schema);
  const client = await pool.connect();
  const ignore = () => undefined; // a dropped connection fails the query; its event must not crash the process
  client.on('error', ignore);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${name}`);
    await client.query(`SET LOCAL search_path TO ${name}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS ts_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM ts_migrations ORDER BY version');
    const done = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...list.map((m) => m.version));
    const unknown = rows.find((r) => r.version > newest);
    if (unknown) {
      throw new Error(
        `schema ${schema} has migration ${unknown.version}, newer than this task-surface knows (up to ${newest}): upgrade it`,
      );
    }
    const applied: number[] = [];
    for (const migration of [...list].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO ts_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', ignore);
    client.release();
  }
}
