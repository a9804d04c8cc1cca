import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { startDemoServer } from '../../demo/app.js';
import { ensurePanelBuilt, httpClient, smallModel } from './helpers.js';

// `npm test` builds the document first; run alone, a file may build it (slow on a busy machine).
before(ensurePanelBuilt, { timeout: 180_000 });

/** A raw POST to `/mcp` with the headers given (Host defaults to the server's). */
function post(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}

test('npm start serves /mcp with the same identity, Host and Origin checks as /ws', async (t) => {
  const data = mkdtempSync(join(tmpdir(), 'ts-demo-mcp-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const server = await startDemoServer({ root: data, store: 'memory', dataDir: data });
  t.after(() => server.close());
  const url = new URL('/mcp', server.url);

  const { cookie } = server.identities.issue();
  // The README's HTTP snippet as written, with the identity's value for its placeholder and this port.
  const readme = readFileSync('README.md', 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('"type": "http"'))!;
  const entry = (JSON.parse(block) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> }).mcpServers[
    'task-surface'
  ]!;
  assert.equal(entry.url, 'http://127.0.0.1:8787/mcp');
  const headers = Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, v.replace('<ts_demo_id>', cookie.value)]));
  const client = await httpClient(t, url, {}, headers);
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === 'show_task_surface'));
  const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  assert.match((shown.content as { text: string }[])[0]!.text, /ask the person in chat/, 'a client without apps gets the text form');

  const anonymous = await post(url, {});
  assert.deepEqual(
    { status: anonymous.status, body: JSON.parse(anonymous.body) },
    {
      status: 401,
      body: { jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized: who is calling is not known; sign in first' }, id: null },
    },
    'a request without an identity is refused before anything is read',
  );
  const foreign = await post(url, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403, 'a page on another origin is refused');
  const rebound = await post(url, { host: `attacker.example:${url.port}` });
  assert.equal(rebound.status, 400, 'a Host the server does not serve is refused (DNS rebinding)');
  const own = await post(url, { origin: `http://127.0.0.1:${url.port}`, cookie: `${cookie.name}=${cookie.value}` });
  // Let in: the SDK answers it (400: a 2025-era tools/list needs a session first), no 401 or 403.
  assert.deepEqual([own.status, JSON.parse(own.body).error.code], [400, -32000], "the demo's own origin is let in");
});
