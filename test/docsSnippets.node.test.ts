// The Node blocks of README.md and docs/, run as written (test/docsSnippet.ts): each with a prelude
// for the names its page leaves to the app (a store, a driver, the app's model call), then looked at.
// test/docsFences.node.test.ts lists every block and which test runs it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { Host } from '../host/index.js';
import { mintMessageId, mintRpcId, type SessionId, type TaskSurfaceId } from '../protocol/index.js';
import pg from 'pg';
import { startFakeOpenAI } from './agents/fakeProviders.js';
import { TEST_DATABASE_URL, testPool } from './host/stores.js';
import { runFence, source } from './docsSnippet.js';

const PLAN_MODEL = `{ version: 1, title: 'Pick a plan', sections: [], submit: { label: 'Choose' },
  fields: [{ kind: 'choice', id: 'plan', label: 'Plan', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] }] }`;
/** The names the pages leave to the app: a store, a driver that shows a plan and thanks for an answer, ids. */
const APP = `
import { createHost, createMemoryStore } from ${source('host/index.js')};
import { mintMessageId, mintRpcId, mintTaskSurfaceSubmissionId } from ${source('protocol/index.js')};
const store = createMemoryStore();
const driver = { async runTurn(turn) {
  if (turn.input.at(-1)?.source.taskSurface) return turn.reply('Thanks!');
  await turn.callTool('show_task_surface', { model: ${PLAN_MODEL} });
} };
const messageId = mintMessageId(), rpcId = mintRpcId();
async function callYourModel(request) { return { text: \`\${request.tools.length} tools, said: \${request.messages.at(-1)?.text}\` }; }
`;

/** Runs `body` with a fresh folder as the working directory (a block that writes `.data/`). */
async function inFreshFolder<T>(body: () => Promise<T>): Promise<{ folder: string; result: T }> {
  const folder = mkdtempSync(join(tmpdir(), 'task-surface-docs-'));
  const was = process.cwd();
  process.chdir(folder);
  try {
    return { folder, result: await body() };
  } finally {
    process.chdir(was);
  }
}

const replies = async (host: Host, sessionId: SessionId) =>
  (await host.readLog(sessionId, { limit: 100 })).events.flatMap((event) => (event.type === 'assistant/message' ? [event.text] : []));

describe('README.md', () => {
  it('Quick start, on the server: a SQLite Host behind a WebSocket that authenticates', async () => {
    const prelude =
      APP.replace(/^const store.*$/m, '') +
      `import { createServer } from 'node:http';
const httpServer = createServer();
await new Promise((done) => httpServer.listen(0, '127.0.0.1', done));
const yourSessions = { async userFor(cookie) { return cookie === 'sid=ada' ? { id: 'ada', name: 'Ada', roles: [] } : null; } };`;
    const { folder, result } = await inFreshFolder(() =>
      runFence<{ host: Host; httpServer: Server }>('README.md § Quick start · ts 1', prelude, 'export { host, httpServer };'),
    );
    after(
      () => (
        result.httpServer.closeAllConnections(),
        result.httpServer.close(),
        result.host.dispose(),
        rmSync(folder, { recursive: true, force: true })
      ),
    );
    assert.ok(existsSync(join(folder, '.data/sessions.db')), 'the SQLite file at .data/sessions.db');
    const { port } = result.httpServer.address() as AddressInfo;
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
        socket.on('open', () => (socket.close(), resolve(101)));
        socket.on('unexpected-response', (_, response) => resolve(response.statusCode!));
        socket.on('error', reject);
      });
    assert.equal(await status({}), 401, 'no cookie: no principal');
    assert.equal(await status({ cookie: 'sid=ada' }), 101, 'the cookie yourSessions knows');
  });

  it('Quick start, from host code: queued → claiming → closed', async () => {
    const { host, sessionId, surfaceId } = await runFence<{ host: Host; sessionId: SessionId; surfaceId: string }>(
      'README.md § Quick start · ts 2',
      APP,
      'export { host, sessionId, surfaceId };',
    );
    await host.whenIdle(sessionId);
    assert.equal(host.getView(sessionId).taskSurface.active, null, 'the answer closed the surface');
    const outcome = await host.taskSurface.getOutcome({ sessionId, surfaceId: surfaceId as TaskSurfaceId });
    assert.deepEqual([outcome.status, 'values' in outcome && outcome.values], ['submitted', { plan: 'b' }]);
    assert.deepEqual(await replies(host, sessionId), ['Thanks!']);
  });
});

