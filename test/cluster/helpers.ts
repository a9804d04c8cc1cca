import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { connectClient, inTime } from '../transport/helpers.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

/** The test database (scripts/ensure-postgres.mjs provides one to `npm test`). */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through `npm test` (it starts a throwaway PostgreSQL)');
  return url;
}

export const SECRET = 'cluster-test-secret-0123456789';

/** A fresh schema for one test file, dropped by `drop()`. */
export async function freshSchema(prefix: string): Promise<{ schema: string; pool: pg.Pool; drop(): Promise<void> }> {
  const schema = `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  return {
    schema,
    pool,
    async drop() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

export interface Worker {
  port: number;
  workerId: string;
  child: ChildProcess;
  /** Everything it wrote to stderr (for failure messages). */
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `started`, or, past `ms` (a loaded two-core machine compiling, not forever), a failure naming what
 * `child` printed, the child stopped with `signal` (the `--workers` wrapper passes SIGTERM on to its demo).
 */
function startedInTime<T>(
  started: Promise<T>,
  child: ChildProcess,
  what: string,
  output: () => string,
  ms: number,
  signal: NodeJS.Signals,
) {
  return inTime(started, what, ms).catch((error: unknown) => {
    child.kill(signal);
    throw new Error(`${(error as Error).message}: ${output()}`);
  });
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

export interface WorkersDemo {
  /** The balancer's port (the page's address). */
  port: number;
  /** What the supervisor printed. */
  output(): string;
  /** Each worker: its id (host-pid-suffix), port and pid. */
  workers: { workerId: string; port: number; pid: number }[];
  stop(): Promise<void>;
}

/** Whether nothing (a server, or a connection's local end) holds the port on 127.0.0.1. */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });

/**
 * A start port whose next `size` ports are free, below the kernel's ephemeral range (32768 and up on
 * Linux), where outgoing connections take their local ports: a random block there can be in use.
 */
async function freePortBlock(size: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const start = 20_000 + Math.floor(Math.random() * (32_000 - 20_000 - size));
    let free = true;
    for (let port = start; free && port < start + size; port++) free = await portFree(port);
    if (free) return start;
  }
  throw new Error(`no ${size} consecutive free ports found between 20000 and 32000`);
}

/** `npm start -- --workers <count>` on the test database, in `schema`, on a random block of ports. */
export async function startWorkersDemo(schema: string, count = 3): Promise<WorkersDemo> {
  const dir = mkdtempSync(join(tmpdir(), 'ts-workers-'));
  const port = await freePortBlock(count + 1);
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs', '--workers', String(count)], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: testDatabaseUrl(),
      DATABASE_SCHEMA: schema,
      TASK_SURFACE_DATA_DIR: dir,
      TASK_SURFACE_DEMO_OUT: join(dir, 'out'),
      // The scripted agent, whatever model keys the environment has.
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
      if (output.includes('Ctrl+C')) resolve();
    });
    child.once('exit', (code) => {
      // No stop() follows a start that failed: its data folder goes now.
      rmSync(dir, { recursive: true, force: true });
      reject(new Error(`--workers exited (${code}): ${output}`));
    });
  });
  // It builds the docs site first: slower than one worker.
  await startedInTime(started, child, 'the --workers demo to start', () => output, 120_000, 'SIGTERM');
  const line = output.split('\n').find((l) => l.startsWith('task-surface demo on')) ?? '';
  const workers = [...line.matchAll(/(\S+-(\d+)-[0-9a-f]+) :(\d+)/g)].map((m) => ({
    workerId: m[1]!,
    pid: Number(m[2]),
    port: Number(m[3]),
  }));
  return {
    port,
    output: () => output,
    workers,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
