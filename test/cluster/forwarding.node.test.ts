import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  initialValues,
  mintMessageId,
  mintRpcId,
  mintTaskSurfaceSubmissionId,
  type NormalizedTaskSurfaceModel,
  type SessionId,
  type SessionView,
  type TaskSurfaceId,
} from '../../protocol/index.js';
import { until } from '../transport/helpers.js';
import { clusterFixture, type Worker } from './helpers.js';

describe('several host processes on one database: any process serves any client', () => {
  const cluster = clusterFixture('fwd');
  const { client } = cluster;
  let a: Worker;
  let b: Worker;
  before(async () => {
    // One after the other: the first creates the schema (the second would only wait for its lock).
    a = await cluster.start();
    b = await cluster.start();
  });
  it('a client on A watches a session B owns, sees every change, and a submit through A is admitted once by B', async () => {
    const onB = client(b);
    const { sessionId } = await onB.openSession({ title: 'owned by B' });
    const owner = await cluster.db.pool.query(`SELECT owner_id FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = $1`, [
      sessionId,
    ]);
    assert.equal(owner.rows[0]?.owner_id, b.workerId, 'the process that opened the session owns it');

    const onA = client(a);
    const views: SessionView[] = [];
    onA.watchSession(sessionId, (view) => views.push(view));
    await until(() => views.length > 0, 5, 20_000);

    const sent = await onA.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'compare databases' });
    assert.equal(sent.accepted, true);
    await until(() => views.at(-1)?.taskSurface.active != null && views.at(-1)!.queue.length === 0, 5, 20_000);
    const surfaceId = views.at(-1)!.taskSurface.active!.surfaceId as TaskSurfaceId;

    const active = await onA.taskSurface.getActive({ sessionId, surfaceId });
    assert.equal(active.active, true);
    const submissionId = mintTaskSurfaceSubmissionId();
    assert.ok(active.active);
    const values = initialValues(active.model as NormalizedTaskSurfaceModel);
    const first = await onA.taskSurface.submit({ sessionId, surfaceId, submissionId, values });
    assert.equal(first.accepted, true, JSON.stringify(first));
    // The same submission again, through the owner itself this time: the first answer.
    const again = await onB.taskSurface.submit({ sessionId, surfaceId, submissionId, values });
    assert.deepEqual(again, first);

    // The watcher on A sees the surface close and the agent's next answer.
    await until(
      () => views.at(-1)?.taskSurface.active == null && views.at(-1)!.queue.length === 0 && views.at(-1)!.turn === 'idle',
      20,
      20_000,
    );
    const log = await onA.readLog(sessionId, { limit: 500 });
    const admitted = log.events.filter((e) => e.type === 'user/message' && e.source.taskSurface?.submissionId === submissionId);
    assert.equal(admitted.length, 1, 'admitted exactly once');
    const seqs = views.map((v) => v.lastSeq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((x, y) => x - y),
      'views arrive in log order',
    );
    assert.equal(views.at(-1)!.lastSeq, log.events.at(-1)!.seq, 'the watcher on A saw the newest event');
  });

  it('a retried request id reaching another process gets the first answer', async () => {
    const onA = client(a);
    const { sessionId } = await onA.openSession({ title: 'owned by A' });
    const raw = await rawFrames(b.port);
    const frame = JSON.stringify({
      id: 'retry-1',
      type: 'session.send',
      params: { sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hello' },
    });
    const first = await raw.ask(frame);
    const second = await (await rawFrames(b.port)).ask(frame);
    assert.deepEqual(second, first);
    const log = await onA.readLog(sessionId as SessionId, { limit: 100 });
    assert.equal(log.events.filter((e) => e.type === 'user/message').length, 1);
  });

  it('answers a session no process has as unknown and leaves no owner row for it', async () => {
    const onA = client(a);
    await assert.rejects(onA.readLog('s-nope' as SessionId, { limit: 1 }), /unknown session/);
    const rows = await cluster.db.pool.query(
      `SELECT count(*)::int AS n FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = 's-nope'`,
    );
    assert.equal(rows.rows[0]!.n, 0, 'no owner row is left for a session that does not exist');
  });
});

async function rawFrames(port: number) {
  const { rawSocket } = await import('../transport/helpers.js');
  return rawSocket(port, { path: '/ws' });
}
