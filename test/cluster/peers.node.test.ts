import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { SYSTEM_PRINCIPAL } from '../../protocol/index.js';
import { Peers } from '../../transport/cluster/peers.js';
import { challengeFor } from '../../transport/cluster/handshake.js';
import { encodePrincipal, PEER_HEADER } from '../../transport/ws/peerWire.js';
import { ClusterNode } from '../../transport/cluster/node.js';
import { createDemoHttpServer } from '../../demo/http.js';
import { closeLastFirst } from '../closeWhenDone.js';
import { SECRET, within } from './helpers.js';

/**
 * A stand-in owner that knows the secret: proves itself (as `joinCluster`'s server does), records
 * upgrades and the frames it receives, and answers nothing unless told.
 */
async function fakeOwner() {
  const wss = new WebSocketServer({ port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`;
  const upgrades: IncomingMessage[] = [];
  const frames: string[] = [];
  wss.on('connection', (socket, request) => {
    upgrades.push(request);
    const { challenge, verify } = challengeFor(Buffer.from(SECRET), String(request.headers[PEER_HEADER]), url);
    socket.send(challenge);
    socket.once('message', (proof) => {
      assert.ok(verify(String(proof)), 'the peer proved the secret');
      socket.on('message', (data) => frames.push(String(data)));
    });
  });
  // Its connections end with it: a peer still connected would keep `close` waiting.
  const close = () =>
    new Promise<void>((r) => {
      for (const socket of wss.clients) socket.terminate();
      wss.close(() => r());
    });
  return { url, upgrades, frames, close };
}

const limits = { maxConnections: 2, maxInFlight: 2, timeoutMs: 100, idleMs: 60_000, stallMs: 2_000 };
const frame = (id: string) => ({ id, type: 'log.read', params: { sessionId: 's1', limit: 1 } });

describe('peer connections: bounded, timed out, and unreachable owners answered clearly', () => {
  let owner: Awaited<ReturnType<typeof fakeOwner>>;
  let peers: Peers;
  before(async () => {
    owner = await fakeOwner();
    peers = new Peers(SECRET, limits);
  });
  after(async () => {
    peers.close();
    await owner.close();
  });

  it("sends no secret in the upgrade, and names each request's principal (host code as a flag, never its id)", async (t) => {
    // A patient pool: on a loaded machine the handshake may take longer than the suite's 100 ms timeout.
    const patient = new Peers(SECRET, { ...limits, timeoutMs: 10_000 });
    t.after(() => patient.close());
    const connection = patient.connection(owner.url)!;
    const answers = Promise.all([connection.request(SYSTEM_PRINCIPAL, frame('a1')), connection.request({ id: 'system' }, frame('a1'))]);
    await within(
      10_000,
      () => owner.frames.length >= 2,
      () => 'the owner got no frames',
    );
    patient.close();
    assert.deepEqual(
      (await answers).map((a) => a.type),
      ['error', 'error'],
    );
    assert.equal(owner.upgrades.length, 1, 'one connection carries both principals');
    const headers = JSON.stringify(owner.upgrades[0]!.headers);
    assert.ok(!headers.includes(SECRET), 'the secret is not in the upgrade');
    const prefixes = owner.frames.filter((f) => f.includes('"a1"')).map((f) => f.slice(0, f.indexOf(' ')));
    assert.deepEqual(prefixes.sort(), [encodePrincipal(SYSTEM_PRINCIPAL), encodePrincipal({ id: 'system' })].sort());
    assert.deepEqual(JSON.parse(Buffer.from(encodePrincipal(SYSTEM_PRINCIPAL), 'base64url').toString()), { system: true });
    assert.deepEqual(JSON.parse(Buffer.from(encodePrincipal({ id: 'system' }), 'base64url').toString()), { principal: { id: 'system' } });
  });

  it('answers busy (retry with the same id) when the owner does not answer within the timeout', async () => {
    const answer = await peers.connection(owner.url)!.request(SYSTEM_PRINCIPAL, frame('t1'));
    assert.deepEqual(answer, {
      type: 'error',
      id: 't1',
      code: 'busy',
      message: 'the process serving session "s1" did not answer within 100 ms; retry in 250 ms',
      retryAfterMs: 250,
    });
  });

  it("answers busy past maxInFlight of one principal, not another's, and joins a retry of a request still on its way", async () => {
    const connection = peers.connection(owner.url)!;
    const first = connection.request({ id: 'u1' }, frame('f1'));
    const again = connection.request({ id: 'u1' }, frame('f1'));
    const second = connection.request({ id: 'u1' }, frame('f2'));
    const third = await connection.request({ id: 'u1' }, frame('f3'));
    assert.equal(third.type === 'error' && third.code, 'busy');
    assert.match(third.type === 'error' ? third.message : '', /2 of your forwarded requests are waiting/);
    // Another principal's request with the same id is its own: neither joined nor refused.
    const other = connection.request({ id: 'u2' }, frame('f1'));
    assert.equal(await first, await again);
    await second;
    const answer = await other;
    assert.match(answer.type === 'error' ? answer.message : '', /did not answer within 100 ms/);
  });

  it('opens one connection per peer, at most maxConnections, closing an idle one to make room, else none', async (t) => {
    const opened = closeLastFirst(t);
    const second = opened(await fakeOwner());
    const third = opened(await fakeOwner());
    const busy = opened(new Peers(SECRET, { ...limits, timeoutMs: 5_000 }));
    const a = busy.connection(owner.url)!;
    assert.equal(busy.connection(owner.url), a, 'one connection per peer, whoever asks');
    const b = busy.connection(second.url)!;
    const waiting = [a.request({ id: 'a' }, frame('x1')), b.request({ id: 'b' }, frame('x2'))];
    assert.equal(busy.connection(third.url), null, 'every connection is busy: no room');
    busy.close();
    await Promise.all(waiting);
    const idle = opened(new Peers(SECRET, limits));
    idle.connection(owner.url);
    idle.connection(second.url);
    assert.ok(idle.connection(third.url), 'an idle connection made room');
    assert.equal(idle.size, 2);
  });

  it('answers busy (retry) when the owner cannot be reached', async () => {
    const answer = await peers.connection('ws://127.0.0.1:9/ws')!.request(SYSTEM_PRINCIPAL, frame('u1'));
    assert.equal(answer.type === 'error' && answer.code, 'busy');
    assert.equal(answer.type === 'error' && answer.retryAfterMs, 250);
    assert.match(answer.type === 'error' ? answer.message : '', /cannot be reached/);
  });
});

describe('joinCluster options and the health check', () => {
  const base = {
    db: { query: () => Promise.reject(new Error('unused')) },
    host: { hasSession: () => false },
    store: {},
    unload: () => {},
    url: 'ws://x/ws',
  };
  it('refuses a short secret and an expiry under three heartbeats', () => {
    assert.throws(() => new ClusterNode({ ...base, secret: 'short' }), /`secret` must be a string of at least 16 characters/);
    assert.throws(() => new ClusterNode({ ...base, secret: SECRET, heartbeatMs: 500, expiryMs: 1_000 }), /at least three heartbeats/);
  });

  it('answers /healthz 200 ok while serving, 503 with the reason otherwise', async (t) => {
    let problem: string | null = null;
    const server = createDemoHttpServer(
      '/nonexistent',
      () => '127.0.0.1',
      undefined,
      () => problem,
    );
    t.after(() => (server.closeAllConnections(), new Promise((r) => server.close(r))));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/healthz`;
    const ok = await fetch(url);
    assert.deepEqual([ok.status, await ok.text()], [200, 'ok']);
    problem = 'database unreachable';
    const down = await fetch(url);
    assert.deepEqual([down.status, await down.text()], [503, 'not serving: database unreachable']);
  });
});
