import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { everyKindModel } from '../../fixtures/models.js';
import { elicitationOf } from '../../mcp/elicitation.js';
import { parseTaskSurfaceModel } from '../../protocol/index.js';
import { ensurePanelBuilt, httpClient, httpServer, smallModel, stdioClient, textOf } from './helpers.js';

// `npm test` builds the document first; run alone, a file may build it (slow on a busy machine).
before(ensurePanelBuilt, { timeout: 180_000 });

type Reply = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

test('a client that declares only form elicitation: accept, decline and cancel', async (t) => {
  const client = await stdioClient(t, { capabilities: { elicitation: { form: {} } } });
  let reply: Reply = { action: 'cancel' };
  const asked: { message: string; requestedSchema: { properties: Record<string, unknown>; required?: string[] } }[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params as unknown as (typeof asked)[number]);
    return reply as never;
  });
  const call = () => client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });

  reply = { action: 'accept', content: { db: 'sqlite', why: 'one file' } };
  const accepted = await call();
  assert.notEqual(accepted.isError, true);
  assert.equal(textOf(accepted), 'The person answered the panel:\nPick a database\nDatabase: SQLite\nWhy: one file');
  assert.deepEqual(accepted.structuredContent, { status: 'submitted', values: { db: 'sqlite', why: 'one file' } });
  const form = asked[0]!;
  assert.match(form.message, /Pick a database[\s\S]*For the \*\*reports\*\* service[\s\S]*Note: Both are supported/);
  assert.deepEqual(form.requestedSchema.properties['db'], {
    type: 'string',
    title: 'Database',
    oneOf: [
      { const: 'pg', title: 'PostgreSQL' },
      { const: 'sqlite', title: 'SQLite' },
    ],
  });
  assert.deepEqual(form.requestedSchema.required, ['why']);

  reply = { action: 'decline' };
  assert.equal(textOf(await call()), 'The person declined to answer the panel "Pick a database".');
  reply = { action: 'cancel' };
  assert.equal(textOf(await call()), 'The person closed the panel "Pick a database" without answering.');

  reply = { action: 'accept', content: { db: 'mysql', why: 'x' } };
  const refused = await call();
  assert.equal(refused.isError, true, 'an answer the panel does not allow is not passed on as one');
  assert.match(textOf(refused), /db/);
});

test('a client with neither apps nor elicitation gets the panel as a text form', async (t) => {
  const client = await stdioClient(t, { capabilities: {} });
  const result = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  assert.notEqual(result.isError, true);
  const text = textOf(result);
  assert.match(text, /cannot show the panel, so ask the person in chat/);
  assert.match(text, /- Database \(pick one\):\n {2}- PostgreSQL \[pg\]\n {2}- SQLite \[sqlite\]/);
  assert.match(text, /- Why \(required text\)/);
});

test('an order field has no form: the panel falls back to the text form', async () => {
  const parsed = parseTaskSurfaceModel(everyKindModel());
  assert.ok(parsed.ok);
  assert.equal(elicitationOf(parsed.model), null);
  const withoutOrder = { ...parsed.model, fields: parsed.model.fields.filter((f) => f.kind !== 'order') };
  const form = elicitationOf(withoutOrder)!;
  assert.deepEqual(Object.keys(form.requestedSchema.properties), [
    'env',
    'targets/api',
    'targets/worker',
    'targets/web',
    'migrate',
    'reason',
    'ticket',
  ]);
  assert.match(form.message, /\| Service \| p95 \(ms\) \| Healthy \|/, 'a table becomes a markdown table in the message');
  assert.match(form.message, /Before \(config\/deploy\.yaml\):\nreplicas: 2/, 'a diff becomes text');
});

test('over Streamable HTTP: a 2025 client elicits on its session, a 2026-07-28 client through input_required', async (t) => {
  const { url } = await httpServer(t);
  const legacy = await httpClient(t, url, { elicitation: { form: {} } });
  legacy.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { db: 'pg', why: 'because' } }));
  const first = await legacy.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  assert.match(textOf(first), /Database: PostgreSQL/);

  const modern = new Client(
    { name: 'modern-host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  modern.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
  await modern.connect(new StreamableHTTPClientTransport(url));
  t.after(() => modern.close());
  const second = await modern.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  assert.equal(textOf(second), 'The person declined to answer the panel "Pick a database".');
});

test('an elicitation nobody answers ends at elicitationTimeoutMs (default 10 minutes), in words', async (t) => {
  const { ELICITATION_TIMEOUT_MS } = await import('../../mcp/fallbacks.js');
  assert.equal(ELICITATION_TIMEOUT_MS, 10 * 60_000);
  const { url } = await httpServer(t, undefined, { maxSessions: 4, maxSessionsPerPrincipal: 4, elicitationTimeoutMs: 300 });
  const client = await httpClient(t, url, { elicitation: { form: {} } });
  client.setRequestHandler('elicitation/create', () => new Promise(() => undefined)); // never answers
  const started = Date.now();
  const outcome = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } }).then(
    (result) => textOf(result),
    (error: unknown) => (error as Error).message,
  );
  t.diagnostic(outcome);
  assert.match(outcome, /Request timed out/);
  assert.ok(Date.now() - started < 30_000, 'released long before a person would give up');
});
