// `DATABASE_URL=postgres://… npm start`: the demo as a real process keeps its sessions in PostgreSQL,
// says so in its startup line, and finds them again after a restart.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { mintMessageId, mintRpcId } from '../../protocol/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL, testPool } from '../host/stores.js';
import { inTime, rawSocketFor } from '../transport/helpers.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const databaseUrl = TEST_DATABASE_URL;
if (databaseUrl) {
  describe('the demo on PostgreSQL (DATABASE_URL)', () => {
    const out = mkdtempSync(join(tmpdir(), 'demo-pg-'));
    const data = mkdtempSync(join(tmpdir(), 'demo-pg-data-'));
    const schema = freshSchema();
    after(async () => {
      rmSync(out, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
      await dropSchema(schema);
      await testPool().end();
    });

    /**
     * Starts `demo/server.ts` and resolves with its banner and port once it listens (within a minute
     * of compiling); a demo still running when the test ends is killed.
     */
    const startDemo = (t: TestContext, url: string) => {
      let child: ChildProcess | undefined;
      t.after(() => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGKILL');
        return exited;
      });
      const started = new Promise<{ child: ChildProcess; banner: string; port: number }>((resolve, reject) => {
        child = spawn(process.execPath, [...TSX_IMPORT, 'demo/server.ts'], {
          env: {
            ...process.env,
            PORT: '0',
            DATABASE_URL: url,
            TASK_SURFACE_PG_SCHEMA: schema,
            TASK_SURFACE_STORE: '',
            TASK_SURFACE_DEMO_OUT: out,
            OPENAI_API_KEY: '',
            ANTHROPIC_API_KEY: '',
          },
          cwd: process.cwd(),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let text = '';
        const collect = (chunk: Buffer) => {
          text += String(chunk);
          const match = /demo on http:\/\/127\.0\.0\.1:(\d+)\/ {2}\(store: [^\n]*\)/.exec(text);
          if (match) resolve({ child: child!, banner: match[0], port: Number(match[1]) });
        };
        child.stdout!.on('data', collect);
        child.stderr!.on('data', collect);
        child.once('exit', (code) => reject(new Error(`the demo exited (${code}): ${text}`)));
      });
      return inTime(started, 'the demo to listen', 60_000);
    };
    const stopDemo = (child: ChildProcess) =>
      new Promise<number | null>((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });

    it('keeps the chats in PostgreSQL, names the store at startup and finds them after a restart', async (t) => {
      const first = await startDemo(t, databaseUrl.replace('postgres://postgres@', 'postgres://postgres:secret@'));
      assert.match(
        first.banner,
        new RegExp(`store: PostgreSQL postgres://postgres@127\\.0\\.0\\.1:\\d+/postgres, schema ${schema}, 0 sessions`),
      );
      assert.doesNotMatch(first.banner, /secret/, 'the password is not printed');
      const cookie = (await fetch(`http://127.0.0.1:${first.port}/`)).headers.get('set-cookie')!.split(';')[0]!;
      const socket = await rawSocketFor(t, first.port, { path: '/ws', headers: { Cookie: cookie } });
      const list = (await socket.ask('{"id":"l1","type":"session.list"}')).result as { sessionId: string }[];
      assert.equal(list.length, 1, 'the Welcome chat');
      const sessionId = list[0]!.sessionId;
      const send = { sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'remind me to follow up' };
      const sent = await socket.ask(JSON.stringify({ id: 's1', type: 'session.send', params: send }));
      assert.equal((sent.result as { accepted: boolean }).accepted, true);
      // The scripted agent answers; its turn is stored in PostgreSQL.
      let stored: string[] = [];
      for (let tries = 0; !stored.includes('turn/ended'); tries++) {
        assert.ok(tries < 500, 'the agent answered');
        await new Promise((r) => setTimeout(r, 20));
        const { rows } = await testPool().query<{ body: string }>(
          `SELECT body FROM "${schema}".ts_events WHERE session_id = $1 ORDER BY seq`,
          [sessionId],
        );
        stored = rows.map((r) => (JSON.parse(r.body) as { type: string }).type);
      }
      assert.ok(stored.includes('user/message'));
      socket.close();
      assert.equal(await stopDemo(first.child), 0);

      const second = await startDemo(t, databaseUrl);
      assert.match(second.banner, /, 1 session\)/);
      const again = await rawSocketFor(t, second.port, { path: '/ws', headers: { Cookie: cookie } });
      const relisted = (await again.ask('{"id":"l2","type":"session.list"}')).result as { sessionId: string; lastSeq: number }[];
      assert.deepEqual(
        relisted.map((s) => s.sessionId),
        [sessionId],
        'the same chat, not a second Welcome',
      );
      const page = (await again.ask(JSON.stringify({ id: 'r1', type: 'log.read', params: { sessionId, limit: 100 } }))).result as {
        events: { type: string; text?: string }[];
      };
      assert.ok(page.events.some((e) => e.type === 'user/message' && e.text === 'remind me to follow up'));
      assert.equal(await stopDemo(second.child), 0);
    });

    it('says in one line when the database cannot be reached', async (t) => {
      await assert.rejects(startDemo(t, 'postgres://postgres@127.0.0.1:1/none'), /could not start the demo: .*ECONNREFUSED/);
    });
  });
}
