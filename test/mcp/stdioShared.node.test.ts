// Several stdio processes, one set of panels (issue 38 item 5): two MCP hosts each spawn `npm run mcp`
// (the bin through tsx, as helpers' stdioClient) on the same data folder, or with DATABASE_URL on one
// PostgreSQL database. A panel shown through one server is read and answered through the other, and
// two answers at once, one through each, store exactly one user message.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';
import { createSqliteStore, StoreLockedError } from '../../host/store/sqlite.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { createPanelLedger } from '../../mcp/ledger.js';
import { openSharedSqlite } from '../../mcp/sharedSqlite.js';
import type { SessionId } from '../../protocol/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL, testPool } from '../host/stores.js';
import { APPS, ensurePanelBuilt, smallModel } from './helpers.js';

before(ensurePanelBuilt, { timeout: 180_000 });

/** A stdio server process as `npm run mcp` runs it, with `env` added to its environment. */
async function server(t: TestContext, args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test-host', version: '1.0.0' }, { capabilities: APPS });
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...TSX_IMPORT, 'mcp/bin.ts', ...args],
    env: { ...inherited, DATABASE_URL: '', ...env },
    stderr: 'inherit',
  });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

type State = { status: string; submissionId?: string; values?: Record<string, unknown>; delivered?: boolean; channel?: string };
const view = async (client: Client, args: Record<string, unknown>): Promise<State> =>
  (await client.callTool({ name: VIEW_TOOL, arguments: args })).structuredContent as State;
const show = async (client: Client): Promise<string> => {
  const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  return (shown._meta as { viewUUID: string }).viewUUID;
};
const answer = (viewId: string, n: number) => ({
  action: 'submit',
  viewId,
  submissionId: `sub-${n}`,
  values: { db: n % 2 ? 'pg' : 'sqlite', why: `reason ${n}` },
});

/** Shown through `a`, read, answered and marked through `b`; then two answers at once, `rounds` times. */
async function oneSetOfPanels(a: Client, b: Client, userMessages: (viewId: string) => Promise<number>, rounds = 3) {
  const viewId = await show(a);
  assert.equal((await view(b, { action: 'read', viewId })).status, 'open');
  const submitted = await view(b, answer(viewId, 1));
  assert.equal(submitted.status, 'submitted');
  const seen = await view(a, { action: 'read', viewId });
  assert.ok(seen.status === 'submitted' && seen.submissionId === 'sub-1' && !seen.delivered, JSON.stringify(seen));
  await view(a, { action: 'delivered', viewId, submissionId: 'sub-1' });
  const read = await view(b, { action: 'read', viewId });
  assert.ok(read.status === 'submitted' && read.delivered && read.channel === 'message', JSON.stringify(read));
  const again = await view(a, answer(viewId, 2));
  assert.equal(again.submissionId, 'sub-1', 'a second answer is not recorded');
  assert.equal(await userMessages(viewId), 1);

  for (let round = 0; round < rounds; round++) {
    const raced = await show(round % 2 ? a : b);
    assert.equal((await view(a, { action: 'read', viewId: raced })).status, 'open');
    assert.equal((await view(b, { action: 'read', viewId: raced })).status, 'open');
    const [fromA, fromB] = await Promise.all([view(a, answer(raced, 10 + 2 * round)), view(b, answer(raced, 11 + 2 * round))]);
    assert.ok(fromA.status === 'submitted' && fromB.status === 'submitted', `${fromA.status} / ${fromB.status}`);
    assert.equal(fromA.submissionId, fromB.submissionId);
    assert.deepEqual(fromA.values, fromB.values);
    assert.equal(await userMessages(raced), 1);
  }
}

const userMessagesIn = (rows: { body: string }[]) =>
  rows.filter((row) => (JSON.parse(row.body) as { type: string }).type === 'user/message').length;

test('two stdio servers on one data folder (SQLite): one set of panels, each answered once', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ts-mcp-shared-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const a = await server(t, ['--data-dir', dataDir]);
  const b = await server(t, ['--data-dir', dataDir]);
  const db = new Database(join(dataDir, 'mcp.db'), { readonly: true });
  t.after(() => db.close());
  const rows = db.prepare<[string], { body: string }>('SELECT body FROM events WHERE session_id = ? ORDER BY seq');
  await oneSetOfPanels(a, b, async (viewId) => userMessagesIn(rows.all(viewId)));

  // A third server started after both sees what they stored.
  await a.close();
  const c = await server(t, ['--data-dir', dataDir]);
  const viewId = await show(b);
  assert.equal((await view(c, answer(viewId, 5))).status, 'submitted');
  assert.equal((await view(b, { action: 'read', viewId })).submissionId, 'sub-5');
});

test('a SQLite store opened shared takes no lock; one opened without still belongs to one opener', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ts-mcp-sqlite-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'mcp.db');
  const one = openSharedSqlite(file);
  const two = openSharedSqlite(file);
  t.after(() => (one.store.close(), two.store.close()));
  const sessionId = 'ses_shared' as SessionId;
  one.store.createSession({ sessionId, title: 't', createdAt: 1, toolMode: 'native', readOnly: false, locale: 'en' });
  assert.equal(two.store.getSession(sessionId)?.title, 't');
  assert.equal(one.store.db.pragma('journal_mode', { simple: true }), 'wal');

  const lockedFile = join(dir, 'sessions.db');
  const locked = createSqliteStore(lockedFile);
  t.after(() => locked.close());
  assert.throws(() => createSqliteStore(lockedFile), StoreLockedError);
});

if (TEST_DATABASE_URL) {
  describe('stdio servers with DATABASE_URL (PostgreSQL)', () => {
    test('two stdio servers on one database: one set of panels, each answered once, in <schema>_mcp', async (t) => {
      const schema = freshSchema();
      t.after(() => dropSchema(`${schema}_mcp`));
      const env = { DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: schema };
      // Different data folders: the panels are not in either.
      const a = await server(t, ['--data-dir', mkdtempSync(join(tmpdir(), 'ts-mcp-pg-'))], env);
      const b = await server(t, ['--memory'], env);
      await oneSetOfPanels(a, b, async (viewId) => {
        const { rows } = await testPool().query<{ body: string }>(
          `SELECT body FROM "${schema}_mcp".ts_events WHERE session_id = $1 ORDER BY seq`,
          [viewId],
        );
        return userMessagesIn(rows);
      });
    });

    test('a stdio server with DATABASE_URL and a ledger on <schema>_mcp (as npm start makes for /mcp) share panels', async (t) => {
      const schema = freshSchema();
      t.after(() => dropSchema(`${schema}_mcp`));
      const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL!, schema: `${schema}_mcp` });
      const ledger = createPanelLedger({ store });
      t.after(async () => {
        await ledger.close();
        await store.close();
      });
      const stdio = await server(t, ['--memory'], { DATABASE_URL: TEST_DATABASE_URL!, TASK_SURFACE_PG_SCHEMA: schema });
      const shown = await ledger.show({ model: smallModel() }, 'model', { record: true });
      assert.ok(shown.ok, shown.content);
      assert.equal((await view(stdio, answer(shown.viewId, 4))).status, 'submitted');
      const seen = await ledger.state(shown.viewId);
      assert.ok(seen.status === 'submitted' && seen.submissionId === 'sub-4', JSON.stringify(seen));
      const viewId = await show(stdio);
      assert.equal((await ledger.state(viewId)).status, 'open');
    });
  });
}
