import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import type { MessageId, RpcId, TaskSurfaceId } from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { createFakeHost } from './fakeHost.js';
import { connectClient, rawSocketFor, sid, until } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

/** A WebSocket server that accepts connections and never answers a frame (a hung host). */
async function silentServer() {
  const wss = new WebSocketServer({ port: 0 });
  await new Promise((r) => wss.once('listening', r));
  let connections = 0;
  wss.on('connection', () => connections++);
  return {
    port: (wss.address() as { port: number }).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}

describe('WebSocket client: timeouts, heartbeat, refused watches', () => {
  it('rejects a call nobody answers as unreachable, naming the request', async (t) => {
    const server = await silentServer();
    const client = connectClient(server.port, { requestTimeoutMs: 50, heartbeatMs: 0 });
    // The client first: closed after the server, it would be reconnecting to it meanwhile.
    closeWhenDone(t, { close: () => (client.dispose(), server.close()) });
    await assert.rejects(
      client.readLog(sid('s1'), { limit: 1 }),
      (e: unknown) => e instanceof TransportError && e.code === 'unreachable' && /no answer to log.read .* within 50 ms/.test(e.message),
    );
  });

  it('reconnects when its ping goes unanswered', async (t) => {
    const server = await silentServer();
    const client = connectClient(server.port, { heartbeatMs: 20 });
    closeWhenDone(t, { close: () => (client.dispose(), server.close()) });
    const seen: string[] = [];
    client.onStatus((status) => seen.push(status));
    await until(() => server.connections() >= 2);
    assert.ok(seen.includes('closed'), `statuses: ${seen.join(', ')}`);
  });

  it('reports a watch the server refuses instead of waiting silently', async (t) => {
    const host = createFakeHost(['mine', 'theirs'], { owners: { mine: 'alice', theirs: 'bob' } });
    const server = await createWebSocketServer({ host, port: 0, heartbeatMs: 0, authenticate: () => ({ id: 'alice' }) });
    const warn = t.mock.method(console, 'warn', () => {});
    const client = connectClient(server.port, { heartbeatMs: 0 });
    closeWhenDone(t, { close: () => (client.dispose(), server.close()) });
    client.watchSession(sid('theirs'), () => assert.fail('no view of a refused session'));
    await until(() => warn.mock.callCount() > 0);
    assert.equal(warn.mock.calls[0]!.arguments[0], '[task-surface] cannot watch session "theirs": unknown session "theirs"');
    assert.equal(host.watcherCount(), 0);
  });
});

describe('WebSocket server: ids and authorization change nothing', () => {
  it('refuses every request on a session the connection may not see, and calls nothing', async (t) => {
    const host = createFakeHost(['mine', 'theirs'], { owners: { mine: 'alice', theirs: 'bob' } });
    const server = await createWebSocketServer({ host, port: 0, heartbeatMs: 0, authenticate: () => ({ id: 'alice' }) });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    const theirs = { sessionId: 'theirs' };
    const frames = [
      { type: 'session.watch', params: theirs },
      { type: 'log.read', params: { ...theirs, limit: 5 } },
      { type: 'taskSurface.submit', params: { ...theirs, surfaceId: 'f1', submissionId: 'x', values: {} } },
      { type: 'taskSurface.dismiss', params: { ...theirs, surfaceId: 'f1', dismissalId: 'd' } },
      { type: 'session.send', params: { ...theirs, messageId: 'm', rpcId: 'r', text: 'hi' } },
      { type: 'session.updateQueue', params: { ...theirs, op: 'remove', itemId: 'i' } },
      { type: 'actionCards.act', params: { ...theirs, callId: 'c', verb: 'confirm' } },
    ];
    for (const [i, frame] of frames.entries()) {
      const answer = await raw.ask(JSON.stringify({ id: `q${i}`, ...frame }));
      assert.equal(answer.code, 'unknown-session', `${frame.type}: ${JSON.stringify(answer)}`);
      assert.equal(answer.message, 'unknown session "theirs"');
    }
    assert.deepEqual(host.calls, {});
    assert.equal(host.watcherCount(), 0);
  });

  it('rejects an id that is too long or not a string', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    for (const id of ['x'.repeat(129), 42, '']) {
      const answer = await raw.ask(JSON.stringify({ id, type: 'ping' }));
      assert.deepEqual(answer, {
        type: 'error',
        id: null,
        code: 'bad-request',
        message: 'message needs a string "id" of 1–128 characters',
      });
    }
  });

  it('does not answer a request with the remembered result of another type that reused its id', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    const sent = await raw.ask(
      JSON.stringify({ id: 'same', type: 'session.send', params: { sessionId: 's1', messageId: 'm1', rpcId: 'r1', text: 'hi' } }),
    );
    assert.equal((sent.result as { accepted: boolean }).accepted, true);
    const queue = await raw.ask(
      JSON.stringify({ id: 'same', type: 'session.updateQueue', params: { sessionId: 's1', op: 'remove', itemId: 'i' } }),
    );
    assert.deepEqual(queue.result, { ok: false, reason: 'queue-item-not-found' });
    // The same request again is the retry: remembered, not run twice.
    await raw.ask(
      JSON.stringify({ id: 'same', type: 'session.send', params: { sessionId: 's1', messageId: 'm1', rpcId: 'r1', text: 'hi' } }),
    );
    assert.equal(host.calls.send, 1);
  });

  it('runs a retry again when the first call failed (a failure is not an answer)', async (t) => {
    const host = createFakeHost();
    let failures = 1;
    const flaky = {
      ...host,
      session: {
        ...host.session,
        send: (input: Parameters<typeof host.session.send>[0]) =>
          failures-- > 0 ? Promise.reject(new Error('disk full')) : host.session.send(input),
      },
    };
    const server = await createWebSocketServer({ allowAnonymous: true, host: flaky, port: 0, heartbeatMs: 0, onError: () => {} });
    const client = connectClient(server.port, { heartbeatMs: 0 });
    closeWhenDone(t, { close: () => (client.dispose(), server.close()) });
    const input = { sessionId: sid('s1'), messageId: 'm2' as MessageId, rpcId: 'r2' as RpcId, text: 'again' };
    await assert.rejects(client.session.send(input), (e: unknown) => e instanceof TransportError && e.code === 'server-error');
    assert.equal((await client.session.send(input)).accepted, true);
    assert.equal(host.calls.send, 1);
    assert.equal((await client.taskSurface.getActive({ sessionId: sid('s1'), surfaceId: 'f' as TaskSurfaceId })).active, false);
  });
});
