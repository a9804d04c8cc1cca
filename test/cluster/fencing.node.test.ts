import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createPostgresStore, FencedError } from '../../host/store/postgres/index.js';
import { mintMessageId, mintRpcId, type NewSessionEvent, type SessionId } from '../../protocol/index.js';
import { joinCluster } from '../../transport/cluster/node.js';
import { acquire, tablesIn } from '../../transport/cluster/ownership.js';
import { closeLastFirst, closeWhenDone } from '../closeWhenDone.js';
import { until, WAIT_MS } from '../transport/helpers.js';
import { freshSchema, SECRET, testDatabaseUrl } from './helpers.js';

const noDriver = { async runTurn() {} };
const message = (text: string) =>
  ({ type: 'user/message', messageId: mintMessageId(), text, source: { kind: 'user', rpcId: mintRpcId() } }) as NewSessionEvent;

describe('fencing and heartbeats', () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  before(async () => {
    db = await freshSchema('fence');
    // The store's migrations make the tables (ts_workers among them).
    await (await createPostgresStore({ connectionString: testDatabaseUrl(), schema: db.schema })).close();
  });
  after(async () => {
    await db?.drop();
  });

  /**
   * A host process in this test process, joined to the cluster and closed when the test ends; `cut()`
   * stops its heartbeat reaching the database.
   */
  async function member(t: TestContext, workerId: string) {
    let cut = false;
    const opened = closeLastFirst(t);
    const store = opened(await createPostgresStore({ connectionString: testDatabaseUrl(), schema: db.schema }));
    const host = createHost({ store, driver: noDriver, autoAdmit: false });
    opened({ close: () => host.dispose() });
    const unloaded: SessionId[] = [];
    const node = await joinCluster({
      db: { query: (text, values) => (cut ? new Promise<never>(() => {}) : store.pool.query(text, values)) },
      schema: db.schema,
      host: { hasSession: (id) => host.hasSession(id), load: (id) => store.load(id) },
      store,
      unload: (id) => {
        unloaded.push(id);
        store.unload(id);
      },
      url: `ws://127.0.0.1:9/${workerId}`,
      secret: SECRET,
      workerId,
      heartbeatMs: 100,
      expiryMs: 400,
      onError: () => {},
    });
    opened(node);
    // Closed first: its queries answered again, leaving the cluster does not wait on one that never settles.
    opened({ close: () => (cut = false) });
    return { store, host, node, unloaded, cut: () => (cut = true) };
  }

  it('an old owner whose session was taken over cannot append: FencedError, the session is lost there, the log is not forked', async (t) => {
    // The old owner is a process that stopped (a long pause, a partition) without knowing it.
    const old = await createPostgresStore({ connectionString: testDatabaseUrl(), schema: db.schema });
    const oldHost = createHost({ store: old, driver: noDriver, autoAdmit: false });
    closeWhenDone(t, { close: () => oldHost.dispose().then(() => old.close()) });
    const sessionId = oldHost.openSession({ title: 'fenced' });
    await old.flush(sessionId);
    const mine = await acquire(db.pool, tablesIn(db.schema), sessionId, 'old-paused', 400);
    assert.equal(mine?.kind, 'mine');
    old.setFence(sessionId, mine.kind === 'mine' ? mine.token : undefined);
    old.append(sessionId, message('before'), Date.now());
    await old.flush(sessionId);

    const next = await member(t, 'next');
    // 'old-paused' has no live heartbeat: the next process takes the session and raises the token.
    assert.deepEqual(await next.node.route(sessionId, false), { kind: 'local' });
    const lost: SessionId[] = [];
    old.onLost((id) => lost.push(id));
    old.append(sessionId, message('from the old owner'), Date.now());
    await assert.rejects(old.flush(sessionId), FencedError);
    assert.deepEqual(lost, [sessionId], 'the old owner knows it lost the session');

    next.store.append(sessionId, message('from the new owner'), Date.now());
    await next.store.flush(sessionId);
    const rows = await db.pool.query(`SELECT seq, body FROM "${db.schema}".ts_events WHERE session_id = $1 ORDER BY seq`, [sessionId]);
    assert.deepEqual(
      rows.rows.map((r) => (JSON.parse(r.body as string) as { text?: string }).text),
      ['before', 'from the new owner'],
    );
    const owner = await db.pool.query(`SELECT owner_id, token FROM "${db.schema}".ts_session_owners WHERE session_id = $1`, [sessionId]);
    assert.deepEqual(owner.rows[0], { owner_id: 'next', token: '2' });
  });

  it('a session opened here (adopt) is fenced too: after a takeover its stale event and inbox writes are refused', async (t) => {
    const a = await member(t, 'a-opened');
    const sessionId = a.host.openSession({ title: 'opened here' });
    await a.node.adopt(sessionId);
    a.store.append(sessionId, message('before'), Date.now());
    await a.store.flush(sessionId);
    // A peer takes the session over while this process, paused, still believes it owns it.
    await db.pool.query(`UPDATE "${db.schema}".ts_session_owners SET owner_id = 'b-peer', token = token + 1 WHERE session_id = $1`, [
      sessionId,
    ]);
    a.store.append(sessionId, message('stale event'), Date.now());
    await assert.rejects(a.store.flush(sessionId), FencedError);
    const texts = await db.pool.query(`SELECT body FROM "${db.schema}".ts_events WHERE session_id = $1 ORDER BY seq`, [sessionId]);
    assert.ok(!texts.rows.some((r) => String(r.body).includes('stale event')), 'the stale event was not committed');
    const inbox = await db.pool.query(`SELECT count(*)::int AS n FROM "${db.schema}".ts_inbox WHERE session_id = $1`, [sessionId]);
    assert.equal(inbox.rows[0]!.n, 0);
  });

  it('a queued row of an opened session is fenced like an event', async (t) => {
    const a = await member(t, 'a-queue');
    const sessionId = a.host.openSession({ title: 'queue here' });
    await a.node.adopt(sessionId);
    await db.pool.query(`UPDATE "${db.schema}".ts_session_owners SET owner_id = 'b-peer', token = token + 1 WHERE session_id = $1`, [
      sessionId,
    ]);
    // autoAdmit is off: the message waits as an inbox row, which is what is written.
    await assert.rejects(
      a.host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'queued after the takeover' }),
      /ownership \(token 1\) was taken over; its writes are refused/,
    );
    const inbox = await db.pool.query(`SELECT count(*)::int AS n FROM "${db.schema}".ts_inbox WHERE session_id = $1`, [sessionId]);
    assert.equal(inbox.rows[0]!.n, 0, 'the stale inbox row was not committed');
  });

  it('a process that cannot renew its heartbeat stops serving its sessions before peers may take them', async (t) => {
    const a = await member(t, 'a-cut');
    const b = await member(t, 'b-alive');
    const sessionId = a.host.openSession({ title: 'cut off' });
    await a.node.adopt(sessionId);
    assert.equal(a.node.owns(sessionId), true);
    a.cut();
    const cutAt = Date.now();
    await until(() => !a.node.owns(sessionId), 10, WAIT_MS, 'the cut-off process to let its session go');
    const letGoMs = Date.now() - cutAt;
    assert.ok(letGoMs < 400 + 100, `let go after ${letGoMs} ms, within the expiry`);
    assert.deepEqual(a.unloaded, [sessionId]);
    assert.equal((await a.node.route(sessionId, false)).kind, 'retry', 'it answers nothing for the session meanwhile');
    // Once the expiry passed (by the database's clock), the other process takes it.
    await new Promise((r) => setTimeout(r, 450));
    assert.deepEqual(await b.node.route(sessionId, false), { kind: 'local' });
  });
});
