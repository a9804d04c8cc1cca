import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentTurn } from '../../host/types.js';
import { mintMessageId, mintRpcId, mintTaskSurfaceSubmissionId, type SessionId, type TaskSurfaceId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient, inTime, rawSocketFor, WAIT_MS } from './helpers.js';
import { closeLastFirst } from '../closeWhenDone.js';

const MODEL = {
  version: 1,
  title: 'Pick one',
  sections: [],
  submit: { label: 'Go' },
  fields: [{ kind: 'toggle', id: 'ok', label: 'Ready' }],
};

/**
 * A real host behind the WebSocket server, and a client: all closed when the test ends. Every user
 * message that is not an answer shows MODEL.
 */
async function setup(t: TestContext) {
  const opened = closeLastFirst(t);
  const store = createMemoryStore();
  const host = createHost({
    store,
    driver: {
      async runTurn(turn: AgentTurn) {
        if (!turn.input.at(-1)?.source.taskSurface) await turn.callTool('show_task_surface', { model: MODEL });
        else turn.reply('ok');
      },
    },
  });
  opened({ close: () => host.dispose() });
  const server = opened(await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 }));
  // A call unanswered fails naming it in seconds, not at the test's timeout.
  const client = connectClient(server.port, { requestTimeoutMs: WAIT_MS });
  opened({ close: () => client.dispose() });
  /** Opens a surface in `sessionId` and returns its id. */
  const surfaceIn = async (sessionId: SessionId) => {
    await client.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'ask me' });
    await inTime(host.whenIdle(sessionId), `session ${sessionId} to be idle`);
    return host.getView(sessionId).taskSurface.active?.surfaceId as TaskSurfaceId;
  };
  const answerText = async (sessionId: SessionId) => {
    await inTime(host.whenIdle(sessionId), `session ${sessionId} to be idle`);
    const events = (await host.readLog(sessionId, { limit: 100 })).events;
    const answer = events.filter((e) => e.type === 'user/message').at(-1);
    return answer?.type === 'user/message' ? answer.text : '';
  };
  return {
    host,
    store,
    server,
    client,
    surfaceIn,
    answerText,
  };
}

describe("the answer's language over the wire", () => {
  it('session.open carries a locale: the submitted text is written in it', async (t) => {
    const h = await setup(t);
    const { sessionId } = await h.client.openSession({ title: '中文', locale: 'zh' });
    assert.equal(h.store.getSession(sessionId)?.locale, 'zh');
    const surfaceId = await h.surfaceIn(sessionId);
    const result = await h.client.taskSurface.submit({
      sessionId,
      surfaceId,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: { ok: true },
    });
    assert.equal(result.accepted, true);
    assert.equal(await h.answerText(sessionId), 'Pick one\nReady：是');
  });

  it("a submit's locale wins over the session's", async (t) => {
    const h = await setup(t);
    const { sessionId } = await h.client.openSession({ title: 'English session' });
    const surfaceId = await h.surfaceIn(sessionId);
    await h.client.taskSurface.submit({
      sessionId,
      surfaceId,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: { ok: false },
      note: '谢谢',
      locale: 'zh',
    });
    assert.equal(await h.answerText(sessionId), 'Pick one\nReady：否\n备注：谢谢');
  });

  it('any BCP 47 tag: es-MX writes Spanish, ar Arabic, an unknown fr-CA English', async (t) => {
    const h = await setup(t);
    for (const [locale, text] of [
      ['es-MX', 'Pick one\nReady: sí'],
      ['ar', 'Pick one\nReady: نعم'],
      ['fr-CA', 'Pick one\nReady: yes'],
    ] as const) {
      const { sessionId } = await h.client.openSession({ title: locale, locale });
      const surfaceId = await h.surfaceIn(sessionId);
      await h.client.taskSurface.submit({ sessionId, surfaceId, submissionId: mintTaskSurfaceSubmissionId(), values: { ok: true } });
      assert.equal(await h.answerText(sessionId), text, locale);
    }
  });

  it('refuses a locale that is not a BCP 47 tag with a clear error and changes nothing', async (t) => {
    const h = await setup(t);
    const { sessionId } = await h.client.openSession({ title: 'x' });
    const surfaceId = await h.surfaceIn(sessionId);
    const raw = await rawSocketFor(t, h.server.port);
    const submit = await raw.ask(
      JSON.stringify({
        id: 'r1',
        type: 'taskSurface.submit',
        params: { sessionId, surfaceId, submissionId: mintTaskSurfaceSubmissionId(), values: { ok: true }, locale: 'not a tag' },
      }),
    );
    assert.equal(submit['type'], 'error');
    assert.match(String(submit['message']), /params\.locale/);
    const open = await raw.ask(JSON.stringify({ id: 'r2', type: 'session.open', params: { title: 'y', locale: 'x'.repeat(40) } }));
    assert.equal(open['type'], 'error');
    assert.match(String(open['message']), /params\.locale/);
    assert.equal(h.host.getView(sessionId).queue.length, 0);
  });
});
