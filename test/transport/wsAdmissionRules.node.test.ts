// Who gets a socket, tried as a hostile client would: crafted Host and Origin headers, sockets
// opened and closed to game the per-principal count, a server bound to a wildcard, a non-loopback
// address or a Unix socket. (The mutation run over transport/ws/origin.ts and admission.ts found
// these rules unpinned; docs/mutation.md.)
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type NetConnectOpts } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { createWebSocketServer, type WebSocketServerOptions } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';

/** An upgrade with exactly these headers: the status line and body of the answer ('101' once open). */
function upgrade(to: NetConnectOpts, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const lines = Object.entries({
      Upgrade: 'websocket',
      Connection: 'Upgrade',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version': '13',
      ...headers,
    }).map(([k, v]) => `${k}: ${v}`);
    const socket = connect(to, () => socket.write(`GET /ws HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
      if (text.startsWith('HTTP/1.1 101')) socket.destroy();
    });
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body });
    });
    socket.on('error', reject);
  });
}

async function server(t: TestContext, options: Partial<WebSocketServerOptions> = {}) {
  const s = await createWebSocketServer({ host: createFakeHost(), allowAnonymous: true, heartbeatMs: 0, ...options });
  closeWhenDone(t, s);
  return s;
}
const at = (port: number, host = '127.0.0.1') => ({ port, host });

describe('the Host header', () => {
  it('refuses one over 300 characters, even with any Host allowed', async (t) => {
    const s = await server(t, { allowedHosts: '*' });
    const label = 'a'.repeat(60);
    const long = [label, label, label, label, label].join('.'); // 304 characters, each label valid
    assert.equal((await upgrade(at(s.port), { Host: long })).status, 400);
    assert.equal((await upgrade(at(s.port), { Host: long.slice(0, 300) })).status, 101, '300 are fine');
  });

  it('takes ports 1 to 65535 only, and a bracketed host only when it is an IPv6 address', async (t) => {
    const s = await server(t, { allowedHosts: '*' });
    const status = async (Host: string) => (await upgrade(at(s.port), { Host })).status;
    assert.deepEqual(
      [
        await status('example.test:0'),
        await status('example.test:1'),
        await status('example.test:65535'),
        await status('example.test:65536'),
      ],
      [400, 101, 101, 400],
    );
    assert.equal(await status('[::::]'), 400, 'brackets around something that is not an address');
    assert.equal(await status('[::1]:8080'), 101);
  });

  it('on a wildcard bind, serves every interface address and localhost', async (t) => {
    const s = await server(t, { port: 0, listenHost: '0.0.0.0' });
    assert.equal((await upgrade(at(s.port), { Host: `127.0.0.1:${s.port}` })).status, 101);
    assert.equal((await upgrade(at(s.port), { Host: `localhost:${s.port}` })).status, 101);
    assert.equal((await upgrade(at(s.port), { Host: `rebound.example:${s.port}` })).status, 400);
  });

  it('on an IPv6 wildcard bind, serves [::1] and localhost', async (t) => {
    const s = await server(t, { port: 0, listenHost: '::' });
    assert.equal((await upgrade(at(s.port, '::1'), { Host: `[::1]:${s.port}` })).status, 101);
    assert.equal((await upgrade(at(s.port, '::1'), { Host: `localhost:${s.port}` })).status, 101);
  });

  it('on a non-loopback address, does not answer to localhost', async (t) => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((i) => i?.family === 'IPv4' && !i.internal)?.address;
    if (address === undefined) return t.skip('this machine has no non-loopback IPv4 address');
    const s = await server(t, { port: 0, listenHost: address });
    assert.equal((await upgrade(at(s.port, address), { Host: `${address}:${s.port}` })).status, 101);
    assert.equal((await upgrade(at(s.port, address), { Host: `localhost:${s.port}` })).status, 400);
  });

  it('on any loopback address (127.0.0.2 too), answers to localhost', async (t) => {
    const s = await server(t, { port: 0, listenHost: '127.0.0.2' });
    assert.equal((await upgrade(at(s.port, '127.0.0.2'), { Host: `localhost:${s.port}` })).status, 101);
  });

  it('on a Unix socket, serves only the listed hosts and keeps serving', async (t) => {
    const path = join(tmpdir(), `ts-ws-${process.pid}-${Date.now()}.sock`);
    const http = createServer();
    await new Promise<void>((resolve) => http.listen(path, resolve));
    t.after(() => new Promise((resolve) => http.close(resolve)));
    await server(t, { server: http, allowedHosts: ['app.internal'] });
    assert.equal((await upgrade({ path }, { Host: 'app.internal' })).status, 101);
    assert.equal((await upgrade({ path }, { Host: 'localhost' })).status, 400);
  });
});

describe('the Origin header', () => {
  it("allows the server's own origin over https too (behind a TLS proxy)", async (t) => {
    const s = await server(t);
    const Host = `127.0.0.1:${s.port}`;
    assert.equal((await upgrade(at(s.port), { Host, Origin: `https://${Host}` })).status, 101);
    assert.equal((await upgrade(at(s.port), { Host, Origin: `http://${Host}` })).status, 101);
    assert.equal((await upgrade(at(s.port), { Host, Origin: `https://evil.example` })).status, 403);
  });

  it('allows any one of several listed origins', async (t) => {
    const s = await server(t, { allowedOrigins: ['https://a.example', 'https://B.example'] });
    const Host = `127.0.0.1:${s.port}`;
    assert.equal((await upgrade(at(s.port), { Host, Origin: 'https://b.example' })).status, 101);
    assert.equal((await upgrade(at(s.port), { Host, Origin: 'https://a.example' })).status, 101);
    assert.equal((await upgrade(at(s.port), { Host, Origin: 'https://c.example' })).status, 403);
  });
});

