/*
 * The SQLite session-log store (Node only: `task-surface/host/sqlite`). better-sqlite3 12, WAL,
 * one transaction per append (and per batch). Reads by seq use the primary key and reads by callId
 * use an index (forced with INDEXED BY), so neither scans the log.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CallId, NewSessionEvent, SessionEvent, SessionId } from '../../protocol/index.js';
import { utf8Length } from '../../protocol/utf8.js';
import { decodeEvent, decodeQueueRow, encodeQueueRow, stampEvent } from './codec.js';
import { privateDir, privateFile } from './fileModes.js';
import { lockStoreFile } from './sqliteLock.js';
import type { SessionLogStore, SessionRecord } from './types.js';

export { StoreLockedError, type StoreHolder } from './sqliteLock.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  tool_mode TEXT NOT NULL,
  read_only INTEGER NOT NULL,
  locale TEXT NOT NULL,
  owner TEXT,
  last_seq INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  call_id TEXT,
  body TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS events_by_call ON events (session_id, call_id, seq);
CREATE TABLE IF NOT EXISTS inbox (
  session_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (session_id, item_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS inbox_by_order ON inbox (session_id, ord);
`;

/** After SCHEMA and OWNERS: the owner index (a table from before owners gets its columns first). */
const OWNER_INDEX = 'CREATE INDEX IF NOT EXISTS sessions_by_owner ON sessions (owner, created_at, session_id)';

/**
 * A database made before the owner index: the columns are added, then filled from each log once
 * (owner: the newest fork's, else the opening event's; the log's last seq and stored bytes).
 */
const OWNERS = `
ALTER TABLE sessions ADD COLUMN owner TEXT;
ALTER TABLE sessions ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET
  last_seq = COALESCE((SELECT max(seq) FROM events e WHERE e.session_id = sessions.session_id), 0),
  bytes = COALESCE((SELECT sum(length(CAST(body AS BLOB))) FROM events e WHERE e.session_id = sessions.session_id), 0),
  owner = COALESCE(
    (SELECT json_extract(body, '$.owner') FROM events e WHERE e.session_id = sessions.session_id
       AND json_extract(body, '$.type') = 'session/forked' AND json_extract(body, '$.owner') IS NOT NULL ORDER BY seq DESC LIMIT 1),
    (SELECT json_extract(body, '$.owner') FROM events e WHERE e.session_id = sessions.session_id AND e.seq = 1
       AND json_extract(body, '$.type') = 'session/opened'));
`;

interface SessionRow {
  session_id: string;
  title: string;
  created_at: number;
  tool_mode: string;
  read_only: number;
  locale: string;
  owner: string | null;
  last_seq: number;
  bytes: number;
}
interface EventRow {
  seq: number;
  body: string;
}
interface InboxRow {
  item_id: string;
  body: string;
}

const toRecord = (row: SessionRow): SessionRecord => ({
  sessionId: row.session_id as SessionId,
  title: row.title,
  createdAt: row.created_at,
  toolMode: row.tool_mode as SessionRecord['toolMode'],
  readOnly: row.read_only === 1,
  locale: row.locale as SessionRecord['locale'],
  ...(row.owner === null ? {} : { owner: row.owner }),
});

/**
 * Opens (or creates) a session-log database at `path` (`:memory:` for a throwaway one). The file
 * belongs to this store until `close()`: a second opener, in this process or another, fails at once
 * with a StoreLockedError naming the file and the process that holds it. A missing folder on the
 * way is made, readable by its owner only (README's `createSqliteStore('.data/sessions.db')` in a
 * fresh project); one that exists is left as it is.
 *
 * `shared: true` takes no lock: several processes open the file (WAL; a writer waits up to 5 s for
 * another's transaction). The caller then reads afresh and writes inside one transaction per
 * operation (the MCP server's panel ledger does); a Host keeps sessions in memory, so it needs the lock.
 */
