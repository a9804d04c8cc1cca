// A WebSocket server built with no options but the required ones: what a user who reads the
// documented defaults gets (each test here passes no limit of its own).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost, type FakeHost } from './fakeHost.js';
import { rawSocket, until } from './helpers.js';

/** A server with only `host` and `allowAnonymous`, closed when the test ends. */
async function defaultServer(t: TestContext, host: FakeHost = createFakeHost()) {
  const server = await createWebSocketServer({ host, allowAnonymous: true });
  closeWhenDone(t, server);
  return server;
}

/** A raw socket closed when the test ends. */
async function socketTo(t: TestContext, port: number) {
  const raw = await rawSocket(port);
  t.after(() => raw.close());
  return raw;
}

describe('WebSocket server defaults', () => {
  it('rate-limits each connection at 100 frames a second, in bursts of 200', async (t) => {
    const server = await defaultServer(t);
    const raw = await socketTo(t, server.port);
    for (let i = 0; i < 300; i++) raw.socket.send(JSON.stringify({ id: `p${i}`, type: 'ping' }));
    await until(() => raw.received.length === 300);
    const limited = raw.received.filter((m) => m.code === 'rate-limited');
    // 200 at once, then 100 a second: sending 300 frames takes a few milliseconds, so a few refill.
    assert.ok(limited.length > 80 && limited.length <= 100, `${limited.length} of 300 rate-limited`);
    const answer = new Map(raw.received.map((m) => [m.id, m]));
    assert.ok(
      Array.from({ length: 200 }, (_, i) => answer.get(`p${i}`)).every((m) => m?.code !== 'rate-limited'),
      'the first 200 are not rate-limited',
    );
    assert.match(String(limited[0]!.message), /^too many messages: at most 100 per second \(bursts of 200\); retry in \d+ ms$/);
  });

  it('answers busy past 32 requests of one connection running at once', async (t) => {
    const host = createFakeHost();
    const server = await defaultServer(t, host);
    const raw = await socketTo(t, server.port);
    const held = host.hold('send');
    t.after(() => held.release());
    const send = (id: string) =>
      raw.socket.send(JSON.stringify({ id, type: 'session.send', params: { sessionId: 's1', messageId: id, rpcId: 'r', text: 'hi' } }));
    for (let i = 0; i < 32; i++) send(`m${i}`);
    await until(() => host.calls.send === 32);
    send('m32');
    await until(() => raw.received.length === 1);
    assert.deepEqual(raw.received[0], {
      type: 'error',
      id: 'm32',
      code: 'busy',
      message: '32 requests of this connection are still running (at most 32); retry in 50 ms',
      retryAfterMs: 50,
    });
  });
});
