import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentTurn } from '../../host/types.js';
import { mintMessageId, mintRpcId, mintTaskSurfaceSubmissionId, type TaskSurfaceId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient, PICK_ONE as MODEL, until } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

/** A real host, served, with a client on it: all closed when the test ends, whatever happens. */
async function setup(t: TestContext) {
  const host = createHost({
    store: createMemoryStore(),
    driver: {
      async runTurn(turn: AgentTurn) {
        if (!turn.input.at(-1)?.source.taskSurface) await turn.callTool('show_task_surface', { model: MODEL });
        else turn.reply('ok');
      },
    },
  });
  const sessionId = host.openSession({ title: 'wire' });
  const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
  const client = connectClient(server.port);
  closeWhenDone(t, {
    async close() {
      client.dispose();
      await server.close();
      await host.dispose();
    },
  });
  await client.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'show me' });
  await host.whenIdle(sessionId);
  const surfaceId = host.getView(sessionId).taskSurface.active?.surfaceId as TaskSurfaceId;
  return {
    host,
    server,
    client,
    sessionId,
    surfaceId,
  };
}

const userMessages = async (h: Awaited<ReturnType<typeof setup>>) =>
  (await h.host.readLog(h.sessionId, { limit: 100 })).events.filter((e) => e.type === 'user/message').length;

describe('WebSocket transport over a real Host', () => {
  it('submits a surface and the next turn reads it back', async (t) => {
    const h = await setup(t);
    const result = await h.client.taskSurface.submit({
      sessionId: h.sessionId,
      surfaceId: h.surfaceId,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: { pick: 'a' },
    });
    assert.equal(result.accepted, true);
    await h.host.whenIdle(h.sessionId);
    assert.equal(h.host.getView(h.sessionId).taskSurface.active, null);
    assert.equal(await userMessages(h), 2);
  });

  it('a submission retried after a dropped socket admits one message', async (t) => {
    const h = await setup(t);
    const submissionId = mintTaskSurfaceSubmissionId();
    const input = { sessionId: h.sessionId, surfaceId: h.surfaceId, submissionId, values: { pick: 'a' } };
    const first = h.client.taskSurface.submit(input);
    h.server.dropConnections();
    const [a, b] = await Promise.all([first, h.client.taskSurface.submit(input)]);
    assert.deepEqual(a, b);
    await h.host.whenIdle(h.sessionId);
    assert.equal(await userMessages(h), 2);
  });

  it("reads a surface's outcome over the wire: open, then submitted with its values", async (t) => {
    const h = await setup(t);
    const ask = () => h.client.taskSurface.getOutcome({ sessionId: h.sessionId, surfaceId: h.surfaceId });
    assert.equal((await ask()).status, 'open');
    await h.client.taskSurface.submit({
      sessionId: h.sessionId,
      surfaceId: h.surfaceId,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: { pick: 'a' },
    });
    await h.host.whenIdle(h.sessionId);
    const closed = await ask();
    assert.ok(closed.status === 'submitted');
    assert.deepEqual(closed.values, { pick: 'a' });
    await assert.rejects(h.client.taskSurface.getOutcome({ sessionId: h.sessionId } as never), /surfaceId/);
  });

  it('pushes the closed projection to a watching client', async (t) => {
    const h = await setup(t);
    const actives: unknown[] = [];
    h.client.watchSession(h.sessionId, (view) => actives.push(view.taskSurface.active));
    await until(() => actives.length > 0);
    assert.notEqual(actives.at(-1), null);
    await h.client.taskSurface.submit({
      sessionId: h.sessionId,
      surfaceId: h.surfaceId,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: { pick: 'a' },
    });
    await until(() => actives.at(-1) === null);
  });
});