describe('docs/host.md', () => {
  it('The Host: a SQLite Host, a session and a message, answered by the app’s model call', async () => {
    const prelude = APP.replace(/^const store.*$/m, '');
    const { folder, result } = await inFreshFolder(() =>
      runFence<{ host: Host; sessionId: SessionId }>(
        'docs/host.md § The Host (`task-surface/host`) · ts 1',
        prelude,
        'export { host, sessionId };',
      ),
    );
    after(() => (result.host.dispose(), rmSync(folder, { recursive: true, force: true })));
    await result.host.whenIdle(result.sessionId);
    assert.match((await replies(result.host, result.sessionId)).join(), /^\d+ tools, said: Help me choose a plan$/);
  });

  it('Stepping the loop by hand: a queued message claimed and committed starts the turn', async () => {
    // A session with one queued message, in the store the block's Host is made on.
    const prelude = `${APP}
const sessionId = await (async () => {
  const before = createHost({ store, driver, autoAdmit: false });
  const id = before.openSession({ title: 'Stepping' });
  await before.session.send({ sessionId: id, messageId, rpcId, text: 'help me pick' });
  await before.dispose();
  return id;
})();`;
    const { host, sessionId } = await runFence<{ host: Host; sessionId: SessionId }>(
      'docs/host.md § Stepping the loop by hand (`autoAdmit: false`) · ts 1',
      prelude,
      'export { host, sessionId };',
    );
    assert.ok(host.getView(sessionId).taskSurface.active, 'the committed message started the turn that showed the plan');
  });
});

describe('docs/protocol.md', () => {
  it('the contract: a model parsed, its draft checked, the answer formatted', async () => {
    const { parsed, checked } = await runFence<{ parsed: { ok: boolean }; checked: { ok: boolean } }>(
      'docs/protocol.md § The Task Surface contract (`task-surface/protocol`) · ts 1',
      `const text = JSON.stringify(${PLAN_MODEL.replace('sections: [],', 'sections: [], ')});`,
      'export { parsed, checked };',
    );
    assert.deepEqual([parsed.ok, checked.ok], [true, true]);
  });
});

describe('docs/action-cards.md', () => {
  it('Host: both shipped kinds offered through the skill tool; unregister takes one away', async () => {
    const prelude = `import { createMemoryStore } from ${source('host/index.js')};
import { mintMessageId, mintRpcId } from ${source('protocol/index.js')};
import { createMemoryPageStore } from ${source('host/actionCards/kinds/createPage.js')};
import { createMemoryFollowUps } from ${source('host/actionCards/kinds/scheduleFollowUp.js')};
const store = createMemoryStore(), myPageStore = createMemoryPageStore(), myScheduler = createMemoryFollowUps();
const offered = [];
const driver = { async runTurn(turn) { offered.push(JSON.stringify(turn.step().tools)); turn.reply('ok'); } };
const say = async (sessionId) => { await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hi' }); await host.whenIdle(sessionId); };`;
    const { host, unregister, offered, say } = await runFence<{
      host: Host;
      unregister: () => void;
      offered: string[];
      say: (id: SessionId) => Promise<void>;
    }>('docs/action-cards.md § Host: `host.actionCards` · ts 1', prelude, 'export { host, unregister, offered, say };');
    const sessionId = host.openSession({ title: 'Cards' });
    await say(sessionId);
    assert.match(offered[0]!, /create-page/);
    assert.match(offered[0]!, /schedule-follow-up/);
    unregister();
    await say(sessionId);
    assert.doesNotMatch(offered[1]!, /create-page/);
    assert.match(offered[1]!, /schedule-follow-up/);
  });
});

