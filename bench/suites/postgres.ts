// The PostgreSQL store: submit → durable user message and send → durable, on PostgreSQL (committed:
// `whenDurable` resolved) beside the same on SQLite (durable when appended), in one run. The server is
// BENCH_DATABASE_URL, else TEST_DATABASE_URL, else a throwaway cluster with fsync on (a real commit).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createHost } from '../../host/createHost.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import { createSqliteStore } from '../../host/store/sqlite.js';
import type { SessionLogStore } from '../../host/store/types.js';
import type { AgentTurn } from '../../host/types.js';
import type { JsonValue, SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { median, percentile } from '../stats.js';

const model: JsonValue = {
  version: 1,
  title: 'Pick a plan',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Choose one plan.' }] }],
  fields: [{ kind: 'choice', id: 'plan', label: 'Plan', options: [{ id: 'a', label: 'A' }] }],
  submit: { label: 'Send' },
};
const CYCLES = 200;

/** `scripts/ensure-postgres.mjs --durable` as a child process: its first line is the URL; SIGTERM stops it. */
function throwawayServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['scripts/ensure-postgres.mjs', '--durable'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`could not start a PostgreSQL server for the benchmark (exit ${code})`)));
  });
}

interface Figures {
  submit: number[];
  send: number[];
}

/** Alternates a send (it bypasses the open surface; the turn shows another) and a submit of the new surface. */
async function measure(store: SessionLogStore): Promise<Figures> {
  const host = createHost({
    store,
    driver: {
      async runTurn(turn: AgentTurn) {
        turn.step();
        await turn.callTool('show_task_surface', { model });
      },
    },
  });
  const sessionId: SessionId = host.openSession();
  let appended: (() => void) | null = null;
  host.plugins.onEvent((id, event) => {
    if (id === sessionId && event.type === 'user/message') appended?.();
  });
  /** From the call to its user message being durable (PostgreSQL: committed), then lets the turn finish. */
  const untilDurable = async (call: () => Promise<unknown>) => {
    const message = new Promise<void>((resolve) => (appended = resolve));
    const started = performance.now();
    await call();
    await message;
    await host.whenDurable(sessionId);
    const ms = performance.now() - started;
    await host.whenIdle(sessionId);
    await host.whenDurable(sessionId);
    return ms;
  };
  const send = () =>
    host.session.send({ sessionId, messageId: crypto.randomUUID() as never, rpcId: crypto.randomUUID() as never, text: 'hi' });
  const figures: Figures = { submit: [], send: [] };
  for (let i = 0; i < CYCLES + 20; i++) {
    const sendMs = await untilDurable(send);
    const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId as TaskSurfaceId;
    const submitMs = await untilDurable(() =>
      host.taskSurface.submit({ sessionId, surfaceId, submissionId: crypto.randomUUID() as never, values: { plan: 'a' } }),
    );
    if (i < 20) continue; // warm-up
    figures.send.push(sendMs);
    figures.submit.push(submitMs);
  }
  await host.dispose();
  return figures;
}

const ms = (values: number[]) => `${median(values).toFixed(2)} ms (p99 ${percentile(values, 99).toFixed(2)})`;

export default {
  title: 'PostgreSQL store: submit → durable, beside SQLite',
  async run() {
    const given = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
    const server = given ? { url: given, stop: () => undefined } : await throwawayServer();
    const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
    const schema = `bench_${process.pid}`;
    try {
      const sqliteStore = createSqliteStore(join(dir, 'log.db'));
      const sqlite = await measure(sqliteStore);
      sqliteStore.close();
      const pgStore = await createPostgresStore({ connectionString: server.url, schema });
      const postgres = await measure(pgStore);
      await pgStore.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await pgStore.close();
      const ratio = median(postgres.submit) / median(sqlite.submit);
      console.log(`submit → durable user message, SQLite (baseline): ${ms(sqlite.submit)}; send → durable ${ms(sqlite.send)}`);
      console.log(`submit → durable user message, PostgreSQL (committed): ${ms(postgres.submit)}; send → durable ${ms(postgres.send)}`);
      console.log(`PostgreSQL / SQLite, submit → durable: ${ratio.toFixed(2)}×`);
      return { 'submit → durable, PostgreSQL against SQLite': `${ratio.toFixed(2)}× (${median(postgres.submit).toFixed(2)} ms)` };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      server.stop();
    }
  },
};
