import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { rawSocketFor } from '../transport/helpers.js';
import { freshSchema, startWorkersDemo, testDatabaseUrl, type WorkersDemo } from './helpers.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

describe('npm start -- --workers 3: several demo host processes behind a round-robin balancer', { timeout: 120_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;
  let port: number;
  let stdout = '';

  before(async () => {
    db = await freshSchema('workers');
    demo = await startWorkersDemo(db.schema);
    port = demo.port;
    stdout = demo.output();
  });
  after(async () => {
    await demo?.stop();
    await db?.drop();
  });

  it('names each worker and its port in the startup line, on consecutive ports', () => {
    const line = stdout.split('\n').find((l) => l.startsWith('task-surface demo on'))!;
    assert.match(line, new RegExp(`http://127\\.0\\.0\\.1:${port}/ +\\(round-robin over 3 workers: `));
    const ports = [...line.matchAll(/\S+ :(\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(ports, [port + 1, port + 2, port + 3]);
    assert.match(line, /store: PostgreSQL/);
  });

  it('answers the health check on the balancer and on every worker', async () => {
    for (const p of [port, port + 1, port + 2, port + 3]) {
      const response = await fetch(`http://127.0.0.1:${p}/healthz`);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), 'ok');
    }
  });

  it('spreads connections over the workers, and each serves the sessions the others own', async (t) => {
    const cookie = (await fetch(`http://127.0.0.1:${port}/`)).headers.get('set-cookie')!.split(';')[0]!;
    const headers = { Cookie: cookie, Origin: `http://127.0.0.1:${port}` };
    const sockets = [];
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = await rawSocketFor(t, port, { path: '/ws', headers });
      sockets.push(socket);
      const answer = await socket.ask(JSON.stringify({ id: `o${i}`, type: 'session.open', params: { title: `spread ${i}` } }));
      opened.push((answer.result as { sessionId: string }).sessionId);
    }
    const { rows } = await db.pool.query(`SELECT DISTINCT owner_id FROM "${db.schema}".ts_session_owners WHERE session_id = ANY($1)`, [
      opened,
    ]);
    assert.equal(rows.length, 3, 'three connections in a row reached three workers');
    // Every socket reads every session, wherever it lives.
    for (const socket of sockets) {
      for (const sessionId of opened) {
        const page = await socket.ask(JSON.stringify({ id: `r-${sessionId}`, type: 'log.read', params: { sessionId, limit: 5 } }));
        assert.equal(page.type, 'result', JSON.stringify(page));
      }
    }
    // A browser that comes back on any worker lists every chat it opened, on whichever worker.
    for (let i = 0; i < 3; i++) {
      const again = await rawSocketFor(t, port, { path: '/ws', headers });
      const list = await again.ask(JSON.stringify({ id: `l${i}`, type: 'session.list' }));
      const listed = (list.result as { sessionId: string }[]).map((s) => s.sessionId);
      for (const sessionId of opened) assert.ok(listed.includes(sessionId), `${sessionId} listed on connection ${i}: ${listed.join(', ')}`);
    }
  });

  it('refuses to start without DATABASE_URL, or with a bad count, in one line', async () => {
    for (const [args, env, message] of [
      [['--workers', '3'], { DATABASE_URL: '' }, /--workers needs DATABASE_URL=postgres:\/\//],
      [['--workers', 'many'], {}, /--workers needs a number of host processes from 1 to 16, not "many"/],
    ] as const) {
      const run = spawn(process.execPath, [...TSX_IMPORT, 'demo/workers.ts', ...args], {
        env: { ...process.env, DATABASE_URL: testDatabaseUrl(), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      run.stderr!.on('data', (chunk) => (err += String(chunk)));
      const code = await new Promise((resolve) => run.once('exit', resolve));
      assert.equal(code, 2);
      assert.match(err, message);
    }
  });
});
