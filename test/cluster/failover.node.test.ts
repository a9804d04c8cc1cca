import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  initialValues,
  mintMessageId,
  mintRpcId,
  mintTaskSurfaceSubmissionId,
  type NormalizedTaskSurfaceModel,
  type SessionEvent,
  type SessionId,
  type SessionView,
  type TaskSurfaceId,
} from '../../protocol/index.js';
import { until } from '../transport/helpers.js';
import { clusterFixture, untilDurable, within, type Client } from './helpers.js';

describe('failover: kill -9 of the process that owns a session', { timeout: 60_000 }, () => {
  const cluster = clusterFixture('failover');
  const { start, client } = cluster;
  const log = async (c: Client, sessionId: SessionId): Promise<SessionEvent[]> => (await c.readLog(sessionId, { limit: 500 })).events;

  it('a turn interrupted by the kill is ended interrupted and run again by the process that takes over; a watcher elsewhere sees it', async () => {
    const a = await start();
    const b = await start({ THINK_MS: '1500' });
    const { sessionId } = await client(b).openSession({ title: 'turn in flight' });
    const onA = client(a);
    const views: SessionView[] = [];
    onA.watchSession(sessionId as SessionId, (view) => views.push(view));
    await onA.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'compare databases' });
    const seen = () =>
      `views ${JSON.stringify(views.map((v) => [v.lastSeq, v.turn, v.taskSurface.active != null]))}; A: ${a.stderr()} B: ${b.stderr()}`;
    await within(10_000, () => views.at(-1)?.turn === 'running', seen);
    // Killed during the turn: its start is durable (the view may run ahead of the store's commit).
    await untilDurable(cluster.db.pool, cluster.db.schema, sessionId, 2);

    const killedAt = Date.now();
    await b.kill('SIGKILL');
    // A has a watcher: it takes the session over by itself, reruns the turn, and the surface appears.
    await within(15_000, () => views.at(-1)?.taskSurface.active != null, seen);
    const takeoverMs = Date.now() - killedAt;
    assert.ok(takeoverMs < 6_000, `taken over in ${takeoverMs} ms`);

    const events = await log(onA, sessionId as SessionId);
    assert.equal(events.filter((e) => e.type === 'user/message').length, 1, 'the message is not doubled');
    const ended = events.filter((e) => e.type === 'turn/ended');
    assert.deepEqual(
      ended.map((e) => e.type === 'turn/ended' && e.outcome),
      ['interrupted', 'concluded'],
      JSON.stringify(ended),
    );
    assert.equal(events.filter((e) => e.type === 'tool/result').length, 1, 'one surface, shown once');
    const owner = await cluster.db.pool.query(
      `SELECT owner_id, token FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = $1`,
      [sessionId],
    );
    assert.equal(owner.rows[0]!.owner_id, a.workerId);
    assert.equal(owner.rows[0]!.token, '2', 'the takeover raised the fencing token');
  });

  it('a submission queued on the killed owner is gone, the surface is editable again, and the retry is admitted once', async () => {
    const shower = await start();
    const holder = await start({ AUTO_ADMIT: '0' });
    const { sessionId: id } = await client(shower).openSession({ title: 'queued submission' });
    const sessionId = id as SessionId;
    const onShower = client(shower);
    await onShower.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'compare databases' });
    let surfaceId: TaskSurfaceId | undefined;
    const views: SessionView[] = [];
    onShower.watchSession(sessionId, (view) => views.push(view));
    await until(() => (surfaceId = views.at(-1)?.taskSurface.active?.surfaceId as TaskSurfaceId | undefined) !== undefined, 10, 20_000);
    await untilDurable(cluster.db.pool, cluster.db.schema, sessionId, views.at(-1)!.lastSeq);
    await shower.kill('SIGKILL');

    // The holder takes it over on the next request and keeps the submission queued (it admits nothing).
    const onHolder = client(holder);
    const active = await onHolder.taskSurface.getActive({ sessionId, surfaceId: surfaceId! });
    assert.ok(active.active);
    const values = initialValues(active.model as NormalizedTaskSurfaceModel);
    const submissionId = mintTaskSurfaceSubmissionId();
    const first = await onHolder.taskSurface.submit({ sessionId, surfaceId: surfaceId!, submissionId, values });
    assert.equal(first.accepted, true);
    await holder.kill('SIGKILL');

    const next = await start();
    const onNext = client(next);
    const after = await onNext.taskSurface.getActive({ sessionId, surfaceId: surfaceId! });
    assert.ok(after.active, 'the surface is still open');
    assert.equal(after.pending, null, 'the submission that was only queued is gone: the surface is editable');
    // The Dock retries with the same submissionId: admitted, once.
    const retried = await onNext.taskSurface.submit({ sessionId, surfaceId: surfaceId!, submissionId, values });
    assert.equal(retried.accepted, true);
    const again = await onNext.taskSurface.submit({ sessionId, surfaceId: surfaceId!, submissionId, values });
    assert.deepEqual(again, retried);
    let events: SessionEvent[] = [];
    for (;;) {
      events = await log(onNext, sessionId);
      if (
        events.some(
          (e) => e.type === 'turn/ended' && events.indexOf(e) > events.findIndex((x) => x.type === 'user/message' && x.source.taskSurface),
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const admitted = events.filter((e) => e.type === 'user/message' && e.source.taskSurface?.submissionId === submissionId);
    assert.equal(admitted.length, 1);
  });
});