/**
 * A server with `maxFragmentedMs` and a client that has sent the first fragment of a message;
 * `roundTrip()` resolves 'open' (a ping answered) or the close code if the socket closed first.
 */
async function fragmentSent(t: TestContext, maxFragmentedMs: number) {
  const s = await server(t, { maxFragmentedMs });
  const socket = new WebSocket(`ws://127.0.0.1:${s.port}`);
  t.after(() => socket.terminate());
  await new Promise((resolve) => socket.once('open', resolve));
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  const roundTrip = () =>
    Promise.race([closed, new Promise<'open'>((resolve) => (socket.once('pong', () => resolve('open')), socket.ping()))]);
  socket.send('{"id":"p1",', { fin: false });
  return { server: s, socket, roundTrip };
}

describe('unfinished messages', () => {
  it('with maxFragmentedMs 2 s, checks every 0.5 s: closed 2 to 2.5 s after the first fragment', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const { roundTrip } = await fragmentSent(t, 2_000);
    assert.equal(await roundTrip(), 'open');
    t.mock.timers.tick(500); // the first check that sees it
    t.mock.timers.tick(1_999);
    assert.equal(await roundTrip(), 'open');
    t.mock.timers.tick(1);
    assert.equal(await roundTrip(), 1008);
  });

  it('checks no more often than every maxFragmentedMs / 4: a fragment first seen at 0.5 s is closed at 2.5 s, not 2.05 s', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const { roundTrip } = await fragmentSent(t, 2_000);
    assert.equal(await roundTrip(), 'open');
    // 50 ms at a time: a check every 50 ms would see the fragment at 50 ms and close it at 2.05 s.
    for (let now = 50; now <= 2_450; now += 50) t.mock.timers.tick(50);
    assert.equal(await roundTrip(), 'open', 'open at 2.45 s');
    t.mock.timers.tick(50);
    assert.equal(await roundTrip(), 1008);
  });

  it('cuts a client that never answers the close 1 s after closing it, not at ws’s 30 s', async (t) => {
    const { server: s, socket } = await fragmentSent(t, 200);
    // The client stops reading: it never sees the server's close frame, so never answers it.
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const started = performance.now();
    while (s.connectionCount > 0 && performance.now() - started < 8_000) await new Promise((r) => setTimeout(r, 25));
    const seconds = (performance.now() - started) / 1000;
    assert.equal(s.connectionCount, 0, 'the connection is gone');
    // Closed at 0.2–0.25 s, cut 1 s later; 8 s of slack for a busy machine, still far from 30 s.
    assert.ok(seconds >= 1.2, `not cut before the second after the close (${seconds.toFixed(2)} s)`);
  });
});

