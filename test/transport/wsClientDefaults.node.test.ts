// The browser client's documented timers, on a client built with only its url (and Node's WebSocket):
// a ping every 5 s, the connection left when one goes unanswered for 5 s more (2 × heartbeatMs), and a
// request with no answer rejected `unreachable` at 30 s. Only the timers are mocked; the sockets are real.
import assert from 'node:assert/strict';
import { describe, it, mock, type TestContext } from 'node:test';
import { WebSocketServer, WebSocket } from 'ws';
import { TransportError } from '../../transport/types.js';
import { createWebSocketTransport } from '../../transport/ws/client.js';
import type { WebSocketConstructor } from '../../transport/ws/clientTypes.js';
import { realWait, untilReal } from '../loopTime.js';

/** A server that answers the client's `ping` frames when `answerPings`, and nothing else. */
async function quietServer(t: TestContext, answerPings: boolean) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  t.after(() => {
    for (const client of wss.clients) client.terminate();
    return new Promise((r) => wss.close(r));
  });
  const frames: string[] = [];
  let closes = 0;
  wss.on('connection', (socket) => {
    socket.on('close', () => closes++);
    socket.on('message', (data) => {
      const { id, type } = JSON.parse(String(data)) as { id: string; type: string };
      frames.push(type);
      if (type === 'ping' && answerPings) socket.send(JSON.stringify({ type: 'result', id, result: 'pong' }));
    });
  });
  return { port: (wss.address() as { port: number }).port, frames, closes: () => closes, connections: () => wss.clients.size };
}

function defaultClient(t: TestContext, port: number) {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  const client = createWebSocketTransport({ url: `ws://127.0.0.1:${port}`, WebSocket: WebSocket as unknown as WebSocketConstructor });
  t.after(() => client.dispose());
  return client;
}

describe('the browser client’s default timers', () => {
  it('pings every 5 s, and leaves a connection whose ping is unanswered 5 s later', async (t) => {
    const server = await quietServer(t, false);
    const client = defaultClient(t, server.port);
    await untilReal(() => client.status === 'open', 'connected');

    mock.timers.tick(4_999);
    await realWait(150);
    assert.deepEqual(server.frames, [], 'no ping before 5 s');
    mock.timers.tick(1);
    await untilReal(() => server.frames.length === 1, 'a ping at 5 s');
    assert.deepEqual(server.frames, ['ping']);

    mock.timers.tick(4_999);
    await realWait(150);
    assert.equal(server.closes(), 0, 'still connected at 9.999 s');
    mock.timers.tick(1);
    await untilReal(() => server.closes() === 1, 'left at 10 s: the ping went unanswered for a heartbeat');
  });

  it('keeps a connection whose pings are answered, and rejects a request unanswered for 30 s as unreachable', async (t) => {
    const server = await quietServer(t, true);
    const client = defaultClient(t, server.port);
    await untilReal(() => client.status === 'open', 'connected');
    const answer: { outcome?: unknown } = {};
    const outcomeNow = (): unknown => answer.outcome;
    client.listSessions().then(
      () => (answer.outcome = 'answered'),
      (error: unknown) => (answer.outcome = error),
    );
    await untilReal(() => server.frames.includes('session.list'), 'the request was sent');

    // Five seconds at a time, so each ping is answered before the next heartbeat looks for it.
    for (let elapsed = 0; elapsed < 25_000; elapsed += 5_000) {
      mock.timers.tick(5_000);
      await untilReal(() => server.frames.filter((f) => f === 'ping').length === elapsed / 5_000 + 1, `the ping at ${elapsed + 5_000} ms`);
      await realWait(150);
    }
    mock.timers.tick(4_999);
    await realWait(150);
    assert.equal(outcomeNow(), undefined, 'still waiting at 29.999 s');
    mock.timers.tick(1);
    await untilReal(() => answer.outcome !== undefined, 'rejected at 30 s');
    const outcome = outcomeNow();
    assert.ok(outcome instanceof TransportError);
    assert.equal(outcome.code, 'unreachable');
    assert.match(outcome.message, /^no answer to session\.list from ws:\/\/127\.0\.0\.1:\d+ within 30000 ms$/);
    assert.equal(server.closes(), 0, 'answered pings keep the connection');
  });
});
