import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

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

/** Starts one host process of the cluster (test/cluster/worker.ts). */
export async function startWorker(schema: string, env: Record<string, string> = {}): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/cluster/worker.ts'], {
    env: { ...process.env, TEST_DATABASE_URL: testDatabaseUrl(), CLUSTER_SCHEMA: schema, CLUSTER_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const [port, workerId] = await new Promise<[number, string]>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /listening (\d+) (\S+)/.exec(stdout);
      if (match) resolve([Number(match[1]), match[2]!]);
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before listening: ${stdout}${stderr}`)));
  });
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