describe('a model driver, with the SDK reading OPENAI_API_KEY and OPENAI_BASE_URL (a local fake)', () => {
  const blocks = ['docs/agents.md § Model drivers (`task-surface/agents`) · ts 1', 'README.md § Connecting a model · ts 1'];
  for (const key of blocks) {
    it(`${key.split(' § ')[0]}: the Host's turn answered through the OpenAI driver`, async () => {
      const fake = await startFakeOpenAI();
      const was = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
      Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
      after(async () => {
        for (const [name, value] of [
          ['OPENAI_API_KEY', was.key],
          ['OPENAI_BASE_URL', was.url],
        ] as const)
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        await fake.close();
      });
      fake.script({ text: 'Hello from the model' });
      const prelude = `${key.startsWith('README') ? `import { createHost } from ${source('host/index.js')};\n` : ''}import { createMemoryStore } from ${source('host/index.js')};
const store = createMemoryStore();`;
      const { host } = await runFence<{ host: Host }>(key, prelude, 'export { host };');
      const sessionId = host.openSession({ title: 'Model' });
      await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hi' });
      await host.whenIdle(sessionId);
      assert.deepEqual(await replies(host, sessionId), ['Hello from the model']);
      assert.equal(fake.requests[0]!.model, 'gpt-4.1-mini');
    });
  }
});

