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
import { existsSync } from 'node:fs';
import { buildDemo } from './build.js';
import { startDemoServer } from './app.js';
import { chooseModel } from './agent/model.js';

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
    inspectHost: args.includes('--inspect'),
    ...(process.env.TASK_SURFACE_MCP_ORIGINS
      ? {
          mcpCorsOrigins: process.env.TASK_SURFACE_MCP_ORIGINS.split(',')
            .map((o) => o.trim())
            .filter(Boolean),
        }
      : {}),
    ...(model.driver ? { driver: model.driver } : {}),
  });
} catch (error) {
  // A database that cannot be reached (or migrated) is one clear line, not a stack.
  console.error(`could not start the demo: ${(error as Error).message}`);
  process.exit(1);
}
const sessions = server.demo.host.listSessions().length;
console.log(`task-surface demo on ${server.url}  (store: ${server.demo.storeLabel}, ${sessions} session${sessions === 1 ? '' : 's'})`);
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
