import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { CallId, SessionId, TurnId } from '../../protocol/index.js';
import { InvalidEventError } from '../../host/store/codec.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import { CorruptEventError, type SessionLogStore, type SessionRecord } from '../../host/store/types.js';
import { storeFactories, type StoreHandle } from './stores.js';

const S = 's1' as SessionId;
const record = (sessionId: SessionId, createdAt = 1): SessionRecord => ({
  sessionId,
  title: 'Test',
  createdAt,
  toolMode: 'native',
  readOnly: false,
  locale: 'en',
});
const turnId = 't1' as TurnId;
const message = (text: string) =>
  ({ type: 'user/message', messageId: `m-${text}`, text, source: { kind: 'user', rpcId: `r-${text}` } }) as never;

for (const factory of storeFactories) {
  describe(`${factory.name} store`, () => {
    let handle: StoreHandle;
    let store: SessionLogStore;
    beforeEach(async () => {
      handle = await factory.create();
      store = handle.store;
      store.createSession(record(S));
    });
    afterEach(() => handle.cleanup());

    it('keeps session records and refuses a duplicate id', () => {
      store.createSession(record('s2' as SessionId, 2));
      assert.deepEqual(store.getSession(S), record(S));
      assert.deepEqual(
        store.listSessions().map((r) => r.sessionId),
        ['s1', 's2'],
      );
      assert.equal(store.getSession('nope' as SessionId), undefined);
      assert.throws(() => store.createSession(record(S)));
    });

    it('numbers events from 1, stamps them and refuses an event of no known type on append', () => {
      const first = store.append(S, message('a'), 100);
      const second = store.append(S, { type: 'turn/started', turnId }, 101);
      assert.equal(first.seq, 1);
      assert.equal(first.at, 100);
      assert.equal(second.seq, 2);
      assert.equal(store.lastSeq(S), 2);
      // Host-built events are typed and not parsed again; the cheap guard still refuses a non-event.
      assert.throws(
        () => store.append(S, { type: 'nope/event' } as never, 1),
        (e: Error) => e instanceof InvalidEventError && /type: expected one of user\/message/.test(e.message),
      );
      assert.throws(() => store.append(S, null as never, 1), InvalidEventError);
      assert.equal(store.lastSeq(S), 2, 'a refused event is not stored');
    });

    it('appends a batch in order, each event with its own time, all or none', () => {
      store.append(S, message('a'), 100);
      const batch = store.appendMany(S, [
        { event: message('b'), at: 5 },
        { event: { type: 'turn/started', turnId }, at: 6 },
      ]);
      assert.deepEqual(
        batch.map((e) => [e.seq, e.at, e.type]),
        [
          [2, 5, 'user/message'],
          [3, 6, 'turn/started'],
        ],
      );
      assert.deepEqual(
        store.read(S).map((e) => e.seq),
        [1, 2, 3],
      );
      assert.throws(
        () =>
          store.appendMany(S, [
            { event: message('c'), at: 7 },
            { event: { type: 'nope/event' } as never, at: 8 },
          ]),
        (e: Error) => e instanceof InvalidEventError && /refused to append/.test(e.message),
      );
      assert.equal(store.lastSeq(S), 3, 'a batch with an invalid event stores none of it');
      assert.deepEqual(store.appendMany(S, []), []);
    });

    it('reads ranges oldest first, from either end, and single events by seq', () => {
      for (const t of ['a', 'b', 'c', 'd', 'e']) store.append(S, message(t), 1);
      const seqs = (events: { seq: number }[]) => events.map((e) => e.seq);
      assert.deepEqual(seqs(store.read(S)), [1, 2, 3, 4, 5]);
      assert.deepEqual(seqs(store.read(S, { afterSeq: 2 })), [3, 4, 5]);
      assert.deepEqual(seqs(store.read(S, { beforeSeq: 3 })), [1, 2]);
      assert.deepEqual(seqs(store.read(S, { limit: 2 })), [1, 2]);
      assert.deepEqual(seqs(store.read(S, { limit: 2, fromEnd: true })), [4, 5]);
      assert.deepEqual(seqs(store.read(S, { beforeSeq: 5, limit: 2, fromEnd: true })), [3, 4]);
      assert.equal(store.get(S, 3)?.type, 'user/message');
      assert.equal(store.get(S, 0), undefined);
      assert.equal(store.get(S, 6), undefined);
    });

    it('finds the call and result of a callId', () => {
      const callId = 'c1' as CallId;
      store.append(S, message('a'), 1);
      store.append(S, { type: 'tool/call', callId, turnId, name: 'x', args: {}, origin: 'model', agent: 'root' }, 1);
      store.append(S, { type: 'tool/result', callId, turnId, name: 'x', ok: true, content: 'done' }, 1);
      const found = store.findCall(S, callId);
      assert.equal(found.call?.seq, 2);
      assert.equal(found.result?.seq, 3);
      assert.deepEqual(store.findCall(S, 'other' as CallId), {});
    });

    it('returns fresh objects: mutating a returned event does not change the log', () => {
      const event = store.append(S, message('a'), 1) as { text: string };
      event.text = 'changed';
      assert.equal((store.get(S, 1) as { text: string }).text, 'a');
    });

    it('reports a corrupt or unknown stored event instead of folding it', async () => {
      store.append(S, message('a'), 1);
      store.append(S, message('b'), 1);
      await handle.corrupt(S, 2, JSON.stringify({ seq: 2, at: 1, type: 'from/the-future' }));
      assert.throws(
        () => store.read(S),
        (e: Error) => e instanceof CorruptEventError && /seq 2/.test(e.message),
      );
      assert.throws(() => store.get(S, 2), CorruptEventError);
      await handle.corrupt(S, 2, '{not json');
      assert.throws(() => store.get(S, 2), /not JSON/);
      assert.equal(store.get(S, 1)?.seq, 1);
    });

    it('refuses operations on an unknown session', () => {
      const X = 'x' as SessionId;
      assert.throws(() => store.append(X, message('a'), 1), /unknown session/);
      assert.throws(() => store.read(X), /unknown session/);
    });

    it('keeps everything across a reopen', async () => {
      store.append(S, message('a'), 1);
      const reopened = await handle.reopen();
      assert.equal(reopened.lastSeq(S), 1);
      assert.deepEqual(reopened.getSession(S), record(S));
    });
  });
}

