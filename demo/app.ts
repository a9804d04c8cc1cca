import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo, Socket } from 'node:net';
import { checkHost, originAllowed, requestPath, servedHosts } from '../transport/ws/origin.js';
import { createWebSocketServer, type TaskSurfaceWebSocketServer } from '../transport/ws/server.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresMessageRate, createPostgresStore, type PostgresStore } from '../host/store/postgres/index.js';
import { createSqliteStore } from '../host/store/sqlite.js';
import { joinCluster, type ClusterNode } from '../transport/cluster/node.js';
import type { Queryable } from '../transport/cluster/ownership.js';
import { createDemoMcp } from './mcp.js';
import { joinMcpPeers, type McpPeers } from './mcpPeers.js';
import { createDemoHost, type DemoHost, type DemoHostOptions } from './host.js';
import { createDemoHttpServer, type DemoHttpLimits } from './http.js';
import { createDemoIdentities, type DemoIdentities } from './identity.js';
import { createInspectRelay, type InspectRelay } from './inspectRelay.js';
import { createMintLimiter, createSharedMintLimiter, type MintLimiter, type MintRate } from './mintRate.js';
import { shownUrl } from './shownUrl.js';
import { clientAddress, listenProxied, type ProxiedOptions } from '../transport/proxyProtocol.js';
import { parseTrustedProxies, requestAddress, trustForwardedFor } from '../transport/forwarded.js';

export interface DemoServerOptions extends Omit<DemoHostOptions, 'store'> {
  /** `sqlite` (default), `memory`, or `postgres` (then `databaseUrl`). */
  store?: DemoHostOptions['store'] | 'postgres';
  /** PostgreSQL: `postgres://user:password@host:port/db`, and the schema for its tables (default `public`). */
  databaseUrl?: string;
  databaseSchema?: string;
  /**
   * One process of several on one database (`--workers`; needs `store: 'postgres'`): the shared
   * secret, and pools of the cluster's own (`heartbeatDb`, one connection, for the heartbeat alone).
   */
  cluster?: {
    secret: string;
    db: Queryable;
    heartbeatDb: Queryable;
    /**
     * How many processes one client address reaches (the balancer deals its connections over all
     * of them), passed on as the library's `processes`: each holds ceil(limit / workers) of the
     * per-address caps it counts in its own memory (sockets, `/mcp` sessions and requests a
     * second). Identities are minted from one bucket per address in PostgreSQL, whatever this is.
     * Default 1.
     */
    workers?: number;
  };
  /** Built page directory (see buildDemo). */
  root: string;
  /** The built docs site (site/build.ts), served at `/docs/`; without it `/docs/` answers 404. */
  docsRoot?: string;
  port?: number;
  /** Names the demo answers to besides 127.0.0.1:<port> and localhost:<port> (e.g. behind a proxy). */
  allowedHosts?: readonly string[];
  /** Page origins that may open `/ws` and `/inspect` besides the demo's own. */
  allowedOrigins?: readonly string[];
  /**
   * Origins of web-based MCP hosts whose pages may call `/mcp` (CORS; they authenticate with the
   * bearer token, cookies never cross origins). Default none.
   */
  mcpCorsOrigins?: readonly string[];
  /** A `/mcp` request body must arrive whole within this many milliseconds; past it 408. Default 10 s (the handler's). */
  mcpBodyTimeoutMs?: number;
  /**
   * Also take connections from a balancer that passes TCP along (the PROXY protocol, v1 or v2) on a
   * port of their own (`proxyPort`; 0 picks one), from `trusted` peers only (default loopback): caps
   * and identity minting then count each client's address, not the balancer's.
   */
  proxyProtocol?: Pick<ProxiedOptions, 'port' | 'host' | 'trusted' | 'headerTimeoutMs'>;
  /**
   * HTTP proxies (addresses and CIDRs) whose `X-Forwarded-For` names the client: its right-most
   * address that is not one of them. From any other peer the header is ignored. Default none.
   */
  trustedProxies?: readonly string[];
  /** Connections per address and request deadlines of the HTTP server (`DEMO_HTTP_LIMITS` by default). */
  httpLimits?: Partial<DemoHttpLimits>;
  /** Relay the host's actors to `?inspect` pages (the `--inspect` flag): each page only its identity's sessions. */
  inspectHost?: boolean;
  /** How fast one address may be given new identities (`GET /` without a valid cookie). Default 60 at once, then 30 a minute. */
  identityRate?: MintRate;
}

export interface DemoServer {
  readonly port: number;
  /** The port that takes PROXY-protocol connections (`proxyProtocol`). */
  readonly proxyPort?: number;
  readonly url: string;
  demo: DemoHost;
  ws: TaskSurfaceWebSocketServer;
  /** This process's cluster membership (`--workers`). */
  cluster?: ClusterNode;
  /** The browsers' anonymous identities (signed cookies). */
  identities: DemoIdentities;
  /**
   * Stops the host and its WebSocket endpoint but keeps the HTTP server, then starts a fresh host on
   * the same store: what a process restart does to connected pages, in one process (tests).
   */
  restartHost(): Promise<void>;
  close(): Promise<void>;
}

