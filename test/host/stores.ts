// Test helper: the store implementations every host suite runs against.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '../../host/store/memory.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { SessionLogStore } from '../../host/store/types.js';

export interface StoreFactory {
  name: 'memory' | 'sqlite';
  /** A fresh, empty store. */
  create(): StoreHandle;
}

export interface StoreHandle {
  store: SessionLogStore;
  /** A new store over the same data (closes the old one): a process restart. Memory: same object. */
  reopen(): SessionLogStore;
  /** Overwrites one stored row with raw text. */
  corrupt(sessionId: string, seq: number, json: string): void;
  /** Overwrites one stored inbox row with raw text. */
  corruptQueued(sessionId: string, itemId: string, json: string): void;
  cleanup(): void;
}

export const storeFactories: StoreFactory[] = [
  {
    name: 'memory',
    create() {
      const store = createMemoryStore();
      return {
        store,
        reopen: () => store,
        corrupt: (sessionId, seq, json) => store.corrupt(sessionId as never, seq, json),
        corruptQueued: (sessionId, itemId, json) => store.corruptQueued(sessionId as never, itemId, json),
        cleanup: () => store.close(),
      };
    },
  },
  {
    name: 'sqlite',
    create() {
      const dir = mkdtempSync(join(tmpdir(), 'task-surface-'));
      const path = join(dir, 'log.db');
      let store = createSqliteStore(path);
      const handle: StoreHandle = {
        store,
        reopen() {
          store.close();
          store = createSqliteStore(path);
          handle.store = store;
          return store;
        },
        corrupt(sessionId, seq, json) {
          store.db.prepare('UPDATE events SET body = ? WHERE session_id = ? AND seq = ?').run(json, sessionId, seq);
        },
        corruptQueued(sessionId, itemId, json) {
          store.db.prepare('UPDATE inbox SET body = ? WHERE session_id = ? AND item_id = ?').run(json, sessionId, itemId);
        },
        cleanup() {
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
      return handle;
    },
  },
];
