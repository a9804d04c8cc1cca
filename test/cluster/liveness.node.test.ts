// A dead owner noticed at once: each process holds an advisory lock on its id on its heartbeat
// connection; a kill -9 ends that connection, so a peer gets the lock and takes the sessions
// without waiting for the heartbeat's expiry (set to 30 s here so only the lock can explain it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mintMessageId, mintRpcId, type SessionId, type SessionView } from '../../protocol/index.js';
import { removeIfDead, tablesIn } from '../../transport/cluster/ownership.js';
import { inTime } from '../transport/helpers.js';
import { clusterFixture, within } from './helpers.js';

const LONG = { EXPIRY_MS: '30000' };

describe('liveness lock: a killed process is known dead at once', { timeout: 60_000 }, () => {
  const cluster = clusterFixture('liveness');
  const { start, client } = cluster;
  const workers = async () =>
    (await cluster.db.pool.query<{ worker_id: string; locked: boolean }>(`SELECT worker_id, locked FROM "${cluster.db.schema}".ts_workers`))
      .rows;

  it('a watched session is taken over long before the heartbeat expires', async () => {
    const a = await start(LONG);
    const b = await start(LONG);
    assert.deepEqual(
      (await workers()).filter((w) => w.worker_id === b.workerId).map((w) => w.locked),
      [true],
      'a process registers as holding its lock',
    );
    const { sessionId } = await client(b).openSession({ title: 'owned by b' });
    const onA = client(a);
    const views: SessionView[] = [];
    onA.watchSession(sessionId as SessionId, (view) => views.push(view));
    await within(
      5_000,
      () => views.length > 0,
      () => 'no first view',
    );
    const killedAt = Date.now();
    await b.kill('SIGKILL');
    // The send is forwarded to b until a finds b dead, then served by a itself.
    const sent = await inTime(
      onA.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'compare databases' }),
      'the send to be answered once b is killed',
      10_000,
    );
    assert.equal(sent.accepted, true);
    await within(
      10_000,
      () => views.at(-1)?.taskSurface.active != null,
      () => `A: ${a.stderr()}`,
    );
    const ms = Date.now() - killedAt;
    assert.ok(ms < 3_000, `taken over in ${ms} ms (the expiry is 30 s)`);
    const owner = await cluster.db.pool.query(`SELECT owner_id FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = $1`, [
      sessionId,
    ]);
    assert.equal(owner.rows[0]!.owner_id, a.workerId);
    assert.ok(!(await workers()).some((w) => w.worker_id === b.workerId), "the dead process's row is gone");
  });

  it('a live process, or one that never held the lock, is not declared dead by a suspicion', async () => {
    const c = await start(LONG);
    const t = tablesIn(cluster.db.schema);
    assert.equal(await removeIfDead(cluster.db.pool, t, `ws://127.0.0.1:${c.port}/ws`, 'someone-else'), 0);
    assert.ok(
      (await workers()).some((w) => w.worker_id === c.workerId),
      'the live process keeps its row',
    );
    await cluster.db.pool.query(
      `INSERT INTO ${t.workers} (worker_id, url, heartbeat_at) VALUES ('old-version', 'ws://10.0.0.9/ws', now())`,
    );
    assert.equal(await removeIfDead(cluster.db.pool, t, 'ws://10.0.0.9/ws', 'someone-else'), 0, 'left to the expiry');
  });
});
