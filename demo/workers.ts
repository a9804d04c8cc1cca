// `npm start -- --workers N` (scripts/start.mjs runs this file then): with DATABASE_URL, N demo host
// processes on PORT+1 … PORT+N share the PostgreSQL database, behind a round-robin balancer on PORT
// (default 8787). The same file is each worker (started by the supervisor with the cluster secret).
//   TASK_SURFACE_CLUSTER_SECRET  the cluster's shared secret (default: a random one per start)
//   DATABASE_SCHEMA              the schema of the store's tables (default public)
import pg from 'pg';
import { chooseModel } from './agent/model.js';
import { buildDemo } from './build.js';
import { startWorkers, WORKER_ENV } from './cluster.js';

const MAX_WORKERS = 16;
const args = process.argv.slice(2);
const env = process.env;
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

const port = Number(env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 1 || port + MAX_WORKERS > 65535) fail(`PORT must be a port number, not "${env.PORT}"`);
const databaseUrl = env.DATABASE_URL;
if (!databaseUrl) fail('--workers needs DATABASE_URL=postgres://…: the processes share their sessions through PostgreSQL');
let model: ReturnType<typeof chooseModel> | undefined;
try {
  model = chooseModel(env);
} catch (error) {
  fail((error as Error).message);
}

if (env[WORKER_ENV.prebuilt] && process.send) await worker();
else await supervise();

async function supervise() {
  const at = args.indexOf('--workers');
  const raw = args[at + 1];
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS) {
    fail(`--workers needs a number of host processes from 1 to ${MAX_WORKERS}, not "${raw ?? ''}"`);
  }
  const rest = args.filter((_, i) => i !== at && i !== at + 1);
  const root = await buildDemo(env.TASK_SURFACE_DEMO_OUT || undefined);
  const cluster = await startWorkers({ count, port, root, dataDir: env.TASK_SURFACE_DATA_DIR ?? '.data', args: rest });
  const list = cluster.workers.map((w) => `${w.workerId} :${w.port}`).join(', ');
  console.log(`task-surface demo on http://127.0.0.1:${cluster.port}/  (round-robin over ${count} workers: ${list}; store: PostgreSQL)`);
  console.log(`agent: ${model!.label}`);
  console.log('Ctrl+C stops every worker.');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping ${count} workers…`);
    await cluster.close();
    console.log('stopped; sessions are kept in PostgreSQL for the next start.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function worker() {
  // Loaded here, not at the top: the supervisor never serves, and the demo's modules take it about a second.
  const { startDemoServer } = await import('./app.js');
  // The cluster's own connections: its heartbeat never waits behind the store's writes.
  const db = new pg.Pool({ connectionString: databaseUrl!, max: 4 }).on('error', () => {});
  const heartbeatDb = new pg.Pool({ connectionString: databaseUrl!, max: 1 }).on('error', () => {});
  const publicHost = env[WORKER_ENV.publicHost]!;
  const publicPort = publicHost.split(':')[1]!;
  const server = await startDemoServer({
    root: env[WORKER_ENV.prebuilt]!,
    port,
    store: 'postgres',
    databaseUrl: databaseUrl!,
    ...(env.DATABASE_SCHEMA ? { databaseSchema: env.DATABASE_SCHEMA } : {}),
    dataDir: env.TASK_SURFACE_DATA_DIR ?? '.data',
    thinkMs: 350,
    // The page is served through the balancer: its Host and Origin are the balancer's.
    allowedHosts: [publicHost, `localhost:${publicPort}`],
    allowedOrigins: [`http://${publicHost}`, `http://localhost:${publicPort}`],
    // Each worker holds its share of one address's sockets and `/mcp` sessions; identities are minted cluster-wide.
    cluster: { secret: env[WORKER_ENV.secret]!, db, heartbeatDb, workers: Number(env[WORKER_ENV.count] ?? 1) },
    // The balancer's connections, each naming its client (PROXY protocol), on a port of their own.
    proxyProtocol: { port: 0 },
    ...(model!.driver ? { driver: model!.driver } : {}),
  });
  process.send!({ workerId: server.cluster!.workerId, proxyPort: server.proxyPort });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close(); // leaves the cluster first: the others take its sessions at once
    await Promise.all([db.end(), heartbeatDb.end()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
