// Test helper: the store implementations every host suite runs against. PostgreSQL joins them when
// TEST_DATABASE_URL is set (`npm test` starts a throwaway server and sets it): each test gets its own schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createMemoryStore } from '../../host/store/memory.js';
import { createPostgresStore, type PostgresStore } from '../../host/store/postgres/index.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { SessionLogStore } from '../../host/store/types.js';

export interface StoreFactory {
  name: 'memory' | 'sqlite' | 'postgres';
  /** A fresh, empty store. */
  create(): Promise<StoreHandle>;
}

export interface StoreHandle {
  store: SessionLogStore;
  /** A new store over the same data (closes the old one): a process restart. Memory: same object. */
  reopen(): Promise<SessionLogStore>;
  /** Overwrites one stored row with raw text. */
  corrupt(sessionId: string, seq: number, json: string): Promise<void>;
  /** Overwrites one stored inbox row with raw text. */
  corruptQueued(sessionId: string, itemId: string, json: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** The tests' database, or undefined (then the PostgreSQL suites do not run). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

let sharedPool: pg.Pool | undefined;
/** One pool per test process; it lets the process exit when idle. */
export function testPool(): pg.Pool {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  if (!sharedPool || sharedPool.ended)
    sharedPool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 8, idleTimeoutMillis: 1_000, allowExitOnIdle: true });
  return sharedPool;
}

let schemas = 0;
/** A schema name no other test (in any process) uses. */
export function freshSchema(): string {
  return `t_${process.pid}_${++schemas}_${Math.random().toString(36).slice(2, 8)}`;
}

export async function dropSchema(schema: string): Promise<void> {
  await testPool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** A PostgreSQL store over a schema, with every stored session loaded (as a restarted SQLite store would serve it). */
export async function openPostgresStore(schema: string, pool: pg.Pool = testPool()): Promise<PostgresStore> {
  const store = await createPostgresStore({ pool, schema });
  for (const record of store.listSessions()) await store.load(record.sessionId);
  return store;
}

const postgres: StoreFactory = {
  name: 'postgres',
  async create() {
    const schema = freshSchema();
    let store = await openPostgresStore(schema);
    /** Changes a stored row behind the store's back, then has it read the session again. */
    const tamper = async (sessionId: string, sql: string, params: unknown[]) => {
      await store.flush();
      await store.pool.query(sql, params);
      store.unload(sessionId as never);
      await store.load(sessionId as never);
    };
    const handle: StoreHandle = {
      store,
      async reopen() {
        await store.close();
        store = await openPostgresStore(schema);
        handle.store = store;
        return store;
      },
      corrupt: (sessionId, seq, json) =>
        tamper(sessionId, `UPDATE "${schema}".ts_events SET body = $1 WHERE session_id = $2 AND seq = $3`, [json, sessionId, seq]),
      corruptQueued: (sessionId, itemId, json) =>
        tamper(sessionId, `UPDATE "${schema}".ts_inbox SET body = $1 WHERE session_id = $2 AND item_id = $3`, [json, sessionId, itemId]),
      async cleanup() {
        await store.close();
        await dropSchema(schema);
      },
    };
    return handle;
  },
};

export const storeFactories: StoreFactory[] = [
  {
    name: 'memory',
    async create() {
      const store = createMemoryStore();
      return {
        store,
        reopen: async () => store,
        corrupt: async (sessionId, seq, json) => store.corrupt(sessionId as never, seq, json),
        corruptQueued: async (sessionId, itemId, json) => store.corruptQueued(sessionId as never, itemId, json),
        cleanup: async () => store.close(),
      };
    },
  },
  {
    name: 'sqlite',
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'task-surface-'));
      const path = join(dir, 'log.db');
      let store = createSqliteStore(path);
      const handle: StoreHandle = {
        store,
        async reopen() {
          store.close();
          store = createSqliteStore(path);
          handle.store = store;
          return store;
        },
        async corrupt(sessionId, seq, json) {
          store.db.prepare('UPDATE events SET body = ? WHERE session_id = ? AND seq = ?').run(json, sessionId, seq);
        },
        async corruptQueued(sessionId, itemId, json) {
          store.db.prepare('UPDATE inbox SET body = ? WHERE session_id = ? AND item_id = ?').run(json, sessionId, itemId);
        },
        async cleanup() {
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
      return handle;
    },
  },
  ...(TEST_DATABASE_URL ? [postgres] : []),
];
