// `npm start -- --workers N`: N demo host processes on consecutive ports sharing one PostgreSQL
// database, behind a tiny round-robin TCP balancer on PORT (each new connection, page or socket,
// goes to the next live worker), as a load balancer without sticky sessions would. Each connection
// reaches its worker with a PROXY protocol v1 header naming the client's address, so the worker's
// caps and identity minting count people, not the balancer; and the balancer holds at most 128
// connections of one client address in all, as one process would.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { proxyHeaderV1 } from '../transport/proxyProtocol.js';
import { connectionCap } from '../transport/door.js';
import { DEMO_HTTP_LIMITS } from './http.js';
import { createDemoIdentities } from './identity.js';

/** The environment a worker reads (set by the supervisor). */
export const WORKER_ENV = {
  secret: 'TASK_SURFACE_CLUSTER_SECRET',
  /** `host:port` the page is served at (the balancer): the workers answer to it. */
  publicHost: 'TASK_SURFACE_PUBLIC_HOST',
  /** The built page (the supervisor builds it once). */
  prebuilt: 'TASK_SURFACE_DEMO_PREBUILT',
  /** How many workers the balancer deals connections over: each holds its share of one address's caps. */
  count: 'TASK_SURFACE_WORKER_COUNT',
} as const;

/** How often the balancer asks each worker's `/healthz`, and how long an answer may take. */
export const HEALTH = { everyMs: 500, timeoutMs: 1_000 } as const;

/** A running balancer: its port, and which targets it sends new connections to now. */
export interface Balancer {
  port: number;
  server: Server;
  /** Targets whose last `/healthz` answered 200 within `HEALTH.timeoutMs`. */
  healthy(): number[];
  close(): Promise<void>;
}

/**
 * A round-robin TCP balancer: each accepted connection is piped to the next healthy target port. A
 * target whose `/healthz` fails or does not answer within a second (a frozen or stopped process
 * still accepts TCP connections in its kernel backlog) gets no new connection until it answers
 * again; a target that refuses is skipped too, so a dead worker costs a reconnect, not an error.
 * With every target unhealthy, all are tried (better a slow answer than none).
 */
export async function startBalancer(
  port: number,
  targets: readonly number[],
  /**
   * Each target's PROXY-protocol port (`startDemoServer({ proxyProtocol })`): connections go there,
   * each opened with a v1 header naming its client, so the worker counts people, not the balancer.
   * A target without one gets the bare connection.
   */
  proxyPorts: ReadonlyMap<number, number> = new Map(),
  /**
   * Open connections one client address may hold through the balancer, all workers together; past
   * it `HTTP/1.1 429` `too-many-connections: …`, closed before a worker hears of it. Default: no cap.
   */
  connectionsPerAddress = Infinity,
): Promise<Balancer> {
  let next = 0;
  const cap = connectionCap(connectionsPerAddress);
  const up = new Map(targets.map((target) => [target, true]));
  const check = (target: number) =>
    new Promise<boolean>((resolve) => {
      const request = httpGet({ host: '127.0.0.1', port: target, path: '/healthz', timeout: HEALTH.timeoutMs }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      });
      request.once('timeout', () => request.destroy());
      request.once('error', () => resolve(false));
    });
  const probe = setInterval(() => {
    for (const target of targets) void check(target).then((ok) => up.set(target, ok));
  }, HEALTH.everyMs);
  probe.unref();
  const server = createServer((client: Socket) => {
    client.pause();
    client.on('error', () => {});
    if (!cap.admit(client, connectionsPerAddress === Infinity ? null : (client.remoteAddress ?? null))) return;
    const live = targets.filter((target) => up.get(target));
    const pool = live.length > 0 ? live : targets;
    const attempt = (tries: number) => {
      if (tries >= pool.length) return void client.destroy();
      const target = pool[next++ % pool.length]!;
      const proxied = proxyPorts.get(target);
      const upstream = createConnection({ host: '127.0.0.1', port: proxied ?? target });
      upstream.once('connect', () => {
        if (proxied !== undefined) upstream.write(proxyHeaderV1(client));
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.once('error', () => attempt(tries + 1));
    };
    attempt(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    server,
    healthy: () => targets.filter((target) => up.get(target)),
    close: () => {
      clearInterval(probe);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  port: number;
  /** Where the balancer sends its connections (PROXY protocol v1). */
  proxyPort: number;
  workerId: string;
}

/**
 * Starts `count` workers (demo/workers.ts in worker mode) on `port + 1 …`, then the balancer on
 * `port`. The workers share a generated cluster secret (or TASK_SURFACE_CLUSTER_SECRET) and the
 * identity secret in `dataDir`, made here first so that they do not race to create it.
 */
export async function startWorkers(options: { count: number; port: number; root: string; dataDir: string; args: string[] }) {
  createDemoIdentities(options.dataDir);
  const secret = process.env[WORKER_ENV.secret] ?? randomBytes(24).toString('hex');
  const file = fileURLToPath(new URL('./workers.ts', import.meta.url));
  const workers: WorkerProcess[] = [];
  for (let i = 1; i <= options.count; i++) {
    const port = options.port + i;
    const child = fork(file, options.args, {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        PORT: String(port),
        [WORKER_ENV.secret]: secret,
        [WORKER_ENV.publicHost]: `127.0.0.1:${options.port}`,
        [WORKER_ENV.prebuilt]: options.root,
        [WORKER_ENV.count]: String(options.count),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const { workerId, proxyPort } = await new Promise<{ workerId: string; proxyPort: number }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { workerId: string; proxyPort: number }));
      child.once('exit', (code) => reject(new Error(`worker ${i} (port ${port}) exited (${code}) before it was ready`)));
    });
    workers.push({ child, port, proxyPort, workerId });
  }
  const balancer = await startBalancer(
    options.port,
    workers.map((w) => w.port),
    new Map(workers.map((w) => [w.port, w.proxyPort])),
    DEMO_HTTP_LIMITS.connectionsPerAddress,
  );
  return {
    workers,
    port: balancer.port,
    balancer,
    async close() {
      await balancer.close();
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.child.exitCode !== null) return resolve();
              w.child.once('exit', () => resolve());
              w.child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
