import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { SessionView, TaskSurfaceId, TaskSurfaceSubmissionId, MessageId, RpcId } from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { backoffDelay } from '../../transport/ws/backoff.js';
import { createFakeHost } from './fakeHost.js';
import { connectClient, sid, until } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

const submitInput = (submissionId: string) => ({
  sessionId: sid('s1'),
  surfaceId: 'f1' as TaskSurfaceId,
  submissionId: submissionId as TaskSurfaceSubmissionId,
  values: { pick: 'a' },
});

/** A fake host served, and a client connected to it: both closed when the test ends, whatever happens. */
async function setup(t: TestContext, options: Parameters<typeof createFakeHost>[0] = undefined) {
  const host = createFakeHost(options);
  const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
  const client = connectClient(server.port);
  // The client first: closed after the server, it would be reconnecting to it meanwhile.
  closeWhenDone(t, {
    close: async () => {
      client.dispose();
      await server.close();
    },
  });
  return { host, server, client };
}

describe('WebSocket client', () => {
  it('watches a session and gets every new view', async (t) => {
    const { host, client } = await setup(t);
    const seen: SessionView[] = [];
    const stop = client.watchSession(sid('s1'), (view) => seen.push(view));
    await until(() => seen.length === 1);
    host.bump(sid('s1'));
    await until(() => seen.length === 2);
    assert.deepEqual(
      seen.map((v) => v.lastSeq),
      [0, 1],
    );
    stop();
    await until(() => host.watcherCount() === 0);
  });

  it('calls every HostTransport method and returns the host answers', async (t) => {
    const { host, client } = await setup(t);
    assert.deepEqual(await client.taskSurface.submit(submitInput('sub1')), { accepted: true, messageId: 'm-sub1', phase: 'queued' });
    assert.deepEqual(await client.taskSurface.getActive({ sessionId: sid('s1'), surfaceId: 'f1' as TaskSurfaceId }), {
      active: false,
      reason: 'not-open',
    });
    const page = await client.readLog(sid('s1'), { limit: 10 });
    assert.equal(page.events.length, 1);
    assert.deepEqual(await client.session.updateQueue({ op: 'steer', sessionId: sid('s1'), itemId: 'i1' as never }), {
      ok: false,
      reason: 'queue-item-not-found',
    });
    assert.deepEqual(
      (await client.listSessions()).map((s) => s.sessionId),
      ['s1', 's2'],
    );
    assert.equal((await client.openSession({ title: 'Third' })).sessionId, 'new1');
    assert.equal(host.calls.submit, 1);
  });

  it('rejects a missing session with unknown-session', async (t) => {
    const { client } = await setup(t);
    await assert.rejects(
      client.readLog(sid('gone'), { limit: 5 }),
      (e: unknown) => e instanceof TransportError && e.code === 'unknown-session' && e.message === 'unknown session "gone"',
    );
  });

  it('rejects an invalid request before sending it', async (t) => {
    const { host, client } = await setup(t);
    await assert.rejects(
      client.taskSurface.submit({ ...submitInput('s'), surfaceId: '' as TaskSurfaceId }),
      (e: unknown) =>
        e instanceof TransportError && e.code === 'bad-request' && /params.surfaceId: surfaceId must not be empty/.test(e.message),
    );
    assert.equal(host.calls.submit, undefined);
  });

  it('rejects an answer that breaks the result schema', async (t) => {
    const { host, client } = await setup(t);
    host.answerWith('dismiss', { dismissed: 'maybe' });
    await assert.rejects(
      client.taskSurface.dismiss({ sessionId: sid('s1'), surfaceId: 'f' as TaskSurfaceId, dismissalId: 'd' as never }),
      (e: unknown) => e instanceof TransportError && e.code === 'server-error' && /invalid taskSurface.dismiss answer/.test(e.message),
    );
  });

  it('retries a submission whose answer was lost with the same request, and the host runs it once', async (t) => {
    const { host, server, client } = await setup(t);
    const held = host.hold('submit');
    const answer = client.taskSurface.submit(submitInput('sub-drop'));
    await held.reached;
    server.dropConnections();
    await until(() => client.status !== 'open');
    held.release();
    assert.deepEqual(await answer, { accepted: true, messageId: 'm-sub-drop', phase: 'queued' });
    assert.equal(host.calls.submit, 1);
  });

  it('retries a lost session.send without sending the message twice', async (t) => {
    const { host, server, client } = await setup(t);
    const held = host.hold('send');
    const sent = client.session.send({ sessionId: sid('s1'), messageId: 'msg1' as MessageId, rpcId: 'rpc1' as RpcId, text: 'hello' });
    await held.reached;
    server.dropConnections();
    held.release();
    assert.equal((await sent).accepted, true);
    assert.equal(host.calls.send, 1);
    assert.equal((await client.readLog(sid('s1'), { limit: 10 })).lastSeq, 1);
  });

  it('re-subscribes its sessions after a reconnect', async (t) => {
    const { host, server, client } = await setup(t);
    const seen: number[] = [];
    client.watchSession(sid('s2'), (view) => seen.push(view.lastSeq));
    await until(() => seen.length === 1);
    server.dropConnections();
    // The re-subscription answers with the current view again.
    await until(() => seen.length === 2);
    assert.equal(host.watcherCount(), 1);
    host.bump(sid('s2'));
    await until(() => seen.includes(1));
  });

  it('rejects pending calls when disposed and releases its watches', async (t) => {
    const { host, client } = await setup(t);
    client.watchSession(sid('s1'), () => {});
    await until(() => host.watcherCount() === 1);
    const held = host.hold('getActive');
    const call = client.taskSurface.getActive({ sessionId: sid('s1'), surfaceId: 'f' as TaskSurfaceId });
    await held.reached;
    client.dispose();
    await assert.rejects(call, (e: unknown) => e instanceof TransportError && e.code === 'disposed');
    await assert.rejects(client.readLog(sid('s1'), { limit: 1 }), (e: unknown) => e instanceof TransportError && e.code === 'disposed');
    await until(() => host.watcherCount() === 0);
    held.release();
  });

  it('backs off exponentially with jitter up to the cap', () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(5000, 100 * 2 ** attempt);
      const delay = backoffDelay(attempt);
      assert.ok(delay >= ceiling / 2 && delay <= ceiling, `attempt ${attempt}: ${delay}`);
    }
  });
});
