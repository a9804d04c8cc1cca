import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { SYSTEM_PRINCIPAL } from '../../protocol/index.js';
import { encodePrincipal, Peers, PRINCIPAL_HEADER, SECRET_HEADER } from '../../transport/cluster/peers.js';
import { ClusterNode } from '../../transport/cluster/node.js';
import { createDemoHttpServer } from '../../demo/http.js';
import { SECRET } from './helpers.js';

/** A stand-in owner: records upgrades, answers nothing unless told. */
async function fakeOwner() {
  const wss = new WebSocketServer({ port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const upgrades: IncomingMessage[] = [];
  const sockets: WebSocket[] = [];
  wss.on('connection', (socket, request) => {
    upgrades.push(request);
    sockets.push(socket);
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`,
    upgrades,
    sockets,
    close: () => new Promise((r) => wss.close(r)),
  };
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

  it('carries the secret and the principal (host code as a flag, never its id) in the upgrade', async () => {
    const answer = await peers.connection(owner.url, SYSTEM_PRINCIPAL)!.request(frame('a1'));
    assert.equal(answer.type, 'error');
    const request = owner.upgrades[0]!;
    assert.equal(request.headers[SECRET_HEADER], SECRET);
    assert.equal(request.headers[PRINCIPAL_HEADER], encodePrincipal(SYSTEM_PRINCIPAL));
    assert.deepEqual(JSON.parse(Buffer.from(encodePrincipal(SYSTEM_PRINCIPAL), 'base64url').toString()), { system: true });
    assert.deepEqual(JSON.parse(Buffer.from(encodePrincipal({ id: 'system' }), 'base64url').toString()), { principal: { id: 'system' } });
  });

  it('answers busy (retry with the same id) when the owner does not answer within the timeout', async () => {
    const answer = await peers.connection(owner.url, SYSTEM_PRINCIPAL)!.request(frame('t1'));
    assert.deepEqual(answer, {
      type: 'error',
      id: 't1',
      code: 'busy',
      message: 'the process serving session "s1" did not answer within 100 ms; retry in 250 ms',
      retryAfterMs: 250,
    });
  });

  it('answers busy past maxInFlight on one connection, and joins a retry of a request still on its way', async () => {
    const connection = peers.connection(owner.url, { id: 'u1' })!;
    const first = connection.request(frame('f1'));
    const again = connection.request(frame('f1'));
    const second = connection.request(frame('f2'));
    const third = await connection.request(frame('f3'));
    assert.equal(third.type === 'error' && third.code, 'busy');
    assert.match(third.type === 'error' ? third.message : '', /2 forwarded requests are waiting/);
    assert.equal(await first, await again);
    await second;
  });

  it('opens at most maxConnections, closing an idle one to make room, else none', async () => {
    const busy = new Peers(SECRET, { ...limits, timeoutMs: 5_000 });
    const a = busy.connection(owner.url, { id: 'a' })!;
    const b = busy.connection(owner.url, { id: 'b' })!;
    const waiting = [a.request(frame('x1')), b.request(frame('x2'))];
    assert.equal(busy.connection(owner.url, { id: 'c' }), null, 'every connection is busy: no room');
    busy.close();
    await Promise.all(waiting);
    const idle = new Peers(SECRET, limits);
    idle.connection(owner.url, { id: 'a' });
    idle.connection(owner.url, { id: 'b' });
    assert.ok(idle.connection(owner.url, { id: 'c' }), 'an idle connection made room');
    assert.equal(idle.size, 2);
    idle.close();
  });

  it('answers busy (retry) when the owner cannot be reached', async () => {
    const answer = await peers.connection('ws://127.0.0.1:9/ws', SYSTEM_PRINCIPAL)!.request(frame('u1'));
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

  it('answers /healthz 200 ok while serving, 503 with the reason otherwise', async () => {
    let problem: string | null = null;
    const server = createDemoHttpServer(
      '/nonexistent',
      () => '127.0.0.1',
      undefined,
      () => problem,
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/healthz`;
    const ok = await fetch(url);
    assert.deepEqual([ok.status, await ok.text()], [200, 'ok']);
    problem = 'database unreachable';
    const down = await fetch(url);
    assert.deepEqual([down.status, await down.text()], [503, 'not serving: database unreachable']);
    server.close();
  });
});
