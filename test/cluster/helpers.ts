// What the cluster tests share: host processes of the cluster (test/cluster/worker.ts), their clients,
// and the --workers demo of fixtures/cluster/workers.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before } from 'node:test';
import pg from 'pg';
import { connectClient } from '../transport/helpers.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';
import { freshSchema, startedInTime, testDatabaseUrl } from '../../fixtures/cluster/workers.js';

export { freshSchema, startWorkersDemo, testDatabaseUrl, type WorkersDemo } from '../../fixtures/cluster/workers.js';

export const SECRET = 'cluster-test-secret-0123456789';

export interface Worker {
  port: number;
  workerId: string;
  child: ChildProcess;
  /** Everything it wrote to stderr (for failure messages). */
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts one host process of the cluster (test/cluster/worker.ts). */
export async function startWorker(schema: string, env: Record<string, string> = {}): Promise<Worker> {
  const child = spawn(process.execPath, [...TSX_IMPORT, 'test/cluster/worker.ts'], {
    env: { ...process.env, TEST_DATABASE_URL: testDatabaseUrl(), CLUSTER_SCHEMA: schema, CLUSTER_SECRET: SECRET, ...env },
    // stdin: a pipe the worker watches, so it exits with this process (worker.ts).
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const listening = new Promise<[number, string]>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /listening (\d+) (\S+)/.exec(stdout);
      if (match) resolve([Number(match[1]), match[2]!]);
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before listening: ${stdout}${stderr}`)));
  });
  const [port, workerId] = await startedInTime(listening, child, 'a worker to listen', () => stdout + stderr, 60_000, 'SIGKILL');
  return {
    port,
    workerId,
    child,
    stderr: () => stderr,
    kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill(signal);
      return exited;
    },
  };
}

/** Resolves once `check` is true; after `ms`, fails with `context()` (what the test saw) in the message. */
export async function within(ms: number, check: () => boolean, context: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${context()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits until the session's log in the database reaches `seq` (a view can run ahead of the store's
 * commit: what a test kills a process after must be durable first).
 */
export async function untilDurable(pool: pg.Pool, schema: string, sessionId: string, seq: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await pool.query(`SELECT coalesce(max(seq), 0)::int AS n FROM "${schema}".ts_events WHERE session_id = $1`, [
      sessionId,
    ]);
    if ((rows[0]!.n as number) >= seq) return;
    if (Date.now() > deadline) throw new Error(`session ${sessionId}: seq ${seq} not durable within 15 s (at ${rows[0]!.n})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export type Client = ReturnType<typeof connectClient>;

/**
 * One test file's cluster, made and cleaned up by the file's `before`/`after`: a fresh schema, the
 * host processes it starts and the clients it connects.
 */
export function clusterFixture(prefix: string) {
  let db: Awaited<ReturnType<typeof freshSchema>> | undefined;
  const workers: Worker[] = [];
  const clients: Client[] = [];
  before(async () => {
    db = await freshSchema(prefix);
  });
  after(async () => {
    for (const c of clients) c.dispose();
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    await db?.drop();
  });
  return {
    get db() {
      return db!;
    },
    /** Starts one more host process (one at a time: the first migrates the schema). */
    async start(env: Record<string, string> = {}): Promise<Worker> {
      const worker = await startWorker(db!.schema, env);
      workers.push(worker);
      return worker;
    },
    /** A client transport connected to one process. */
    client(worker: Worker): Client {
      const c = connectClient(worker.port, { url: `ws://127.0.0.1:${worker.port}/ws` });
      clients.push(c);
      return c;
    },
  };
}