describe('whole messages', () => {
  it('a connection that sends only whole messages is never closed as unfinished', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const s = await server(t);
    const socket = new WebSocket(`ws://127.0.0.1:${s.port}`);
    t.after(() => socket.terminate());
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send('{"id":"p1","type":"ping"}');
    await new Promise((resolve) => socket.once('message', resolve));
    for (let i = 0; i < 60; i++) t.mock.timers.tick(1_000); // a minute of checks, one a second
    const answer = await Promise.race([
      closed,
      new Promise<'open'>((resolve) => (socket.once('pong', () => resolve('open')), socket.ping())),
    ]);
    assert.equal(answer, 'open');
  });
});

describe('connection caps', () => {
  const refusals: string[] = [];
  /** A server that names the principal from `?as=` and counts addresses as `remoteAddress` says. */
  const capped = (t: TestContext, options: Partial<WebSocketServerOptions> = {}) =>
    server(t, {
      allowAnonymous: false,
      authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? 'x' }),
      ...options,
    });
  const open = async (t: TestContext, port: number, as: string) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/?as=${as}`);
    t.after(() => socket.terminate());
    const status = await new Promise<number | 'open'>((resolve) => {
      socket.once('open', () => resolve('open'));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += String(c)));
        res.on('end', () => resolve(res.statusCode === 429 ? (refusals.push(body), 429) : (res.statusCode ?? 0)));
      });
      socket.once('error', () => {});
    });
    return { socket, status };
  };
  it('a closed socket frees exactly one slot: close one of 16, and only one more opens', async (t) => {
    const s = await capped(t);
    const sockets: { socket: WebSocket; status: number | 'open' }[] = [];
    for (let i = 0; i < 16; i++) sockets.push(await open(t, s.port, 'mallory'));
    assert.ok(sockets.every((x) => x.status === 'open'));
    refusals.length = 0;
    assert.equal((await open(t, s.port, 'mallory')).status, 429);
    assert.equal(
      refusals[0],
      'too-many-connections: this principal already holds 16 connections (at most 16); close one first',
      'the refusal compared whole',
    );
    const closed = new Promise((resolve) => sockets[0]!.socket.once('close', resolve));
    sockets[0]!.socket.close();
    await closed;
    for (let i = 0; i < 400 && s.connectionCount > 15; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal((await open(t, s.port, 'mallory')).status, 'open');
    assert.equal((await open(t, s.port, 'mallory')).status, 429, 'not two');
  });

  it('names the per-address cap whole, and does not count an address remoteAddress answers null for', async (t) => {
    const s = await capped(t, { maxConnectionsPerAddress: 2 });
    for (let i = 0; i < 2; i++) assert.equal((await open(t, s.port, `p${i}`)).status, 'open');
    refusals.length = 0;
    assert.equal((await open(t, s.port, 'p2')).status, 429);
    assert.equal(refusals[0], 'too-many-connections: this address already holds 2 connections (at most 2)');
    const uncounted = await capped(t, { maxConnectionsPerAddress: 2, remoteAddress: () => null });
    for (let i = 0; i < 3; i++) assert.equal((await open(t, uncounted.port, `q${i}`)).status, 'open');
  });
});