describe('sqlite store specifics', () => {
  it('writes a batch in one transaction', () => {
    const store = createSqliteStore(':memory:');
    try {
      store.createSession(record(S));
      const seen: boolean[] = [];
      function* entries() {
        for (const t of ['a', 'b', 'c']) {
          seen.push(store.db.inTransaction);
          yield { event: message(t), at: 1 };
        }
      }
      assert.equal(store.appendMany(S, entries()).length, 3);
      assert.deepEqual(seen, [true, true, true]);
      assert.equal(store.db.inTransaction, false);
    } finally {
      store.close();
    }
  });

  it('uses WAL and reads by seq and callId through indexes, never a scan', () => {
    const store = createSqliteStore(':memory:');
    try {
      const plan = (sql: string) =>
        (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('s', 'c') as { detail: string }[]).map((r) => r.detail).join(' | ');
      assert.match(
        plan('SELECT seq, body FROM events INDEXED BY events_by_call WHERE session_id = ? AND call_id = ? ORDER BY seq ASC'),
        /USING (COVERING )?INDEX events_by_call/,
      );
      assert.match(plan('SELECT seq, body FROM events WHERE session_id = ? AND seq = 1 AND ? IS NOT NULL'), /USING PRIMARY KEY/);
      assert.match(plan('SELECT max(seq) FROM events WHERE session_id = ? AND ? IS NOT NULL'), /USING PRIMARY KEY/);
    } finally {
      store.close();
    }
    const file = createSqliteStore(`${process.env.TMPDIR ?? '/tmp'}/ts-wal-${process.pid}.db`);
    try {
      assert.equal(file.db.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      file.close();
    }
  });
});
