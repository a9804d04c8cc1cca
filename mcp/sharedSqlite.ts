/*
 * One SQLite file, several MCP server processes (two MCP hosts each spawn `npm run mcp` on the same
 * data folder): the store is opened without its single-process lock, and every operation of the panel
 * ledger runs as one write transaction (BEGIN IMMEDIATE). Inside it the ledger reads the panel afresh
 * and writes its events; another process's operation waits for the file's write lock, then reads what
 * this one wrote. So a panel shown through one process is read and answered through every other, and
 * two answers at once are one answer: the second reads the first.
 */
import { resolve } from 'node:path';
import { createSqliteStore } from '../host/store/sqlite.js';

export interface SharedSqlite {
  store: ReturnType<typeof createSqliteStore>;
  /** Runs `run` as one write transaction of the file, after this process's earlier ones (see PanelLedgerOptions.exclusive). */
  exclusive<T>(run: () => Promise<T>): Promise<T>;
}

/**
 * This process's transactions on each file, one after another, whichever connection runs them: a
 * second connection's BEGIN would otherwise wait (synchronously) for a first that cannot go on.
 */
const queues = new Map<string, Promise<unknown>>();

/** Opens `file` for sharing with other processes (WAL; a writer waits up to 5 s for the lock). */
export function openSharedSqlite(file: string): SharedSqlite {
  const store = createSqliteStore(file, { shared: true });
  const { db } = store;
  const key = resolve(file);
  const exclusive = <T>(run: () => Promise<T>): Promise<T> => {
    const next = (queues.get(key) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const out = await run();
          db.exec('COMMIT');
          return out;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      });
    queues.set(key, next);
    const done = () => void (queues.get(key) === next && queues.delete(key));
    next.then(done, done);
    return next;
  };
  return { store, exclusive };
}