export function createSqliteStore(path: string, options: { shared?: boolean } = {}): SessionLogStore & { readonly db: Database.Database } {
  // Only the owner may read the logs: SQLite gives the WAL and shared-memory files the database's mode.
  const onDisk = path !== ':memory:' && path !== '' && !path.startsWith('file:');
  if (onDisk && !existsSync(dirname(path))) privateDir(dirname(path));
  if (onDisk) privateFile(path);
  const db = new Database(path);
  let release = () => {};
  try {
    if (db.memory || options.shared) {
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
    } else release = lockStoreFile(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  if (onDisk) for (const side of [`${path}-wal`, `${path}-shm`]) if (existsSync(side)) privateFile(side);
  db.pragma('synchronous = NORMAL');
  db.transaction(() => {
    db.exec(SCHEMA);
    const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('sessions')").all();
    if (!columns.some((c) => c.name === 'owner')) db.exec(OWNERS);
    db.exec(OWNER_INDEX);
  }).immediate();

  const q = {
    insertSession: db.prepare(
      'INSERT INTO sessions (session_id, title, created_at, tool_mode, read_only, locale, owner) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    sessionsOf: db.prepare<[string], SessionRow>(
      'SELECT * FROM sessions INDEXED BY sessions_by_owner WHERE owner = ? ORDER BY created_at, session_id',
    ),
    bytes: db.prepare<[string], { bytes: number }>('SELECT bytes FROM sessions WHERE session_id = ?'),
    grown: db.prepare('UPDATE sessions SET last_seq = ?, bytes = bytes + ? WHERE session_id = ?'),
    getSession: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE session_id = ?'),
    listSessions: db.prepare<[], SessionRow>('SELECT * FROM sessions ORDER BY created_at, session_id'),
    lastSeq: db.prepare<[string], { last: number | null }>('SELECT max(seq) AS last FROM events WHERE session_id = ?'),
    insertEvent: db.prepare('INSERT INTO events (session_id, seq, call_id, body) VALUES (?, ?, ?, ?)'),
    get: db.prepare<[string, number], EventRow>('SELECT seq, body FROM events WHERE session_id = ? AND seq = ?'),
    rangeAsc: db.prepare<[string, number, number, number], EventRow>(
      'SELECT seq, body FROM events WHERE session_id = ? AND seq > ? AND seq < ? ORDER BY seq ASC LIMIT ?',
    ),
    rangeDesc: db.prepare<[string, number, number, number], EventRow>(
      'SELECT seq, body FROM events WHERE session_id = ? AND seq > ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    ),
    byCall: db.prepare<[string, string], EventRow>(
      'SELECT seq, body FROM events INDEXED BY events_by_call WHERE session_id = ? AND call_id = ? ORDER BY seq ASC',
    ),
    saveQueued: db.prepare('INSERT OR REPLACE INTO inbox (session_id, item_id, ord, body) VALUES (?, ?, ?, ?)'),
    getQueued: db.prepare<[string, string], InboxRow>('SELECT item_id, body FROM inbox WHERE session_id = ? AND item_id = ?'),
    deleteQueued: db.prepare('DELETE FROM inbox WHERE session_id = ? AND item_id = ?'),
    listQueued: db.prepare<[string], InboxRow>('SELECT item_id, body FROM inbox WHERE session_id = ? ORDER BY ord ASC'),
  };

  const lastSeq = (sessionId: string): number => q.lastSeq.get(sessionId)?.last ?? 0;
  const requireSession = (sessionId: SessionId) => {
    if (!q.getSession.get(sessionId)) throw new Error(`unknown session ${sessionId}`);
  };

  const insert = (sessionId: SessionId, event: NewSessionEvent, seq: number, at: number): SessionEvent => {
    const stamped = stampEvent(sessionId, event, seq, at);
    const callId = stamped.type === 'tool/call' || stamped.type === 'tool/result' ? stamped.callId : null;
    const body = JSON.stringify(stamped);
    q.insertEvent.run(sessionId, stamped.seq, callId, body);
    q.grown.run(stamped.seq, utf8Length(body), sessionId);
    return stamped;
  };
  const appendTx = db.transaction((sessionId: SessionId, event: NewSessionEvent, at: number): SessionEvent => {
    requireSession(sessionId);
    return insert(sessionId, event, lastSeq(sessionId) + 1, at);
  });
  const appendManyTx = db.transaction((sessionId: SessionId, entries: Iterable<{ event: NewSessionEvent; at: number }>): SessionEvent[] => {
    requireSession(sessionId);
    const first = lastSeq(sessionId) + 1;
    const stored: SessionEvent[] = [];
    for (const { event, at } of entries) stored.push(insert(sessionId, event, first + stored.length, at));
    return stored;
  });

  const decodeAll = (sessionId: SessionId, rows: EventRow[]) => rows.map((r) => decodeEvent(sessionId, r.seq, r.body));

  return {
    db,
    createSession(record) {
      const { sessionId, title, createdAt, toolMode, readOnly, locale, owner } = record;
      q.insertSession.run(sessionId, title, createdAt, toolMode, readOnly ? 1 : 0, locale, owner ?? null);
    },
    getSession(sessionId) {
      const row = q.getSession.get(sessionId);
      return row && toRecord(row);
    },
    listSessions: () => q.listSessions.all().map(toRecord),
    listSessionsOf: (owner) => q.sessionsOf.all(owner).map((row) => ({ ...toRecord(row), lastSeq: row.last_seq, bytes: row.bytes })),
    storedBytes: (sessionId) => q.bytes.get(sessionId)?.bytes ?? 0,
    append: (sessionId, event, at) => appendTx.immediate(sessionId, event, at),
    appendMany: (sessionId, entries) => appendManyTx.immediate(sessionId, entries),
    read(sessionId, range = {}) {
      requireSession(sessionId);
      const after = range.afterSeq ?? 0;
      const before = range.beforeSeq ?? Number.MAX_SAFE_INTEGER;
      const limit = range.limit ?? -1;
      if (range.fromEnd) return decodeAll(sessionId, q.rangeDesc.all(sessionId, after, before, limit).reverse());
      return decodeAll(sessionId, q.rangeAsc.all(sessionId, after, before, limit));
    },
    get(sessionId, seq) {
      requireSession(sessionId);
      if (!Number.isInteger(seq)) return undefined;
      const row = q.get.get(sessionId, seq);
      return row && decodeEvent(sessionId, row.seq, row.body);
    },
    findCall(sessionId, callId: CallId) {
      requireSession(sessionId);
      const out: { call?: SessionEvent; result?: SessionEvent } = {};
      for (const row of q.byCall.all(sessionId, callId)) {
        const event = decodeEvent(sessionId, row.seq, row.body);
        // The first call/result of an id wins, as in the memory store.
        if (event.type === 'tool/call') out.call ??= event;
        else if (event.type === 'tool/result') out.result ??= event;
      }
      return out;
    },
    lastSeq(sessionId) {
      requireSession(sessionId);
      return lastSeq(sessionId);
    },
    saveQueued(sessionId, row) {
      requireSession(sessionId);
      q.saveQueued.run(sessionId, row.itemId, row.order, encodeQueueRow(sessionId, row));
    },
    updateQueued(sessionId, itemId, change) {
      const row = q.getQueued.get(sessionId, itemId);
      if (!row) return;
      const next = { ...decodeQueueRow(sessionId, itemId, row.body), ...change };
      q.saveQueued.run(sessionId, itemId, next.order, encodeQueueRow(sessionId, next));
    },
    deleteQueued(sessionId, itemId) {
      q.deleteQueued.run(sessionId, itemId);
    },
    listQueued(sessionId) {
      requireSession(sessionId);
      return q.listQueued.all(sessionId).map((r) => decodeQueueRow(sessionId, r.item_id, r.body));
    },
    close() {
      if (!db.open) return;
      db.close();
      release();
    },
  };
}
