import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  initialValues,
  mintMessageId,
  mintRpcId,
  mintTaskSurfaceDismissalId,
  mintTaskSurfaceSubmissionId,
  type NormalizedTaskSurfaceModel,
  type SessionId,
  type SessionView,
  type TaskSurfaceId,
} from '../../protocol/index.js';
import { clusterFixture, untilDurable, within } from './helpers.js';

describe('cluster membership: graceful stops, retries after a takeover', { timeout: 90_000 }, () => {
  const cluster = clusterFixture('members');
  const { start, client } = cluster;

  it('a process that stops gracefully frees its sessions at once: another serves them before any expiry', async () => {
    const a = await start();
    const b = await start();
    const { sessionId } = await client(a).openSession({ title: 'handed over' });
    await a.kill('SIGTERM');
    const stoppedAt = Date.now();
    const page = await client(b).readLog(sessionId as SessionId, { limit: 10 });
    assert.equal(page.lastSeq, 0);
    const ms = Date.now() - stoppedAt;
    assert.ok(ms < 1_500, `served again after ${ms} ms (the expiry is 2,000 ms)`);
    const owner = await cluster.db.pool.query(`SELECT owner_id FROM "${cluster.db.schema}".ts_session_owners WHERE session_id = $1`, [
      sessionId,
    ]);
    assert.equal(owner.rows[0]!.owner_id, b.workerId);
  });

  it('a submissionId and a dismissalId retried on another process after the owner was killed get their first answers', async () => {
    const owner = await start();
    const other = await start();
    const onOwner = client(owner);
    const { sessionId: id } = await onOwner.openSession({ title: 'retries' });
    const sessionId = id as SessionId;
    const views: SessionView[] = [];
    onOwner.watchSession(sessionId, (view) => views.push(view));
    const seen = () => JSON.stringify(views.at(-1));
    const surfaceFor = async (text: string) => {
      const before = views.at(-1)?.lastSeq ?? 0;
      await onOwner.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
      await within(
        10_000,
        () => (views.at(-1)?.lastSeq ?? 0) > before && views.at(-1)!.taskSurface.active != null && views.at(-1)!.turn === 'idle',
        seen,
      );
      return views.at(-1)!.taskSurface.active!.surfaceId as TaskSurfaceId;
    };

    const first = await surfaceFor('compare databases');
    const active = await onOwner.taskSurface.getActive({ sessionId, surfaceId: first });
    assert.ok(active.active);
    const submission = {
      sessionId,
      surfaceId: first,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: initialValues(active.model as NormalizedTaskSurfaceModel),
    };
    const submitted = await onOwner.taskSurface.submit(submission);
    assert.equal(submitted.accepted, true);
    await within(
      10_000,
      () => views.at(-1)!.taskSurface.active == null && views.at(-1)!.turn === 'idle' && views.at(-1)!.queue.length === 0,
      seen,
    );

    const second = await surfaceFor('notification settings');
    const dismissal = { sessionId, surfaceId: second, dismissalId: mintTaskSurfaceDismissalId() };
    const dismissed = await onOwner.taskSurface.dismiss(dismissal);
    assert.equal(dismissed.dismissed, true);

    await untilDurable(cluster.db.pool, cluster.db.schema, sessionId, views.at(-1)!.lastSeq);
    await owner.kill('SIGKILL');
    const onOther = client(other);
    assert.deepEqual(await onOther.taskSurface.submit(submission), submitted, 'the durable submission answers as the first time');
    assert.deepEqual(await onOther.taskSurface.dismiss(dismissal), dismissed, 'the logged dismissal answers as the first time');
    const log = await onOther.readLog(sessionId, { limit: 500 });
    assert.equal(log.events.filter((e) => e.type === 'user/message' && e.source.taskSurface).length, 1);
    assert.equal(log.events.filter((e) => e.type === 'task-surface/dismissed').length, 1);
  });
});
