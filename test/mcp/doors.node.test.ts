// `/mcp` tried as an attacker would (issue 37): every request is a principal's, bounded in body size,
// time, nesting and requests in flight, and a panel answers only the principal who showed it.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it, type TestContext } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startDemoServer } from '../../demo/app.js';
import { APPS, ensurePanelBuilt, httpClient, httpServer, smallModel, textOf } from './helpers.js';

before(ensurePanelBuilt, { timeout: 180_000 });

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const byHeader = { authenticate: (r: { headers: Record<string, unknown> }) => ({ id: String(r.headers['x-who']), name: 'x' }) };
const error = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

async function demo(t: TestContext) {
  const data = mkdtempSync(join(tmpdir(), 'ts-doors-mcp-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const server = await startDemoServer({ root: data, store: 'memory', dataDir: data });
  t.after(() => server.close());
  return { server, url: new URL('/mcp', server.url) };
}

/** A client as one demo identity, by its cookie or its bearer token. */
async function person(t: TestContext, server: Awaited<ReturnType<typeof demo>>['server'], url: URL, how: 'cookie' | 'bearer' = 'cookie') {
  const { cookie } = server.identities.issue();
  const headers: Record<string, string> =
    how === 'cookie' ? { cookie: `${cookie.name}=${cookie.value}` } : { authorization: `Bearer ${cookie.value}` };
  return httpClient(t, url, APPS, headers);
}

const view = (client: Client, args: Record<string, unknown>) => client.callTool({ name: 'task_surface_view', arguments: args });

/** A POST whose body is sent in part and never finished; resolves with the answer when one comes. */
function unfinished(url: URL, who: string, total: number): { answer: Promise<{ status: number; body: string }>; abort(): void } {
  let req: ReturnType<typeof request>;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = request(url, { method: 'POST', headers: { ...HEADERS, 'x-who': who, 'content-length': String(total) } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write('{"jsonrpc":"2.0",');
  });
  answer.catch(() => undefined);
  return { answer, abort: () => req.destroy() };
}

describe('/mcp on the demo server', () => {
  it("a panel's viewUUID answers nothing for anyone but the person who showed it", async (t) => {
    const { server, url } = await demo(t);
    const alice = await person(t, server, url);
    const mallory = await person(t, server, url, 'bearer');
    const shown = await alice.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
    const viewId = (shown._meta as { viewUUID: string }).viewUUID;
    const unknown = { status: 'unknown' };
    assert.deepEqual((await view(mallory, { action: 'read', viewId })).structuredContent, unknown);
    const submit = { action: 'submit', viewId, submissionId: 'sub-m', values: { db: 'pg', why: 'mine now' } };
    assert.deepEqual((await view(mallory, submit)).structuredContent, unknown);
    assert.deepEqual((await view(mallory, { action: 'dismiss', viewId, dismissalId: 'dis-m' })).structuredContent, unknown);
    assert.equal(((await view(alice, { action: 'read', viewId })).structuredContent as { status: string }).status, 'open', 'untouched');
    const answered = await view(alice, { ...submit, submissionId: 'sub-a', values: { db: 'pg', why: 'joins' } });
    assert.equal((answered.structuredContent as { status: string }).status, 'submitted');
  });

  it('a panel is a session of the person who showed it; 30 a minute, the 31st refused in words', async (t) => {
    const { server, url } = await demo(t);
    const { cookie } = server.identities.issue();
    const client = await httpClient(t, url, {}, { cookie: `${cookie.name}=${cookie.value}` });
    for (let i = 0; i < 30; i++) {
      const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
      assert.equal(shown.isError, undefined, `show ${i + 1} is served`);
    }
    const refused = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
    assert.equal(refused.isError, true);
    assert.match(
      textOf(refused),
      /^quota-exceeded: this principal showed 30 panels in the last minute \(at most 30\); show again in [12] s$/,
    );
  });

  it('refuses a body over 1 MiB with 413 and reads one of exactly 1 MiB', async (t) => {
    const { server, url } = await demo(t);
    const { cookie } = server.identities.issue();
    const headers = { ...HEADERS, cookie: `${cookie.name}=${cookie.value}` };
    const over = await fetch(url, { method: 'POST', headers, body: 'x'.repeat(1024 * 1024 + 1) });
    assert.deepEqual(
      { status: over.status, body: await over.json() },
      { status: 413, body: error(-32000, 'Request body larger than 1048576 bytes') },
    );
    const at = await fetch(url, { method: 'POST', headers, body: JSON.stringify('x'.repeat(1024 * 1024 - 2)) });
    await at.text();
    assert.notEqual(at.status, 413);
  });
});

describe('the MCP HTTP handler under attack', () => {
  it('answers 0.2 MiB of nested arrays with a JSON-RPC error, and 64 levels are read', async (t) => {
    const { url } = await httpServer(t, undefined, byHeader);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const refused = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': 'm' }, body: deep });
    assert.deepEqual(
      { status: refused.status, body: await refused.json() },
      { status: 400, body: error(-32600, 'Invalid Request: the body nests arrays and objects deeper than 64') },
    );
    const edge = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': 'm' }, body: '['.repeat(64) + ']'.repeat(64) });
    const answer = (await edge.json()) as { error?: { message: string } };
    assert.doesNotMatch(answer.error?.message ?? '', /deeper/, '64 levels pass the depth check');
    const over = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': 'm' }, body: '['.repeat(65) + ']'.repeat(65) });
    assert.equal(
      ((await over.json()) as { error: { message: string } }).error.message,
      'Invalid Request: the body nests arrays and objects deeper than 64',
    );
  });

  it("counts each panel as a session of its shower: the 201st is refused with the Host's quota", async (t) => {
    const { url } = await httpServer(t, undefined, { ...byHeader, showsPerMinute: Infinity });
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-who': 'p' } } });
    const client = new Client({ name: 'p', version: '1' }, { capabilities: APPS });
    await client.connect(transport);
    t.after(() => client.close());
    for (let i = 0; i < 200; i++) {
      const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
      assert.equal(shown.isError, undefined, `panel ${i + 1}`);
    }
    const refused = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
    assert.deepEqual(
      { isError: refused.isError, text: textOf(refused) },
      { isError: true, text: 'quota-exceeded: this principal already owns 200 sessions (at most 200)' },
    );
  });

  it('answers a body not finished within bodyTimeoutMs with 408', async (t) => {
    const { url } = await httpServer(t, undefined, { ...byHeader, bodyTimeoutMs: 200 });
    const slow = unfinished(url, 'm', 1000);
    t.after(() => slow.abort());
    const { status, body } = await slow.answer;
    assert.deepEqual({ status, body: JSON.parse(body) }, { status: 408, body: error(-32000, 'Request body not received within 200 ms') });
  });

  it('serves 32 requests of one principal at once; the 33rd gets 429, another principal is served', async (t) => {
    const { url } = await httpServer(t, undefined, { ...byHeader, bodyTimeoutMs: 60_000 });
    const held = Array.from({ length: 32 }, () => unfinished(url, 'm', 1000));
    t.after(() => held.forEach((h) => h.abort()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': 'm' }, body: '{}' });
    assert.deepEqual(
      { status: refused.status, body: await refused.json() },
      {
        status: 429,
        body: error(-32000, 'Too many requests: this principal already has 32 requests in flight (at most 32); finish one first'),
      },
    );
    const other = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': 'someone' }, body: '{}' });
    await other.text();
    assert.notEqual(other.status, 429);
  });

  it('ends a tool call waiting for an elicitation when its session is closed', async (t) => {
    // Two slots: the session's event stream and the call waiting for the answer.
    const { url } = await httpServer(t, undefined, { ...byHeader, maxInFlightPerPrincipal: 2 });
    const probe = async () => {
      const answer = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': 'm' }, body: '{}' });
      await answer.text();
      return answer.status;
    };
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-who': 'm' } } });
    const client = new Client({ name: 'm', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    // The person never answers.
    client.setRequestHandler('elicitation/create', () => (asked(), new Promise(() => undefined)));
    await client.connect(transport);
    t.after(() => client.close());
    const call = client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } }, { timeout: 60_000 });
    call.catch(() => undefined);
    await wasAsked;
    assert.equal(await probe(), 429, 'the waiting call holds its slot');
    await transport.terminateSession();
    // The call ends with its session instead of waiting 30 minutes for an answer nobody can give now.
    let status = 429;
    for (let i = 0; i < 50 && status === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await probe();
    }
    assert.notEqual(status, 429, 'its slot is free again');
  });
});
