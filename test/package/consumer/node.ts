// A package user's Node program: imports every node-safe subpath of task-surface through its
// `exports` and drives each one a little. Type-checked and run by test/package/exports.dist.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import {
  DEFAULT_LIMITS,
  mintTaskSurfaceId,
  parseTaskSurfaceModel,
  type HostApi,
  type SessionListener,
  type SessionView,
} from 'task-surface/protocol';
import { cardMachine, dockMachine, surfaceMachine, turnMachine } from 'task-surface/machines';
import { createHost, createMemoryStore, ownerOnly, SYSTEM_PRINCIPAL, type Host, type SessionPolicy } from 'task-surface/host';
import { createSqliteStore } from 'task-surface/host/sqlite';
import { createPostgresStore, FencedError, type PostgresStore } from 'task-surface/host/postgres';
import { TransportError, createLocalTransport, createWebSocketTransport, type HostTransport } from 'task-surface/transport';
import { createWebSocketServer } from 'task-surface/transport/server';
import { DEFAULT_PEER_LIMITS, joinCluster } from 'task-surface/transport/cluster';
import { DEFAULT_SYSTEM_PROMPT, createLoopDriver } from 'task-surface/agents';
import { createOpenAIDriver } from 'task-surface/agents/openai';
import { createAnthropicDriver } from 'task-surface/agents/anthropic';
import { createAiSdkDriver } from 'task-surface/agents/ai-sdk';
import { createPanelLedger, createTaskSurfaceMcpServer, PANEL_URI, readPanelDocument } from 'task-surface/mcp';
import { checkTaskSurfaceMessage, foldTaskSurface, taskSurfaceStopWhen, taskSurfaceTools } from 'task-surface/ai-sdk';
import { AgUiInputError, PANEL_ACTIVITY, createAgUiRoutes, parseRunInput } from 'task-surface/ag-ui';
import { conformanceSuite, hostDriver, LOCALES, notApplicable, runScenario, SCENARIOS } from 'task-surface/conformance';
import manifest from 'task-surface/custom-elements.json' with { type: 'json' };

const checks: string[] = [];
const check = (name: string) => checks.push(name);

// protocol
const model = {
  version: 1,
  title: 'Pick one',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Hello' }] }],
  submit: { label: 'Send' },
};
assert.equal(parseTaskSurfaceModel(model, DEFAULT_LIMITS).ok, true);
assert.equal(parseTaskSurfaceModel({ ...model, version: 2 }, DEFAULT_LIMITS).ok, false);
check('protocol');

// machines
for (const machine of [surfaceMachine, turnMachine, dockMachine, cardMachine]) assert.equal(typeof machine.transition, 'function');
check('machines');

// host + local transport: a Host is a HostApi; TransportError is a value
const host: Host = createHost({ store: createMemoryStore() });
const api: HostApi = host;
const sessionId = api.openSession({ title: 'Consumer' });
const local: HostTransport = createLocalTransport(host);
assert.deepEqual(await local.taskSurface.getActive({ sessionId, surfaceId: mintTaskSurfaceId() }), { active: false, reason: 'not-open' });
local.dispose();
await assert.rejects(
  local.readLog(sessionId, { limit: 10 }),
  (error: unknown) => error instanceof TransportError && error.code === 'disposed',
);
// principals: host.as applies the policy; host code (SYSTEM_PRINCIPAL) sees every session
const policy: SessionPolicy = ownerOnly;
assert.equal(policy({ id: 'u' }, { sessionId, owner: 'u' }), 'write');
const mine = host.as({ id: 'u' }).openSession({ title: 'Mine' });
assert.deepEqual(
  host
    .as({ id: 'u' })
    .listSessions()
    .map((s) => s.sessionId),
  [mine],
);
assert.equal(host.as(SYSTEM_PRINCIPAL).access(sessionId), 'write');
check('host');

