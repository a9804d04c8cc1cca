// The demo's HTTP server tried as an attacker would (issue 37): one address holds at most 128
// connections, and a request whose headers never finish is cut off.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { startDemoServer } from '../../demo/app.js';
import { DEMO_HTTP_LIMITS } from '../../demo/http.js';
import { ensurePanelBuilt } from '../mcp/helpers.js';

async function demo(t: TestContext, httpLimits = {}) {
  const data = mkdtempSync(join(tmpdir(), 'ts-doors-http-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const server = await startDemoServer({ root: data, store: 'memory', dataDir: data, httpLimits });
  t.after(() => server.close());
  return server;
}

const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

/** Everything the server sends on `socket` until it closes it. */
const answer = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.once('close', () => resolve(text));
  });

test('one address holds 128 connections; the 129th is answered 429 and closed', async (t) => {
  const server = await demo(t);
  const held: Socket[] = [];
  t.after(() => held.forEach((s) => s.destroy()));
  for (let i = 0; i < 128; i++) held.push(await open(server.port));
  const late = await open(server.port);
  const text = 'too-many-connections: this address already holds 128 connections (at most 128)';
  assert.equal(
    await answer(late),
    `HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
  );
  held.pop()!.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const again = await open(server.port);
  again.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
  assert.match(await answer(again), /^HTTP\/1\.1 200 OK/, 'a freed slot is taken again');
});

test('a request whose headers do not arrive within headersTimeoutMs is answered 408 and closed', async (t) => {
  const server = await demo(t, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
  const slow = await open(server.port);
  slow.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
  assert.match(await answer(slow), /^HTTP\/1\.1 408 Request Timeout/);
});

test('a request not whole within requestTimeoutMs is answered 408 and closed; the defaults are 128, 10 s and 30 s', async (t) => {
  await ensurePanelBuilt(); // else /mcp answers 503 at once, body unread
  assert.deepEqual(DEMO_HTTP_LIMITS, {
    connectionsPerAddress: 128,
    connections: 10_000,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
  });
  const server = await demo(t, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
  const { cookie } = server.identities.issue();
  const slow = await open(server.port);
  // `/mcp` reads its body within 10 s itself: the server's own deadline for the whole request is first.
  slow.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nCookie: ${cookie.name}=${cookie.value}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
  );
  assert.match(await answer(slow), /^HTTP\/1\.1 408 Request Timeout/);
});
