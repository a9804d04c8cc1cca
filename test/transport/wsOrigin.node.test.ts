import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import { canonicalHost, servedHosts } from '../../transport/ws/origin.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { createFakeHost } from './fakeHost.js';
import { closeWhenDone } from '../closeWhenDone.js';

/** Opens a socket with these headers: 'open', or the HTTP status of the refused upgrade. */
function upgrade(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', reject);
  });
}

/** Writes raw request text to the port and resolves with the status line of the answer. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => (data += String(chunk)));
    socket.on('end', () => resolve(data.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

/** A plain GET with a chosen Host header (fetch will not send one). */
function get(port: number, path: string, host: string): Promise<{ status: number; csp: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, csp: String(res.headers['content-security-policy'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WebSocket server: Origin and Host at the upgrade', () => {
  it('allows its own origin and no Origin (not a browser); refuses other origins with 403', async (t) => {
    const server = await createWebSocketServer({ allowAnonymous: true, host: createFakeHost(), port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const url = `ws://127.0.0.1:${server.port}`;
    assert.equal(await upgrade(url, { Origin: `http://127.0.0.1:${server.port}` }), 'open');
    assert.equal(await upgrade(url, { Origin: `http://localhost:${server.port}`, Host: `localhost:${server.port}` }), 'open');
    assert.equal(await upgrade(url, {}), 'open');
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${server.port + 1}`,
      'null',
      `http://127.0.0.1:${server.port}.evil.example`,
    ]) {
      assert.equal(await upgrade(url, { Origin: origin }), 403, origin);
    }
    assert.equal((await get(server.port, '/', `127.0.0.1:${server.port}`)).status, 426, 'a plain HTTP request');
  });

  it('refuses a malformed Host or one it does not serve (DNS rebinding) with 400', async (t) => {
    const server = await createWebSocketServer({ allowAnonymous: true, host: createFakeHost(), port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const url = `ws://127.0.0.1:${server.port}`;
    for (const host of ['x; script-src *', `evil.example:${server.port}`, '127.0.0.1:99999', 'a b', '[zz::1]:80']) {
      assert.equal(await upgrade(url, { Host: host, Origin: `http://${host}` }), 400, host);
    }
  });

  it('takes allowedOrigins and allowedHosts', async (t) => {
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host: createFakeHost(),
      port: 0,
      heartbeatMs: 0,
      allowedOrigins: ['https://app.example'],
      allowedHosts: ['chat.example'],
    });
    closeWhenDone(t, server);
    const url = `ws://127.0.0.1:${server.port}`;
    assert.equal(await upgrade(url, { Host: 'chat.example', Origin: 'https://app.example' }), 'open');
    assert.equal(await upgrade(url, { Host: 'Chat.Example', Origin: 'https://chat.example' }), 403, 'the list replaces the default');
    assert.equal(await upgrade(url, { Host: 'other.example', Origin: 'https://app.example' }), 400);
  });

  it('answers an upgrade whose target is not a URL with 400 and keeps serving', async (t) => {
    const server = await createWebSocketServer({ allowAnonymous: true, host: createFakeHost(), port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const upgradeHeaders =
      'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==';
    assert.equal(
      await rawRequest(server.port, `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${upgradeHeaders}\r\n\r\n`),
      'HTTP/1.1 400 Bad Request',
    );
    assert.equal(await upgrade(`ws://127.0.0.1:${server.port}`, {}), 'open');
  });

  it("takes '*' for any well-formed Host and any Origin", async (t) => {
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host: createFakeHost(),
      port: 0,
      heartbeatMs: 0,
      allowedOrigins: '*',
      allowedHosts: '*',
    });
    closeWhenDone(t, server);
    const url = `ws://127.0.0.1:${server.port}`;
    assert.equal(await upgrade(url, { Host: 'anything.example', Origin: 'https://elsewhere.example' }), 'open');
    assert.equal(await upgrade(url, { Host: 'bad host' }), 400, 'still a strict grammar');
  });

  it('serves its listening address and localhost, without the port on 80/443', () => {
    assert.deepEqual([...servedHosts({ address: '127.0.0.1', port: 8787 })].sort(), ['127.0.0.1:8787', 'localhost:8787']);
    assert.deepEqual([...servedHosts({ address: '::1', port: 80 })].sort(), ['[::1]', '[::1]:80', 'localhost', 'localhost:80']);
    assert.deepEqual([...servedHosts({ address: '10.1.2.3', port: 443 })].sort(), ['10.1.2.3', '10.1.2.3:443']);
  });

  it('reads Host with a strict host[:port] grammar', () => {
    assert.equal(canonicalHost('LocalHost:8787'), 'localhost:8787');
    assert.equal(canonicalHost('[::1]:80'), '[::1]:80');
    for (const bad of [
      undefined,
      '',
      'x; script-src *',
      'a:0',
      'a:65536',
      'a:',
      ':80',
      '-a.example',
      'a..b',
      'a/b',
      '[::1',
      'h\u00e9.example',
    ]) {
      assert.equal(canonicalHost(bad), null, String(bad));
    }
  });
});

describe('demo server: Host and Origin over real HTTP', () => {
  let root: string;
  let server: DemoServer;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'demo-origin-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
    server = await startDemoServer({ root, store: 'memory', inspectHost: true });
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers a bad Host with 400 before using it, and puts a served one in the CSP', async () => {
    const injected = await get(server.port, '/', 'x; script-src *');
    assert.equal(injected.status, 400);
    assert.ok(!injected.csp.includes('script-src *'), injected.csp);
    assert.equal((await get(server.port, '/', `attacker.example:${server.port}`)).status, 400);
    const ok = await get(server.port, '/', `localhost:${server.port}`);
    assert.equal(ok.status, 200);
    assert.ok(ok.csp.includes(`connect-src 'self' ws://localhost:${server.port} wss://localhost:${server.port}`), ok.csp);
  });

  it('answers a request target that is not a URL with 400, for pages and upgrades, and keeps serving', async () => {
    const host = `127.0.0.1:${server.port}`;
    assert.equal(
      await rawRequest(server.port, `GET //[ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      'HTTP/1.1 400 Bad Request',
    );
    const upgradeHeaders =
      'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==';
    assert.equal(
      await rawRequest(server.port, `GET //[ HTTP/1.1\r\nHost: ${host}\r\n${upgradeHeaders}\r\n\r\n`),
      'HTTP/1.1 400 Bad Request',
    );
    assert.equal((await get(server.port, '/', host)).status, 200);
  });

  it('refuses /ws and /inspect upgrades from another origin (403) or with a bad Host (400)', async () => {
    for (const path of ['/ws', '/inspect']) {
      const url = `ws://127.0.0.1:${server.port}${path}`;
      assert.equal(await upgrade(url, { Origin: 'http://evil.example' }), 403, path);
      assert.equal(await upgrade(url, { Host: `evil.example:${server.port}`, Origin: `http://evil.example:${server.port}` }), 400, path);
      // The demo's sockets also need the identity cookie (what the page's first GET sets).
      assert.equal(await upgrade(url, { Origin: `http://127.0.0.1:${server.port}` }), 401, 'no identity');
      const cookie = (await fetch(`http://127.0.0.1:${server.port}/`)).headers.get('set-cookie')!.split(';')[0]!;
      assert.equal(await upgrade(url, { Origin: `http://127.0.0.1:${server.port}`, Cookie: cookie }), 'open', path);
    }
  });
});