/** The demo host on an HTTP server: page, assets, `/ws` for the transport, `/inspect` with the relay. */
export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  let served: Set<string> | undefined;
  const validHost = (request: IncomingMessage) => checkHost(request, (served ??= servedHosts(http.address())), options.allowedHosts);
  const identities = createDemoIdentities(options.store === 'memory' ? undefined : (options.dataDir ?? '.data'));
  // PostgreSQL: one store for the server's life (a restarted host reads it again); made before listening.
  let postgres: PostgresStore | undefined;
  if (options.store === 'postgres') {
    if (!options.databaseUrl) throw new TypeError('store "postgres" needs databaseUrl');
    postgres = await createPostgresStore({ connectionString: options.databaseUrl, schema: options.databaseSchema ?? 'public' });
  }
  // `/mcp`'s panels on PostgreSQL too, in a schema of their own (not listed among anyone's chats), on
  // the store's pool: every process reads and answers every panel (docs/mcp.md).
  const panels = postgres && (await createPostgresStore({ pool: postgres.pool, schema: mcpSchema(postgres.schema) }));
  // SQLite: taken before listening too, so a second demo on the same data folder fails at once and
  // names the process that holds it (not a busy port); kept across host restarts, as PostgreSQL is.
  let sqlite: ReturnType<typeof createSqliteStore> | undefined;
  if (options.store !== 'memory' && options.store !== 'postgres' && !options.logStore) {
    const dir = options.dataDir ?? '.data';
    mkdirSync(dir, { recursive: true });
    sqlite = createSqliteStore(join(dir, 'demo.sqlite'));
  }
  if (options.cluster && !postgres) throw new TypeError('a cluster needs store "postgres"');
  // A cluster's processes count each principal's messages a minute in one bucket, in PostgreSQL.
  const messageRate = options.cluster && postgres ? createPostgresMessageRate({ db: postgres.pool, schema: postgres.schema }) : undefined;
  const hostOptions: DemoHostOptions = {
    ...options,
    ...(messageRate ? { messageRate } : {}),
    store: options.store === 'memory' ? 'memory' : 'sqlite',
    ...(postgres ? { logStore: postgres, logStoreLabel: postgresLabel(options.databaseUrl!, postgres.schema) } : {}),
    ...(sqlite ? { logStore: sqlite, logStoreLabel: join(options.dataDir ?? '.data', 'demo.sqlite') } : {}),
  };
  let cluster: ClusterNode | undefined;
  let mcpPeers: McpPeers | undefined;
  const workers = options.cluster?.workers ?? 1;
  // A cluster's processes mint from one bucket per address, in PostgreSQL; one process from its own memory.
  const mint: MintLimiter =
    options.cluster && postgres
      ? createSharedMintLimiter({
          db: postgres.pool,
          schema: postgres.schema,
          ...(options.identityRate ? { rate: options.identityRate } : {}),
        })
      : createMintLimiter(options.identityRate);
  const trusted = options.trustedProxies?.length ? parseTrustedProxies(options.trustedProxies) : undefined;
  /** A trusted proxy's connections carry many people: counted per request (`requestAddress`), not per connection. */
  let isProxy = (_socket: Socket) => false;
  const mcp = createDemoMcp({
    dataDir: options.store === 'memory' ? null : (options.dataDir ?? '.data'),
    store: panels,
    peers: () => mcpPeers,
    principalOf: (request) => identities.principalOf(request),
    allowedOrigins: options.allowedOrigins,
    corsOrigins: options.mcpCorsOrigins,
    bodyTimeoutMs: options.mcpBodyTimeoutMs,
    workers,
  });
  const http: Server = createDemoHttpServer(
    options.root,
    validHost,
    (request, response) => {
      const mintUnless = (wait: number) => {
        if (wait > 0) {
          response.writeHead(429, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(wait) });
          response.end(`too many new identities from this address: retry in ${wait} s`);
          return false;
        }
        identities.ensureCookie(request, response);
        return true;
      };
      if (identities.principalOf(request) !== null) return mintUnless(0);
      const wait = mint.take(request);
      if (typeof wait === 'number') return mintUnless(wait);
      return wait.then(mintUnless, () => {
        // The cluster's bucket cannot be read: no identity rather than one nobody counted.
        response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' });
        response.end('server busy: new identities cannot be counted now (the database did not answer); retry in 1 s');
        return false;
      });
    },
    () => (cluster === undefined || cluster.serving ? null : 'this process is not in the cluster (database unreachable or stopping)'),
    (request, response, host) => mcp.route(request, response, host),
    options.docsRoot,
    { addressOf: (socket) => (isProxy(socket) ? null : clientAddress(socket)), ...options.httpLimits },
  );
  if (trusted) isProxy = trustForwardedFor(http, trusted);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  }).catch((error: unknown) => {
    sqlite?.close();
    throw error;
  });
  const port = (http.address() as AddressInfo).port;
  const proxied = options.proxyProtocol ? await listenProxied(http, options.proxyProtocol) : undefined;
  const relay: InspectRelay | undefined = options.inspectHost
    ? createInspectRelay(http, {
        principalOf: (request) => identities.principalOf(request),
        canSee: (principal, sessionId) => demo.host.as(principal).access(sessionId) !== 'none',
      })
    : undefined;
  // Upgrades nobody serves (e.g. `/inspect` without --inspect) are refused, not left hanging.
  // So is `/ws` while a restarting host has no endpoint: the client's back-off retries it.
  let wsAttached = false;
  // `/ws` checks Host and Origin itself; `/inspect` (the host's actors) gets the same checks here,
  // before the relay's own listener (a refused socket is ended, and the relay skips ended sockets).
  http.prependListener('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const path = requestPath(request);
    if (path === null) return void socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    if (path === '/ws' && wsAttached) return;
    if (!(path === '/inspect' && relay)) return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    const host = validHost(request);
    if (host === null) return void socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    if (!originAllowed(request.headers.origin, host, options.allowedOrigins)) {
      return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    }
  });
  let demo = createDemoHost({ ...hostOptions, ...(relay ? { inspect: relay.inspect } : {}) });
  if (options.cluster && postgres) {
    const { secret, db, heartbeatDb } = options.cluster;
    const store = postgres;
    cluster = await joinCluster({
      db,
      heartbeatDb,
      schema: store.schema,
      host: { hasSession: (id) => demo.host.hasSession(id), load: (id) => demo.host.load(id) },
      store,
      unload: (id) => demo.host.unload(id),
      url: `ws://127.0.0.1:${port}/ws`,
      secret,
    });
    // A 2025-era `/mcp` session is held by the worker that made it: the others send its requests there.
    if (proxied && panels) {
      const proxyPort = (proxied.address() as AddressInfo).port;
      mcpPeers = await joinMcpPeers({ db: store.pool, schema: panels.schema, workerId: cluster.workerId, proxyPort });
    }
  }
  const endpoint = () =>
    createWebSocketServer({
      host: demo.host,
      server: http,
      path: '/ws',
      // The signed cookie says who is connecting; without one the upgrade is refused (401).
      authenticate: async (request) => {
        const principal = identities.principalOf(request);
        if (principal === null) return null;
        // In a cluster this process knows only the sessions it read, opened or loaded: one lookup in
        // the owner index learns this browser's others (their records, never their logs).
        if (cluster && postgres) await postgres.fetchSessionsOf(principal.id);
        const had = demo.host.as(principal).listSessions().length > 0;
        const welcome = demo.welcome(principal);
        // Opened here: owned and fenced like any session.open, so two processes never both write it.
        if (cluster && !had) await cluster.adopt(welcome);
        return principal;
      },
      ...(cluster ? { cluster } : {}),
      remoteAddress: requestAddress,
      // One address's 64 sockets (the default) are dealt over the workers: each holds its share.
      processes: workers,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    });
  let ws = await endpoint();
  wsAttached = true;
  const server: DemoServer = {
    port,
    ...(proxied ? { proxyPort: (proxied.address() as AddressInfo).port } : {}),
    url: `http://127.0.0.1:${port}/`,
    get demo() {
      return demo;
    },
    get ws() {
      return ws;
    },
    identities,
    ...(cluster ? { cluster } : {}),
    async restartHost() {
      wsAttached = false;
      await ws.close();
      await demo.dispose();
      demo = createDemoHost({ ...hostOptions, ...(relay ? { inspect: relay.inspect } : {}) });
      ws = await endpoint();
      wsAttached = true;
    },
    async close() {
      wsAttached = false;
      await mcpPeers?.close();
      await cluster?.close(); // first: the other processes take this one's sessions at once
      await ws.close();
      relay?.close();
      await mcp.close();
      mint.close();
      messageRate?.close();
      await panels?.close();
      await demo.dispose();
      await postgres?.close();
      sqlite?.close();
      proxied?.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  return server;
}

/** `PostgreSQL postgres://user@host:port/db, schema public`: the URL without its password. */
/** The schema of `/mcp`'s panels beside the demo's own on PostgreSQL. */
export function mcpSchema(schema: string): string {
  return `${schema}_mcp`;
}

export function postgresLabel(databaseUrl: string, schema: string): string {
  return `PostgreSQL ${shownUrl(databaseUrl)}, schema ${schema}`;
}