describe('docs/security.md', () => {
  it('a product’s own limits: 1,000 sessions for one principal, past the default 200', async () => {
    const prelude = APP.replace(/^import \{ mint.*$/m, '').replace(/^const messageId.*$/m, '');
    const { host } = await runFence<{ host: Host }>('docs/security.md § Host limits, per principal · ts 1', prelude, 'export { host };');
    const ada = host.as({ id: 'ada' });
    for (let i = 0; i < 201; i++) ada.openSession({ title: `chat ${i}` });
    assert.equal(host.as({ id: 'ada' }).listSessions().length, 201);
  });
});

describe('docs/demo.md', () => {
  it('Driving the machines from host code: the surface closes; the surface machine alone reopens', async () => {
    const prelude = `${APP}
import { createActor } from ${JSON.stringify(import.meta.resolve('xstate'))};
import { surfaceMachine } from ${source('machines/surfaceMachine.js')};
import { mintCallId, mintInboxItemId } from ${source('protocol/index.js')};
const callId = mintCallId(), submissionId = mintTaskSurfaceSubmissionId(), itemId = mintInboxItemId();`;
    const { host, sessionId, actor } = await runFence<{ host: Host; sessionId: SessionId; actor: { getSnapshot(): { value: unknown } } }>(
      'docs/demo.md § Driving the machines from host code · ts 1',
      prelude,
      'export { host, sessionId, actor };',
    );
    await host.whenIdle(sessionId);
    assert.equal(host.getView(sessionId).taskSurface.active, null);
    assert.equal(actor.getSnapshot().value, 'open');
  });
});

describe('docs/host.md, PostgreSQL', () => {
  const skip = TEST_DATABASE_URL ? false : 'no TEST_DATABASE_URL (npm test starts a PostgreSQL and sets it)';
  it('a Host on a PostgreSQL store loads a session another process made, then closes', { skip }, async () => {
    // A database of its own: the block's `public` schema is then no other test's.
    const database = `ts_docs_${crypto.randomUUID().replaceAll('-', '')}`;
    await testPool().query(`CREATE DATABASE ${database}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    const was = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url.href;
    after(async () => {
      if (was === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = was;
      await testPool().query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    });
    // The session "another process" made: a Host of its own on the same database, gone before the block runs.
    const prelude = `${APP.replace(/^const store.*$/m, '')}
import { createPostgresStore as openFirst } from ${source('host/store/postgres/index.js')};
const sessionId = await (async () => {
  const first = await openFirst({ connectionString: process.env.DATABASE_URL });
  const before = createHost({ store: first, driver });
  const id = before.openSession({ title: 'Made elsewhere' });
  await before.session.send({ sessionId: id, messageId, rpcId, text: 'help me pick' });
  await before.whenIdle(id);
  await before.dispose();
  await first.close();
  return id;
})();`;
    // The block runs to its end: the store made, the session loaded and read, the Host and the pool closed.
    const { sessionId } = await runFence<{ sessionId: string }>(
      'docs/host.md § PostgreSQL (`task-surface/host/postgres`) · ts 1',
      prelude,
      'export { sessionId };',
    );
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    const { rows } = await client
      .query<{ n: string }>('SELECT count(*) AS n FROM public.ts_events WHERE session_id = $1', [sessionId])
      .finally(() => client.end());
    assert.ok(Number(rows[0]!.n) > 3, `the session's events in the block's public schema (${rows[0]!.n})`);
  });
});

describe('docs/cluster.md, several host processes', () => {
  const skip = TEST_DATABASE_URL ? false : 'no TEST_DATABASE_URL (npm test starts a PostgreSQL and sets it)';
  it(
    'two processes of the block on one database: a session opened on one is written to and read on the other; SIGTERM stops each',
    { skip },
    async (t) => {
      // A database of its own: the block's `public` schema is then no other test's.
      const database = `ts_docs_${crypto.randomUUID().replaceAll('-', '')}`;
      await testPool().query(`CREATE DATABASE ${database}`);
      const url = new URL(TEST_DATABASE_URL!);
      url.pathname = `/${database}`;
      const names = ['DATABASE_URL', 'PORT', 'POD_IP', 'TASK_SURFACE_CLUSTER_SECRET'] as const;
      const was = Object.fromEntries(names.map((name) => [name, process.env[name]]));
      const stops: (() => Promise<void>)[] = [];
      after(async () => {
        for (const stop of stops) await stop();
        for (const name of names)
          if (was[name] === undefined) delete process.env[name];
          else process.env[name] = was[name];
        await testPool().query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      });
      Object.assign(process.env, {
        DATABASE_URL: url.href,
        POD_IP: '127.0.0.1',
        TASK_SURFACE_CLUSTER_SECRET: 'docs-cluster-secret-0123456789',
      });
      // The names the page leaves to the app: a driver that answers, the app's HTTP handler, its identity.
      const prelude = `
const driver = { async runTurn(turn) { await turn.reply('Hello from the owner'); } };
const app = (request, response) => { response.statusCode = 404; response.end(); };
const authenticate = (request) => (request.headers.cookie === 'sid=ada' ? { id: 'ada', name: 'Ada', roles: [] } : null);`;
      const freePort = async () => {
        const { createServer } = await import('node:http');
        const probe = createServer().listen(0, '127.0.0.1');
        await new Promise((done) => probe.once('listening', done));
        const { port } = probe.address() as AddressInfo;
        await new Promise((done) => probe.close(done));
        return port;
      };
      const ports: number[] = [];
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        process.env.PORT = String(port);
        const before = new Set(process.listeners('SIGTERM'));
        await runFence('docs/cluster.md § Several host processes (`task-surface/transport/cluster`) · ts 1', prelude);
        const [onSigterm] = process.listeners('SIGTERM').filter((listener) => !before.has(listener));
        assert.ok(onSigterm, 'the block stops on SIGTERM');
        process.removeListener('SIGTERM', onSigterm);
        stops.unshift(async () => void (await (onSigterm as () => Promise<void>)()));
        ports.push(port);
      }
      const { rawSocketFor } = await import('./transport/helpers.js');
      const headers = { cookie: 'sid=ada' };
      const [a, b] = [
        await rawSocketFor(t, ports[0]!, { path: '/ws', headers }),
        await rawSocketFor(t, ports[1]!, { path: '/ws', headers }),
      ];
      const opened = await a.ask(JSON.stringify({ id: 'open', type: 'session.open', params: { title: 'on the first process' } }));
      const { sessionId } = opened.result as { sessionId: SessionId };
      const sent = await b.ask(
        JSON.stringify({
          id: 'send',
          type: 'session.send',
          params: { sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hello' },
        }),
      );
      assert.equal((sent.result as { accepted: boolean }).accepted, true, `sent through the other process: ${JSON.stringify(sent)}`);
      let texts: string[] = [];
      for (let tries = 0; tries < 100 && !texts.includes('Hello from the owner'); tries++) {
        const read = await b.ask(JSON.stringify({ id: `read-${tries}`, type: 'log.read', params: { sessionId, limit: 50 } }));
        const events = (read.result as { events?: { type: string; text?: string }[] } | undefined)?.events ?? [];
        texts = events.flatMap((event) => (event.type === 'user/message' || event.type === 'assistant/message' ? [event.text!] : []));
        if (!texts.includes('Hello from the owner')) await new Promise((done) => setTimeout(done, 100));
      }
      assert.deepEqual(texts, ['hello', 'Hello from the owner'], "the message and the owner's reply, read on the other process");
      // Each block's SIGTERM handler stops its process: the socket on it closes, and its row is gone.
      for (const stop of stops.splice(0)) await stop();
      // A backend may outlive its client's end by a moment: asked until none is left, for up to 5 s.
      let left = -1;
      for (let tries = 0; tries < 50 && left !== 0; tries++) {
        if (tries > 0) await new Promise((done) => setTimeout(done, 100));
        const { rows } = await testPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1`, [
          database,
        ]);
        left = rows[0]!.n;
      }
      assert.equal(left, 0, 'every pool of both processes ended');
    },
  );
});

