// A single `npm start` behind another balancer (issue 37, docs/cluster.md): TASK_SURFACE_PROXY_PORT
// takes the PROXY protocol (from TASK_SURFACE_PROXY_FROM, default loopback), and a bad
// TASK_SURFACE_TRUSTED_PROXIES entry stops the start, named.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const server = fileURLToPath(new URL('../../demo/server.ts', import.meta.url));

/** `npm start` with `env`; its output so far, and its exit. */
function start(t: TestContext, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'task-surface-proxy-env-'));
  const child = spawn(process.execPath, [...TSX_IMPORT, server], {
    env: {
      ...process.env,
      PORT: '0',
      TASK_SURFACE_STORE: 'memory',
      TASK_SURFACE_DATA_DIR: join(dir, '.data'),
      DATABASE_URL: '',
      TASK_SURFACE_DEMO_OUT: join(dir, 'out'),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

it('a bad TASK_SURFACE_TRUSTED_PROXIES entry stops the start with exit 2, named', async (t) => {
  const demo = start(t, { TASK_SURFACE_TRUSTED_PROXIES: '10.0.0.0/8, example.com' });
  assert.equal(await demo.exited, 2, demo.output());
  assert.match(demo.output(), /trustedProxies: "example.com" is not an IP address or a CIDR/);
});

it('TASK_SURFACE_PROXY_PORT takes PROXY-protocol connections; one without a header is closed', { timeout: 180_000 }, async (t) => {
  const free = createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const port = (free.address() as { port: number }).port;
  await new Promise((resolve) => free.close(resolve));
  const demo = start(t, { TASK_SURFACE_PROXY_PORT: String(port) });
  const deadline = Date.now() + 170_000;
  while (!demo.output().includes('Ctrl+C')) {
    assert.ok(Date.now() < deadline, demo.output());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(demo.output(), new RegExp(`PROXY protocol on port ${port} `));
  const exchange = (data: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
      socket.write(data);
    });
  // The Host a browser would send: the demo's own address (a public name needs allowedHosts).
  const host = /demo on http:\/\/(127\.0\.0\.1:\d+)\//.exec(demo.output())![1]!;
  const get = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  assert.match(await exchange(`PROXY TCP4 203.0.113.5 127.0.0.1 40000 ${port}\r\n${get}`), /^HTTP\/1.1 200 /);
  assert.equal(await exchange(get), '', 'no PROXY header: closed without a word');
});
