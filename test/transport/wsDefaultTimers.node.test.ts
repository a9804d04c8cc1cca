// The WebSocket server's defaults that take time or memory to reach (heartbeat, unfinished messages,
// the retry window, unsent bytes), built with no option of their own and observed from a client.
// Clocks are node:test's mock timers, so a 10-minute default costs no real time.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { mintMessageId, mintRpcId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';
import { rawSocket } from './helpers.js';

/** A server with only `host` and `allowAnonymous`, closed when the test ends. */
async function defaultServer(t: TestContext, host = createFakeHost()) {
  const server = await createWebSocketServer({ host, allowAnonymous: true });
  closeWhenDone(t, server);
  return server;
}

/** A raw socket (terminated when the test ends) and a promise of its close code and reason. */
async function client(t: TestContext, port: number, options: { autoPong?: boolean } = {}) {
  const raw = await rawSocket(port, options);
  t.after(() => raw.socket.terminate());
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    raw.socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  /**
   * A ping and its pong: the server has read everything sent before it and written everything it
   * sent before answering. Resolves 'open', or with the close if the socket closes first.
   */
  const roundTrip = () =>
    Promise.race([
      closed,
      new Promise<'open'>((resolve) => {
        raw.socket.once('pong', () => resolve('open'));
        raw.socket.ping();
      }),
    ]);
  /** Sends one frame and resolves with the next answer (no polling loop: a missing answer times the test out and ends). */
  const ask = (frame: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      raw.socket.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
      raw.socket.send(frame);
    });
  return { socket: raw.socket, closed, roundTrip, ask };
}

describe('WebSocket server defaults that take time', () => {
  it('pings every 15 s and drops a connection that did not answer the previous ping', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const server = await defaultServer(t);
    const raw = await client(t, server.port, { autoPong: false });
    let pings = 0;
    raw.socket.on('ping', () => pings++);
    t.mock.timers.tick(14_999);
    assert.equal(await raw.roundTrip(), 'open');
    assert.equal(pings, 0, 'no ping before 15 s');
    t.mock.timers.tick(1);
    assert.equal(await raw.roundTrip(), 'open');
    assert.equal(pings, 1, 'pinged at 15 s');
    t.mock.timers.tick(14_999);
    assert.equal(await raw.roundTrip(), 'open', 'not cut off before the next ping is due');
    t.mock.timers.tick(1);
    assert.deepEqual(await raw.roundTrip(), { code: 1006, reason: '' }, 'cut off: the ping 15 s ago was never answered');
  });

  it('closes a connection whose message is still unfinished 10 s after its first fragment (checked each second)', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const server = await defaultServer(t);
    const raw = await client(t, server.port);
    raw.socket.send('{"id":"p1","type":', { fin: false });
    assert.equal(await raw.roundTrip(), 'open'); // a ping may come between fragments: the server has the first one
    // The first check after it (1 s later here) starts its 10 s; the socket is closed at the check
    // 10 s after that: between 10 and 11 s after the fragment, depending on when it came.
    t.mock.timers.tick(1_000);
    t.mock.timers.tick(9_999);
    assert.equal(await raw.roundTrip(), 'open', 'open until the check 10 s after the first that saw it');
    t.mock.timers.tick(1);
    assert.deepEqual(await raw.roundTrip(), { code: 1008, reason: 'a message was not finished within 10000 ms' });
  });

  it('answers a re-sent session.send from its first answer for 10 minutes, then runs it again', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 0 });
    const host = createFakeHost();
    const server = await defaultServer(t, host);
    const raw = await client(t, server.port);
    const params = { sessionId: 's1', messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hello' };
    const send = async () => {
      const answer = await raw.ask(JSON.stringify({ id: 'send-1', type: 'session.send', params }));
      assert.equal(answer.type, 'result', JSON.stringify(answer));
    };
    await send();
    t.mock.timers.tick(10 * 60_000 - 1);
    await send();
    assert.equal(host.calls.send, 1, 'a retry within 10 minutes is answered without reaching the Host');
    t.mock.timers.tick(1);
    await send();
    assert.equal(host.calls.send, 2, 'after 10 minutes the same request reaches the Host again');
  });

  it('closes (4008) a connection with more than 4 MiB unsent, not one with exactly 4 MiB', async (t) => {
    // A client that stops reading makes the server's unsent bytes grow; the server sees that only as
    // `bufferedAmount`, so the test sets it (for the server's sockets) instead of stalling a real reader.
    const descriptor = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'bufferedAmount')!;
    let unsent = 4 * 1024 * 1024;
    Object.defineProperty(WebSocket.prototype, 'bufferedAmount', {
      configurable: true,
      get(this: WebSocket & { _isServer: boolean }) {
        return this._isServer ? unsent : (descriptor.get!.call(this) as number);
      },
    });
    t.after(() => Object.defineProperty(WebSocket.prototype, 'bufferedAmount', descriptor));
    const server = await defaultServer(t);
    const raw = await client(t, server.port);
    assert.equal((await raw.ask('{"id":"p1","type":"ping"}')).type, 'result');
    assert.equal(await raw.roundTrip(), 'open', 'exactly 4 MiB unsent is allowed');
    unsent += 1;
    await raw.ask('{"id":"p2","type":"ping"}');
    assert.deepEqual(await raw.roundTrip(), { code: 4008, reason: 'not reading: over 4194304 bytes unsent' });
  });
});
