// `npm start`: builds the demo page and runs the demo host.
//   PORT=8787 (default)  TASK_SURFACE_STORE=sqlite|memory|postgres (default sqlite, under .data/;
//                        postgres when DATABASE_URL is set)
//   TASK_SURFACE_DATA_DIR=.data (default)  the data folder: demo.sqlite (one process at a time), identity secret
//   DATABASE_URL=postgres://…  TASK_SURFACE_PG_SCHEMA=public (default)  the sessions in PostgreSQL
//   --inspect            relay the host's actors to pages opened with ?inspect
//   TASK_SURFACE_MCP_ORIGINS=https://a.example,…  web-based MCP hosts whose pages may call /mcp (CORS)
//   OPENAI_API_KEY (+ OPENAI_BASE_URL) or ANTHROPIC_API_KEY (+ ANTHROPIC_BASE_URL), TASK_SURFACE_MODEL:
//                        a real model instead of the scripted agent
//   TASK_SURFACE_DEMO_OUT=dist/demo (default)  where the page is built
//   TASK_SURFACE_TRUSTED_PROXIES=10.0.0.0/8,…  HTTP proxies whose X-Forwarded-For names the client
//   TASK_SURFACE_PROXY_PORT=8786  also take PROXY-protocol connections (v1/v2) on this port, from
//                        TASK_SURFACE_PROXY_FROM=10.0.0.0/8,… (default loopback only)
import { existsSync } from 'node:fs';
import { buildDemo } from './build.js';
import { startDemoServer } from './app.js';
import { chooseModel } from './agent/model.js';
import { parseTrustedProxies, type TrustedProxies } from '../transport/forwarded.js';

const args = process.argv.slice(2);
// The status lines are for a person: a reader that went away (`npm start | head -1`, a closed
// terminal) gets none, and the demo keeps serving and stops cleanly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
const databaseUrl = process.env.DATABASE_URL || undefined;
const storeKind = process.env.TASK_SURFACE_STORE || (args.includes('--memory') ? 'memory' : databaseUrl ? 'postgres' : 'sqlite');
if (storeKind !== 'sqlite' && storeKind !== 'memory' && storeKind !== 'postgres') {
  console.error(`TASK_SURFACE_STORE must be "sqlite", "memory" or "postgres", not "${storeKind}"`);
  process.exit(2);
}
if (storeKind === 'postgres' && !databaseUrl) {
  console.error('TASK_SURFACE_STORE=postgres needs DATABASE_URL=postgres://user:password@host:port/database');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not "${process.env.PORT}"`);
  process.exit(2);
}

/** A comma-separated list of an environment variable, or undefined when unset or empty. */
const listOf = (name: string) => {
  const list = (process.env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return list.length > 0 ? list : undefined;
};
let trustedProxies: readonly string[] | undefined;
let proxyProtocol: { port: number; host: string; trusted?: TrustedProxies } | undefined;
try {
  trustedProxies = listOf('TASK_SURFACE_TRUSTED_PROXIES');
  if (trustedProxies) parseTrustedProxies(trustedProxies); // a bad entry stops the start, named
  const proxyPort = process.env.TASK_SURFACE_PROXY_PORT;
  if (proxyPort) {
    if (!/^\d{1,5}$/.test(proxyPort) || Number(proxyPort) > 65535)
      throw new Error(`TASK_SURFACE_PROXY_PORT must be a port number, not "${proxyPort}"`);
    const from = listOf('TASK_SURFACE_PROXY_FROM');
    // Another machine's balancer reaches it only on all interfaces; loopback alone stays local.
    proxyProtocol = {
      port: Number(proxyPort),
      host: from ? '0.0.0.0' : '127.0.0.1',
      ...(from ? { trusted: parseTrustedProxies(from) } : {}),
    };
  }
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

let model: ReturnType<typeof chooseModel>;
try {
  model = chooseModel(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const root = await buildDemo(process.env.TASK_SURFACE_DEMO_OUT || undefined);
// The docs site (`npm run docs`; `npm start` builds it first), served at /docs/ when built.
const docsRoot = existsSync('dist/docs/index.html') ? 'dist/docs' : undefined;
let server: Awaited<ReturnType<typeof startDemoServer>>;
try {
  server = await startDemoServer({
    root,
    ...(docsRoot ? { docsRoot } : {}),
    port,
    store: storeKind,
    ...(process.env.TASK_SURFACE_DATA_DIR ? { dataDir: process.env.TASK_SURFACE_DATA_DIR } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(process.env.TASK_SURFACE_PG_SCHEMA ? { databaseSchema: process.env.TASK_SURFACE_PG_SCHEMA } : {}),
    thinkMs: 350,
    // The panel's call is written as a model would write it, briefly: the Dock's preview shows.
    tokensPerSecond: 250,
    inspectHost: args.includes('--inspect'),
    ...(process.env.TASK_SURFACE_MCP_ORIGINS
      ? {
          mcpCorsOrigins: process.env.TASK_SURFACE_MCP_ORIGINS.split(',')
            .map((o) => o.trim())
            .filter(Boolean),
        }
      : {}),
    ...(model.driver ? { driver: model.driver } : {}),
    ...(trustedProxies ? { trustedProxies } : {}),
    ...(proxyProtocol ? { proxyProtocol } : {}),
  });
} catch (error) {
  // A database that cannot be reached (or migrated) is one clear line, not a stack.
  console.error(`could not start the demo: ${(error as Error).message}`);
  process.exit(1);
}
const sessions = server.demo.host.listSessions().length;
console.log(`task-surface demo on ${server.url}  (store: ${server.demo.storeLabel}, ${sessions} session${sessions === 1 ? '' : 's'})`);
if (server.proxyPort !== undefined) console.log(`PROXY protocol on port ${server.proxyPort} (from trusted balancers only)`);
console.log(`agent: ${model.label}`);
console.log(docsRoot ? `docs: ${server.url}docs/` : 'docs: not built (npm run docs), so /docs/ answers 404');
console.log(
  `inspector: ${server.url}?inspect${args.includes('--inspect') ? " (host actors relayed: each page sees only its own identity's sessions)" : " (Dock actors; start with --inspect for the host's too)"}`,
);
console.log('Ctrl+C stops.');

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  await server.close();
  console.log(storeKind === 'memory' ? 'stopped.' : 'stopped; sessions are kept for the next start.');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