describe('docs/demo.md, The WebSocket transport', () => {
  it('the Node half: the endpoint authenticates with the app’s userOf and answers a frame over its 256 KiB too-large', async () => {
    const prelude = `${APP.replace(/^import \{ mint.*$/m, '').replace(/^const messageId.*$/m, '')}
import { createServer } from 'node:http';
const host = createHost({ store, driver });
const httpServer = createServer();
await new Promise((done) => httpServer.listen(0, '127.0.0.1', done));
const userOf = (request) => (request.headers.cookie === 'sid=ada' ? { id: 'ada', name: 'Ada', roles: [] } : null);`;
    const { host, httpServer, endpoint } = await runFence<{ host: Host; httpServer: Server; endpoint: { close(): Promise<void> } }>(
      'docs/demo.md § The WebSocket transport · ts 1',
      prelude,
      'export { host, httpServer, endpoint };',
    );
    after(async () => (await endpoint.close(), httpServer.closeAllConnections(), httpServer.close(), await host.dispose()));
    const { port } = httpServer.address() as AddressInfo;
    const open = (headers: Record<string, string>) =>
      new Promise<WebSocket | number>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
        socket.on('open', () => resolve(socket));
        socket.on('unexpected-response', (_, response) => resolve(response.statusCode!));
        socket.on('error', reject);
      });
    assert.equal(await open({}), 401, 'userOf found no principal');
    const socket = await open({ cookie: 'sid=ada' });
    assert.ok(socket instanceof WebSocket, 'userOf’s principal is admitted');
    const answer = new Promise<{ code?: string; id?: string }>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    socket.send(JSON.stringify({ id: 'big', type: 'session.open', params: { title: 'x'.repeat(300 * 1024) } }));
    assert.deepEqual(await answer.then(({ code, id }) => ({ code, id })), { code: 'too-large', id: 'big' }, 'maxMessageBytes: 256 KiB');
    socket.close();
  });
});

describe('docs/demo.md, Authentication', () => {
  it('the WebSocket server admits the product’s own session cookie, for the hosts and origins named', async () => {
    const prelude = `${APP.replace(/^import \{ mint.*$/m, '')
      .replace(/^const messageId.*$/m, '')
      .replace('import { createHost, createMemoryStore }', 'import { createHost, createMemoryStore }')}
import { createServer } from 'node:http';
import { createWebSocketServer } from ${source('transport/ws/server.js')};
const httpServer = createServer();
await new Promise((done) => httpServer.listen(0, '127.0.0.1', done));
const sessionStore = { async userFor(sid) { return sid === 'ada-session' ? { id: 'ada', name: 'Ada', roles: [] } : null; } };
const cookieValue = (cookie, name) => cookie?.split('; ').find((part) => part.startsWith(name + '='))?.slice(name.length + 1);`;
    const { host, httpServer } = await runFence<{ host: Host; httpServer: Server }>(
      'docs/demo.md § Authentication · ts 1',
      prelude,
      'export { host, httpServer };',
    );
    after(() => (httpServer.closeAllConnections(), httpServer.close(), host.dispose()));
    const { port } = httpServer.address() as AddressInfo;
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
          headers: { host: 'chat.example.com', origin: 'https://chat.example.com', ...headers },
        });
        socket.on('open', () => (socket.close(), resolve(101)));
        socket.on('unexpected-response', (_, response) => resolve(response.statusCode!));
        socket.on('error', reject);
      });
    assert.equal(await status({ cookie: 'sid=ada-session' }), 101, 'the product’s session cookie');
    assert.equal(await status({}), 401, 'no cookie');
    assert.equal(await status({ cookie: 'sid=ada-session', origin: 'https://elsewhere.example' }), 403, 'another site’s page');
    assert.equal(await status({ cookie: 'sid=ada-session', host: 'other.example.com' }), 400, 'a host name the server does not serve');
  });
});
