// `/mcp` under `npm start -- --workers 2` on PostgreSQL, through the round-robin balancer, with every
// request on a connection of its own (so consecutive requests of one client land on alternating
// workers): a 2025 client's session is found on every request, its elicitation answered across
// workers, and its panels read and answered; a 2026-07-28 client reads and answers its own panel
// whichever worker each request reaches; a panel answered by two clients at once stores one message.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { APPS, ensurePanelBuilt, smallModel, textOf } from '../mcp/helpers.js';
import { freshSchema, startWorkersDemo, type WorkersDemo } from './helpers.js';

/** `fetch` over a new TCP connection per request: the balancer gives each to the next worker. */
const freshFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
  new Promise((resolve, reject) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const out = request(url, { method: init?.method ?? 'GET', headers, agent: false }, (res) => {
      const body = res.statusCode === 204 || res.statusCode === 202 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      const back = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') back.set(name, value);
      resolve(new Response(body, { status: res.statusCode ?? 500, headers: back }));
    });
    out.on('error', reject);
    const abort = () => out.destroy();
    init?.signal?.addEventListener('abort', abort, { once: true });
    out.on('close', () => init?.signal?.removeEventListener('abort', abort));
    out.end(typeof init?.body === 'string' ? init.body : undefined);
  });

describe('/mcp under npm start -- --workers 2 (PostgreSQL)', { timeout: 180_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;
  let url: URL;
  let cookie: string;
  const clients: Client[] = [];

  before(async () => {
    await ensurePanelBuilt();
    db = await freshSchema('mcpworkers');
    demo = await startWorkersDemo(db.schema, 2);
    url = new URL(`http://127.0.0.1:${demo.port}/mcp`);
    cookie = (await fetch(`http://127.0.0.1:${demo.port}/`)).headers.get('set-cookie')!.split(';')[0]!;
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await demo?.stop();
    await db?.pool.query(`DROP SCHEMA IF EXISTS "${db.schema}_mcp" CASCADE`);
    await db?.drop();
  });

  const connect = async (capabilities: ClientCapabilities, version?: '2026-07-28') => {
    const client = new Client(
      { name: 'workers-host', version: '1.0.0' },
      { capabilities, ...(version ? { versionNegotiation: { mode: { pin: version } } } : {}) },
    );
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: freshFetch, requestInit: { headers: { Cookie: cookie } } }));
    clients.push(client);
    return client;
  };
  const view = async (client: Client, args: Record<string, unknown>) =>
    (await client.callTool({ name: VIEW_TOOL, arguments: args })).structuredContent as { status: string; submissionId?: string };

  for (const version of [undefined, '2026-07-28'] as const) {
    it(`a ${version ?? '2025'} client's requests on either worker: no "Session not found", no unknown panel`, async () => {
      const client = await connect(APPS, version);
      for (let round = 0; round < 3; round++) {
        const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
        const viewId = (shown._meta as { viewUUID: string }).viewUUID;
        for (let read = 0; read < 3; read++) assert.equal((await view(client, { action: 'read', viewId })).status, 'open');
        const submitted = await view(client, {
          action: 'submit',
          viewId,
          submissionId: `sub_w_${round}`,
          values: { db: 'pg', why: 'shared' },
        });
        assert.equal(submitted.status, 'submitted');
        assert.equal((await view(client, { action: 'read', viewId })).status, 'submitted');
      }
    });
  }

  it('a 2025 elicitation is answered whichever worker the answer reaches', async () => {
    const client = await connect({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { db: 'pg', why: 'because' } }));
    for (let round = 0; round < 2; round++) {
      const answered = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
      assert.match(textOf(answered), /Database: PostgreSQL/);
    }
  });

  it('two clients answer one panel at once: one answer, one user message stored', async () => {
    const a = await connect(APPS);
    const b = await connect(APPS, '2026-07-28');
    const shown = await a.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
    const viewId = (shown._meta as { viewUUID: string }).viewUUID;
    const answer = (client: Client, n: number) =>
      view(client, { action: 'submit', viewId, submissionId: `sub_both_${n}`, values: { db: 'pg', why: `from ${n}` } });
    const [fromA, fromB] = await Promise.all([answer(a, 1), answer(b, 2)]);
    assert.equal(fromA.status, 'submitted');
    assert.equal(fromA.submissionId, fromB.submissionId);
    const { rows } = await db.pool.query(`SELECT body FROM "${db.schema}_mcp".ts_events WHERE session_id = $1`, [viewId]);
    const messages = rows.filter((row) => (JSON.parse(row.body as string) as { type: string }).type === 'user/message');
    assert.equal(messages.length, 1);
  });

  // Last: it kills a worker.
  it('a session whose worker is gone answers 404 Session not found on the other worker', async () => {
    const client = new Client({ name: 'workers-host', version: '1.0.0' }, { capabilities: APPS });
    const transport = new StreamableHTTPClientTransport(url, { fetch: freshFetch, requestInit: { headers: { Cookie: cookie } } });
    await client.connect(transport);
    clients.push(client);
    const sessionId = transport.sessionId!;
    const holder = demo.workers.find((w) => sessionId.startsWith(`${w.workerId}.`));
    const other = demo.workers.find((w) => w !== holder)!;
    assert.ok(holder, `the session id ${sessionId} names its worker`);
    process.kill(holder.pid, 'SIGKILL');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const out = request(
        `http://127.0.0.1:${other.port}/mcp`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            cookie,
            'mcp-session-id': sessionId,
            'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      out.on('error', reject);
      out.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }));
    });
    assert.equal(answer.status, 404, answer.body);
    assert.match(answer.body, /Session not found: the worker that held it has stopped/);
  });
});
