// The owner index of every store: a principal's sessions, with their last seq and stored bytes, from
// one lookup that reads no log; filled when a session opens and, for data from before, by migration.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { NewSessionEvent, SessionId } from '../../protocol/index.js';
import { createPostgresStore, migrate, migrations } from '../../host/store/postgres/index.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { SessionLogStore, SessionRecord } from '../../host/store/types.js';
import { dropSchema, freshSchema, storeFactories, TEST_DATABASE_URL, testPool, type StoreHandle } from './stores.js';

const record = (sessionId: string, createdAt: number, owner?: string): SessionRecord => ({
  sessionId: sessionId as SessionId,
  title: sessionId,
  createdAt,
  toolMode: 'native',
  readOnly: false,
  locale: 'en',
  ...(owner === undefined ? {} : { owner }),
});
const opened = (owner: string): NewSessionEvent => ({ type: 'session/opened', owner });
let messages = 0;
const message = (text: string): NewSessionEvent =>
  ({ type: 'user/message', messageId: `m-${++messages}`, text, source: { kind: 'user', rpcId: `r-${messages}` } }) as NewSessionEvent;
const bytesOf = (store: SessionLogStore, sessionId: string) =>
  store.read(sessionId as SessionId).reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)), 0);

for (const factory of storeFactories) {
  describe(`the owner index (${factory.name})`, () => {
    let handle: StoreHandle;
    beforeEach(async () => (handle = await factory.create()));
    afterEach(() => handle.cleanup());

    it("lists one owner's sessions in creation order, with last seq and stored bytes, and nobody else's", async () => {
      const { store } = handle;
      store.createSession(record('b1', 2, 'bob'));
      store.createSession(record('a2', 3, 'alice'));
      store.createSession(record('a1', 1, 'alice'));
      store.createSession(record('host', 4));
      store.append('a1' as SessionId, opened('alice'), 1);
      store.append('a1' as SessionId, message('héllo'), 2);
      const alice = store.listSessionsOf('alice');
      assert.deepEqual(
        alice.map((s) => [s.sessionId, s.owner, s.lastSeq]),
        [
          ['a1', 'alice', 2],
          ['a2', 'alice', 0],
        ],
      );
      assert.equal(alice[0]!.bytes, bytesOf(store, 'a1'), 'UTF-8 bytes of the stored JSON');
      assert.equal(store.storedBytes('a1' as SessionId), alice[0]!.bytes);
      assert.equal(store.storedBytes('a2' as SessionId), 0);
      assert.deepEqual(store.listSessionsOf('carol'), []);
      assert.equal(store.getSession('host' as SessionId)?.owner, undefined, 'host code owns nothing');

      const reopened = await handle.reopen();
      assert.deepEqual(reopened.listSessionsOf('alice'), alice, 'the index is durable');
    });

    it('reads no log to list: a corrupt event does not stop the listing', async () => {
      handle.store.createSession(record('a1', 1, 'alice'));
      handle.store.append('a1' as SessionId, opened('alice'), 1);
      handle.store.append('a1' as SessionId, message('one'), 2);
      await handle.corrupt('a1', 1, '{"not":"an event"}');
      assert.deepEqual(
        handle.store.listSessionsOf('alice').map((s) => s.sessionId),
        ['a1'],
      );
    });
  });
}

/** Writes a session the way a store from before the owner index did (no owner anywhere but in its log). */
function oldLog(events: NewSessionEvent[]): { type: string; body: string }[] {
  return events.map((event, i) => ({ type: event.type, body: JSON.stringify({ ...event, seq: i + 1, at: i + 1 }) }));
}
const history = {
  mine: oldLog([opened('alice'), message('hi')]),
  forked: oldLog([opened('alice'), { type: 'session/forked', from: 'mine' as SessionId, throughSeq: 1, owner: 'bob' } as NewSessionEvent]),
  host: oldLog([message('from host code')]),
};

/** `history`'s sessions, as the migrated index must list them. */
function assertMigrated(store: SessionLogStore): void {
  assert.deepEqual(
    store.listSessionsOf('alice').map((s) => [s.sessionId, s.lastSeq, s.bytes]),
    [['mine', 2, Buffer.byteLength(history.mine.map((e) => e.body).join(''))]],
  );
  assert.deepEqual(
    store.listSessionsOf('bob').map((s) => s.sessionId),
    ['forked'],
    'a fork belongs to who forked it',
  );
}

describe('the owner index of a SQLite database made before it', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'task-surface-owners-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is added and filled from each log once, on open', () => {
    const path = join(dir, 'old.db');
    const db = new Database(path);
    db.exec(`CREATE TABLE sessions (session_id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at INTEGER NOT NULL,
      tool_mode TEXT NOT NULL, read_only INTEGER NOT NULL, locale TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, call_id TEXT, body TEXT NOT NULL,
      PRIMARY KEY (session_id, seq)) WITHOUT ROWID;`);
    let at = 0;
    for (const [id, log] of Object.entries(history)) {
      db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, 0, ?)').run(id, id, ++at, 'native', 'en');
      log.forEach((e, i) => db.prepare('INSERT INTO events VALUES (?, ?, NULL, ?)').run(id, i + 1, e.body));
    }
    db.close();

    const store = createSqliteStore(path);
    try {
      assertMigrated(store);
      assert.equal(store.getSession('host' as SessionId)?.owner, undefined);
      store.append('mine' as SessionId, message('again'), 9);
      assert.equal(store.listSessionsOf('alice')[0]!.lastSeq, 3);
    } finally {
      store.close();
    }
  });
});

describe('the owner index of a PostgreSQL schema made before it', { skip: !TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' }, () => {
  it('is added by migration 4 and filled from each log; fetchSessionsOf finds what another process opened', async (t) => {
    const schema = freshSchema();
    t.after(() => dropSchema(schema));
    const pool = testPool();
    await migrate(
      pool,
      schema,
      migrations.filter((m) => m.version < 4),
    );
    let at = 0;
    for (const [id, log] of Object.entries(history)) {
      await pool.query(`INSERT INTO "${schema}".ts_sessions VALUES ($1, $1, $2, 'native', false, 'en')`, [id, ++at]);
      for (const [i, e] of log.entries())
        await pool.query(`INSERT INTO "${schema}".ts_events VALUES ($1, $2, NULL, $3)`, [id, i + 1, e.body]);
    }
    const store = await createPostgresStore({ pool, schema });
    t.after(() => store.close());
    assertMigrated(store);

    // Another process opens one for alice: the index in the database has it at once.
    const other = await createPostgresStore({ pool, schema });
    t.after(() => other.close());
    other.createSession(record('later', 10, 'alice'));
    other.append('later' as SessionId, opened('alice'), 10);
    await other.flush();
    assert.deepEqual(
      store.listSessionsOf('alice').map((s) => s.sessionId),
      ['mine'],
      'not learnt yet',
    );
    const fetched = await store.fetchSessionsOf('alice');
    assert.deepEqual(
      fetched.map((s) => [s.sessionId, s.lastSeq, s.bytes]),
      [
        ['mine', 2, Buffer.byteLength(history.mine.map((e) => e.body).join(''))],
        ['later', 1, other.storedBytes('later' as SessionId)],
      ],
    );
    assert.equal(await store.load('later' as SessionId), true, 'a learnt session loads');
  });
});
