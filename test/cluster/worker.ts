/*
 * One host process of a test cluster: the scripted agent on the Postgres store, joined to the
 * cluster, serving WebSocket on a free port. Prints `listening <port> <workerId>` when ready.
 *   TEST_DATABASE_URL, CLUSTER_SCHEMA, CLUSTER_SECRET; AUTO_ADMIT=0 leaves rows queued;
 *   THINK_MS: the scripted agent's pause (a turn in flight to kill the process in);
 *   EXPIRY_MS: the heartbeat's expiry (default 2,000 ms);
 *   AUTH=header: each client is the principal its `x-test-principal` header names (the default
 *   owner-only policy applies), with connection caps high enough for hundreds of test identities.
 * GET /stats answers this process's peer connections and owned sessions (JSON).
 */
import { createServer, type IncomingMessage } from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { createHost } from '../../host/createHost.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import { joinCluster } from '../../transport/cluster/node.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { createScriptedAgent } from '../../demo/agent/driver.js';

// The test process holds our stdin: when it ends, however it ended (a file's timeout, a crash, a
// force-exit), the pipe closes and this worker goes too, so no test leaves a host process behind.
process.stdin.on('end', () => process.exit(0)).resume();

const env = process.env;
const store = await createPostgresStore({ connectionString: env.TEST_DATABASE_URL!, schema: env.CLUSTER_SCHEMA! });
const host = createHost({
  store,
  driver: createScriptedAgent({ thinkMs: Number(env.THINK_MS ?? 0) }),
  ...(env.AUTO_ADMIT === '0' ? { autoAdmit: false } : {}),
});
// Assigned once joined: /stats reads it.
let stats = () => ({});
const http = createServer((_request, response) => response.end(JSON.stringify(stats())));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const { port } = http.address() as AddressInfo;
const cluster = await joinCluster({
  // A pool of its own: heartbeats never wait behind the store's writes.
  db: new pg.Pool({ connectionString: env.TEST_DATABASE_URL!, max: 4 }).on('error', () => {}),
  heartbeatDb: new pg.Pool({ connectionString: env.TEST_DATABASE_URL!, max: 1 }).on('error', () => {}),
  schema: store.schema,
  host,
  store,
  unload: (id) => host.unload(id),
  url: `ws://127.0.0.1:${port}/ws`,
  secret: env.CLUSTER_SECRET!,
  onError: (error) => console.error('cluster:', error),
  ...(env.EXPIRY_MS ? { expiryMs: Number(env.EXPIRY_MS) } : {}),
});
stats = () => ({ peerConnections: cluster.peerConnectionCount, owned: cluster.ownedCount });
const auth =
  env.AUTH === 'header'
    ? {
        authenticate: (request: IncomingMessage) => {
          const id = request.headers['x-test-principal'];
          return typeof id === 'string' ? { id } : null;
        },
        maxConnectionsPerAddress: 10_000,
      }
    : { allowAnonymous: true as const };
await createWebSocketServer({ host, server: http, path: '/ws', heartbeatMs: 0, cluster, ...auth });
console.log(`listening ${port} ${cluster.workerId}`);
process.on('SIGTERM', () => {
  void cluster.close().finally(() => process.exit(0));
});