// host/sqlite
const dir = mkdtempSync(join(tmpdir(), 'task-surface-consumer-'));
try {
  const store = createSqliteStore(join(dir, 'sessions.db'));
  const stored = createHost({ store });
  const id = stored.openSession({ title: 'Stored' });
  assert.deepEqual(
    stored.listSessions().map((s) => s.sessionId),
    [id],
  );
  await stored.dispose();
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
check('host/sqlite');

// host/postgres: refuses to start without a database; with the tests' one, a session survives a restart
await assert.rejects(createPostgresStore({}), /give a connectionString or a pool/);
assert.ok(new FencedError('s', 1n) instanceof Error);
const databaseUrl = process.env.TEST_DATABASE_URL;
if (databaseUrl) {
  const schema = `consumer_${process.pid}`;
  const pgStore: PostgresStore = await createPostgresStore({ connectionString: databaseUrl, schema });
  const pgHost = createHost({ store: pgStore });
  const id = pgHost.openSession({ title: 'On PostgreSQL' });
  await pgHost.whenDurable(id);
  await pgHost.dispose();
  await pgStore.close();
  const reopened = await createPostgresStore({ connectionString: databaseUrl, schema });
  assert.equal(await reopened.load(id), true);
  assert.equal(reopened.getSession(id)?.title, 'On PostgreSQL');
  await reopened.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
  await reopened.close();
}
check('host/postgres');

// transport/server + the WebSocket client
// A local single-user server: every connection acts as host code (a product passes `authenticate`).
const server = await createWebSocketServer({ host, port: 0, allowAnonymous: true });
const remote = createWebSocketTransport({ url: `ws://127.0.0.1:${server.port}/ws`, WebSocket });
const view = await new Promise<SessionView>((resolve) => {
  const listener: SessionListener = (v) => resolve(v);
  remote.watchSession(sessionId, listener);
});
assert.equal(view.sessionId, sessionId);
assert.deepEqual(
  (await remote.listSessions()).map((s) => s.sessionId),
  [sessionId, mine],
);
remote.dispose();
await assert.rejects(remote.readLog(sessionId, { limit: 10 }), (error: unknown) => error instanceof TransportError);
await server.close();
await host.dispose();
check('transport/server');

// transport/cluster: its options are checked before it touches the database
assert.equal(DEFAULT_PEER_LIMITS.maxConnections, 256);
await assert.rejects(
  joinCluster({
    db: { query: () => Promise.reject(new Error('no database here')) },
    host,
    store: {},
    unload: () => {},
    url: 'ws://127.0.0.1:1/ws',
    secret: 'short',
  }),
  /at least 16 characters/,
);
check('transport/cluster');

// agents
assert.match(DEFAULT_SYSTEM_PROMPT, /show_task_surface/);
for (const factory of [createLoopDriver, createOpenAIDriver, createAnthropicDriver, createAiSdkDriver])
  assert.equal(typeof factory, 'function');
check('agents');

// mcp: the server over a ledger in memory, with the built app document
const ledger = createPanelLedger({ store: createMemoryStore() });
const shown = await ledger.show({ model }, 'model', { record: true });
assert.equal(shown.ok, true);
assert.equal(typeof createTaskSurfaceMcpServer({ appHtml: readPanelDocument(), ledger }).connect, 'function');
assert.match(readPanelDocument(), /^<!doctype html>/);
assert.equal(PANEL_URI, 'ui://task-surface/panel');
await ledger.close();
check('mcp');

// ai-sdk
assert.equal(typeof taskSurfaceTools().show_task_surface.execute, 'function');
assert.equal(typeof taskSurfaceStopWhen, 'function');
assert.equal(foldTaskSurface([]).open, null);
assert.equal(checkTaskSurfaceMessage([], { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }).accepted, true);
check('ai-sdk');

// ag-ui: the routes answer a request without a principal 401; a malformed run input is refused by name
const agUi = createAgUiRoutes({ host: () => null });
assert.equal((await agUi.run(new Request('http://app.test/ag-ui', { method: 'POST', body: '{}' }))).status, 401);
assert.throws(
  () => parseRunInput({ threadId: 't' }),
  (error: unknown) => error instanceof AgUiInputError && error.reason === 'invalid-input',
);
assert.equal(PANEL_ACTIVITY, 'task-surface');
check('ag-ui');

// conformance: one scenario on the reference driver, and the suite registers every scenario × language
const open = SCENARIOS.find((s) => s.id === 'surface.open')!;
assert.equal(notApplicable(hostDriver, open), null);
await runScenario(hostDriver, open, 'de');
let registered = 0;
conformanceSuite({ test: () => void registered++, driver: hostDriver });
assert.equal(registered, SCENARIOS.length * LOCALES.length);
check('conformance');

// custom-elements.json
const tags = manifest.modules.flatMap((m) => (m.declarations ?? []).map((d) => ('tagName' in d ? d.tagName : undefined)));
assert.ok(tags.includes('task-surface-dock'));
check('custom-elements.json');

console.log(`consumer: ${checks.length} checks passed (${checks.join(', ')})`);
