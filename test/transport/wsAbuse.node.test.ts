// What one hostile client cannot do to a WebSocket server with its defaults: hold every socket
// (per principal, per address), or pin memory with messages that never finish (the one limit set
// here, shorter than its 10 s default so that the attack is waited out on a real clock in 1 s; the
// default itself is pinned by test/transport/wsDefaultTimers.node.test.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { until } from './helpers.js';

/** A server whose `authenticate` reads the principal from an `x-user` header (defaults otherwise, but `extra`). */
async function serverOf(extra: { maxFragmentedMs?: number } = {}) {
  const host = createHost({ store: createMemoryStore() });
  const server = await createWebSocketServer({
    host,
    port: 0,
    heartbeatMs: 0,
    ...extra,
    authenticate: (request) => {
      const user = request.headers['x-user'];
      return typeof user === 'string' ? { id: user, name: user } : null;
    },
  });
  after(async () => {
    await server.close();
    await host.dispose();
  });
  return server;
}

/** Opens a socket as `user`: the socket once open, or the refused upgrade's status and body. */
function connect(port: number, user: string): Promise<WebSocket | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers: { 'x-user': user } });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
    socket.once('open', () => resolve(socket));
  });
}

const ping = (socket: WebSocket) =>
  new Promise<unknown>((resolve) => {
    socket.once('message', (data) => resolve((JSON.parse(String(data)) as { result: unknown }).result));
    socket.send('{"id":"p","type":"ping"}');
  });

describe('WebSocket server: connection caps at the upgrade', () => {
  it('gives one principal at most 16 sockets (429 too-many-connections); others still connect', async () => {
    const server = await serverOf();
    const held: WebSocket[] = [];
    after(() => held.forEach((s) => s.terminate()));
    for (let i = 0; i < 16; i++) {
      const socket = await connect(server.port, 'mallory');
      assert.ok(socket instanceof WebSocket, `socket ${i + 1}`);
      held.push(socket);
    }
    const refused = await connect(server.port, 'mallory');
    assert.ok(!(refused instanceof WebSocket));
    assert.equal(refused.status, 429);
    assert.match(refused.body, /^too-many-connections: this principal already holds 16 connections \(at most 16\)/);
    const alice = await connect(server.port, 'alice');
    assert.ok(alice instanceof WebSocket, 'another person is not affected');
    held.push(alice);
    assert.equal(await ping(alice), 'pong');
    held[0]!.close();
    await until(() => server.connectionCount === 16);
    const again = await connect(server.port, 'mallory');
    assert.ok(again instanceof WebSocket, 'a closed socket frees its place');
    held.push(again);
  });

  it('gives one address at most 64 sockets, whatever principals it claims', async () => {
    const server = await serverOf();
    const held: WebSocket[] = [];
    after(() => held.forEach((s) => s.terminate()));
    for (let i = 0; i < 64; i++) {
      const socket = await connect(server.port, `identity-${i}`);
      assert.ok(socket instanceof WebSocket, `socket ${i + 1}`);
      held.push(socket);
    }
    const refused = await connect(server.port, 'identity-new');
    assert.ok(!(refused instanceof WebSocket));
    assert.equal(refused.status, 429);
    assert.match(refused.body, /^too-many-connections: this address already holds 64 connections/);
    // Refused before authentication: an unknown user from that address is told the same.
    const anonymous = await connect(server.port, '');
    assert.ok(!(anonymous instanceof WebSocket) && anonymous.status === 429);
  });
});

describe('WebSocket server: messages that never finish', () => {
  it('closes a socket whose fragmented message stays unfinished past its deadline (1008); others go on', async () => {
    const maxFragmentedMs = 1_000;
    const server = await serverOf({ maxFragmentedMs });
    const attacker = await connect(server.port, 'mallory');
    const alice = await connect(server.port, 'alice');
    assert.ok(attacker instanceof WebSocket && alice instanceof WebSocket);
    after(() => [attacker, alice].forEach((s) => s.terminate()));
    const started = Date.now();
    const closed = new Promise<number>((resolve) => attacker.once('close', (code) => resolve(code)));
    // A text frame without FIN, then continuations, never the last one. The pings keep it "alive".
    attacker.send('{"id":"x","type":"ping","pad":"', { fin: false });
    const drip = setInterval(() => attacker.readyState === WebSocket.OPEN && attacker.send('xxxx', { fin: false }), 100);
    after(() => clearInterval(drip));
    assert.equal(await closed, 1008);
    const took = Date.now() - started;
    assert.ok(took >= maxFragmentedMs - 100 && took < maxFragmentedMs + 3_000, `closed after ${took} ms`);
    assert.equal(await ping(alice), 'pong');
  });

  it('reads messages up to 320 KiB (256 KiB accepted, the rest answered too-large); a larger one closes (1009)', async () => {
    const server = await serverOf();
    const socket = await connect(server.port, 'mallory');
    assert.ok(socket instanceof WebSocket);
    after(() => socket.terminate());
    const answer = new Promise<{ code?: string }>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
    socket.send(`{"id":"big","type":"ping","pad":"${'x'.repeat(300 * 1024)}"}`);
    assert.equal((await answer).code, 'too-large');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    // In fragments too: ws counts a message's fragments together.
    socket.send(`{"id":"huge","type":"ping","pad":"${'x'.repeat(200 * 1024)}`, { fin: false });
    socket.send('x'.repeat(200 * 1024), { fin: false });
    assert.equal(await closed, 1009);
  });
});
