// One host process of `npm run bench -- scale`: the load bench's agent (every turn shows a surface)
// on the Postgres store, joined to the cluster unless CLUSTER=0, serving WebSocket on a free port.
// The bench asks it over IPC to open sessions; it answers `{ port, workerId }` when ready.
import { createServer } from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { createHost } from '../../host/createHost.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import type { AgentTurn } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';
import { joinCluster, type ClusterNode } from '../../transport/cluster/node.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { BENCH_MODEL } from '../model.js';
import { sampleProcessCpu } from './cpu.js';

const env = process.env;
const store = await createPostgresStore({ connectionString: env.SCALE_DATABASE_URL!, schema: env.SCALE_SCHEMA! });
const host = createHost({
  store,
  maxLoadedSessions: 10_000,
  driver: {
    async runTurn(turn: AgentTurn) {
      await turn.callTool('show_task_surface', { model: BENCH_MODEL });
    },
  },
});
const http = createServer();
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const { port } = http.address() as AddressInfo;
let cluster: ClusterNode | undefined;
if (env.CLUSTER !== '0') {
  cluster = await joinCluster({
    // A pool of its own: heartbeats never wait behind the store's writes.
    db: new pg.Pool({ connectionString: env.SCALE_DATABASE_URL!, max: 4 }).on('error', () => {}),
    heartbeatDb: new pg.Pool({ connectionString: env.SCALE_DATABASE_URL!, max: 1 }).on('error', () => {}),
    schema: store.schema,
    host,
    store,
    unload: (id) => host.unload(id),
    url: `ws://127.0.0.1:${port}/ws`,
    secret: env.SCALE_SECRET!,
    onError: (error) => console.error('[scale host]', error),
  });
}
await createWebSocketServer({
  host,
  server: http,
  path: '/ws',
  allowAnonymous: true,
  // Reached through the balancer too: its Host names the balancer's port.
  allowedHosts: '*',
  heartbeatMs: 0,
  // SCALE_COALESCE=0: one TCP write per frame, to compare with the default.
  coalesceWrites: env.SCALE_COALESCE !== '0',
  ...(cluster ? { cluster } : {}),
});

const cpu = sampleProcessCpu();

process.on('message', (job: { kind: 'open'; n: number } | { kind: 'exit' } | { kind: 'cpu' }) => {
  // SCALE_PROF: the bench ends the processes this way, so that --cpu-prof writes its profile.
  if (job.kind === 'exit') process.exit(0);
  if (job.kind === 'cpu') return void process.send!({ samples: cpu.samples });
  void (async () => {
    const sessions: SessionId[] = [];
    for (let i = 0; i < job.n; i++) sessions.push(host.openSession({ title: `scale ${i}` }));
    await store.flush();
    if (cluster) for (const sessionId of sessions) await cluster.adopt(sessionId);
    process.send!({ sessions });
  })();
});
process.send!({ port, workerId: cluster?.workerId ?? 'single' });
