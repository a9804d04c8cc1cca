// A cluster peer's connection at the owner carries many clients' traffic: it gets no rate limit of
// its own, 8,192 requests in flight per principal it carries and 64 MiB unsent (docs/cluster.md),
// whatever tiny limits the server's own clients have.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { encodePrincipal, PEER_HEADER } from '../../transport/ws/server.js';
import { createFakeHost, type FakeHost } from './fakeHost.js';
import { provingCluster, serverFor, serverUnsentBytes } from './limitRules.js';

/** A server whose own clients get one frame a second, one request in flight and 1 KiB unsent. */
async function tightServer(t: TestContext, host: FakeHost) {
  return serverFor(t, {
    host,
    allowAnonymous: false,
    authenticate: () => ({ id: 'someone' }),
    cluster: provingCluster,
    rateLimit: { perSecond: 1, burst: 1 },
    maxInFlight: 1,
    maxBufferedBytes: 1024,
  });
}

/** A proven peer connection: `send(principal token, frame)`, and every answer by its principal token. */
async function peerTo(t: TestContext, port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers: { [PEER_HEADER]: 'n'.repeat(22) } });
  t.after(() => socket.terminate());
  const challenge = await new Promise<string>((resolve, reject) => {
    socket.once('message', (data) => resolve(String(data)));
    socket.once('error', reject);
  });
  assert.equal(challenge, 'prove it');
  socket.send('ok');
  const received: { token: string; message: Record<string, unknown> }[] = [];
  socket.on('message', (data) => {
    const text = String(data);
    const space = text.indexOf(' ');
    received.push({ token: text.slice(0, space), message: JSON.parse(text.slice(space + 1)) as Record<string, unknown> });
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 4_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(check(), `not within 20 s: ${check.toString()}`);
  };
  return { socket, received, closed, until, send: (token: string, frame: object) => socket.send(`${token} ${JSON.stringify(frame)}`) };
}

const alice = encodePrincipal({ id: 'alice' });
const bob = encodePrincipal({ id: 'bob' });
const send = (id: string, sessionId: string) => ({
  id,
  type: 'session.send',
  params: { sessionId, messageId: id, rpcId: 'r', text: 'hi' },
});

describe("a peer's connection at the owner", () => {
  it('has no rate limit of its own', async (t) => {
    const server = await tightServer(t, createFakeHost());
    const peer = await peerTo(t, server.port);
    for (let i = 0; i < 20; i++) peer.send(alice, { id: `p${i}`, type: 'ping' });
    await peer.until(() => peer.received.length === 20);
    assert.deepEqual(
      peer.received,
      Array.from({ length: 20 }, (_, i) => ({ token: alice, message: { type: 'result', id: `p${i}`, result: 'pong' } })),
    );
  });

  it('runs 8,192 requests of one principal at once and answers the next busy; another principal still runs', async (t) => {
    const host = createFakeHost(['s1', 's2'], { owners: { s1: 'alice', s2: 'bob' } });
    const server = await tightServer(t, host);
    const peer = await peerTo(t, server.port);
    const held = host.hold('send');
    t.after(() => held.release());
    for (let i = 0; i < 8_192; i++) peer.send(alice, send(`m${i}`, 's1'));
    await peer.until(() => host.calls.send === 8_192);
    peer.send(alice, send('m8192', 's1'));
    await peer.until(() => peer.received.length === 1);
    assert.deepEqual(peer.received[0], {
      token: alice,
      message: {
        type: 'error',
        id: 'm8192',
        code: 'busy',
        message: '8192 requests of this principal on this peer connection are still running (at most 8192); retry in 50 ms',
        retryAfterMs: 50,
      },
    });
    peer.send(bob, send('b0', 's2'));
    await peer.until(() => host.calls.send === 8_193);
    held.release();
    await peer.until(() => peer.received.length === 8_194);
    assert.ok(peer.received.slice(1).every((r) => r.message.type === 'result'));
  });

  it('holds 64 MiB unsent, and is closed (4008) past it', async (t) => {
    const server = await tightServer(t, createFakeHost());
    const peer = await peerTo(t, server.port);
    peer.send(alice, { id: 'p0', type: 'ping' });
    await peer.until(() => peer.received.length === 1);
    const unsent = serverUnsentBytes(t, 64 * 1024 * 1024);
    peer.send(alice, { id: 'p1', type: 'ping' });
    await peer.until(() => peer.received.length === 2);
    assert.deepEqual(peer.received[1], { token: alice, message: { type: 'result', id: 'p1', result: 'pong' } });
    unsent.set(64 * 1024 * 1024 + 1);
    peer.send(alice, { id: 'p2', type: 'ping' });
    assert.deepEqual(await peer.closed, { code: 4008, reason: 'not reading: over 67108864 bytes unsent' });
  });
});
