import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { isSystem, SYSTEM_PRINCIPAL, type HostApi, type Principal, type PrincipalHostApi, type SessionId } from '../../protocol/index.js';
import { admitPeer, ConnectionCounts, guardFragments } from './admission.js';
import { WIRE_MAX_MESSAGE_BYTES } from '../../protocol/wire.js';
import { identifyRequest } from '../door.js';
import { serveConnection, type ConnectionLimits } from './connection.js';
import { MAX_FRAME_DEPTH } from './frames.js';
import { createRequestHandler } from './handler.js';
import { checkHost, originAllowed, requestPath, servedHosts } from './origin.js';
import type { WebSocketCluster, WebSocketConnection } from './router.js';

export { CLOSE_NOT_READING } from './connection.js';
export { CLOSE_PEER_REFUSED, decodePrincipal, encodePrincipal, PEER_HEADER, PEER_PROOF_MS, peerFrame, splitPeerFrame } from './peerWire.js';
export type { ConnectionContext, SessionRequest, SessionRouter, WebSocketCluster, WebSocketConnection } from './router.js';

export interface WebSocketServerOptions {
  /** The Host (its `as(principal)` serves each connection as its principal). */
  host: HostApi & PrincipalHostApi;
  /** Attach to an existing HTTP server (its upgrade requests on `path`)… */
  server?: Server;
  /** …or listen on this port (0 picks a free one), on `listenHost` (default `127.0.0.1`). */
  port?: number;
  listenHost?: string;
  /** Upgrade path when attached to `server`. Default `/ws`. */
  path?: string;
  /**
   * Who is connecting, from the upgrade request (a session cookie, an `Authorization` header…): a
   * principal, or null to refuse (HTTP 401 before the upgrade; a hook that throws or answers
   * something that is not a principal refuses too, reported to `onError`). Every Host call of the
   * connection is made as this principal, and the Host's policy decides what it may see and do.
   */
  authenticate?(request: IncomingMessage): Principal | null | Promise<Principal | null>;
  /**
   * Without `authenticate` the server refuses to start unless this is true: then every connection
   * acts as host code (the system principal), seeing and changing every session. For a local,
   * single-user tool or tests; never an accident.
   */
  allowAnonymous?: boolean;
  /** May this connection open a new session (`session.open`)? Default: yes. */
  canOpenSession?(connection: WebSocketConnection): boolean | Promise<boolean>;
  /** Called after a connection opened a session, e.g. to record who owns it. */
  onSessionOpened?(connection: WebSocketConnection, sessionId: SessionId): void;
  /**
   * Page origins allowed to open a socket (`'https://chat.example.com'`), or `'*'`. Default: only
   * the server's own origin (`http(s)://` + the request's Host). Others get HTTP 403 at the upgrade.
   */
  allowedOrigins?: readonly string[] | '*';
  /**
   * `host[:port]` names the server answers to besides the addresses it listens on (with
   * `localhost` for loopback), e.g. its DNS name behind a proxy; `'*'` accepts any well-formed Host.
   * A malformed or unserved Host gets HTTP 400 at the upgrade.
   */
  allowedHosts?: readonly string[] | '*';
  /** Largest accepted client frame in bytes; larger ones get a `too-large` error. Default 256 KiB. */
  maxMessageBytes?: number;
  /**
   * Messages past this size (one frame, or the fragments of one message in all) are not read at
   * all: `ws` closes the connection with 1009. Default maxMessageBytes + 64 KiB: close to the largest
   * message the protocol accepts, so an unread frame holds little memory.
   */
  maxFrameBytes?: number;
  /** Deepest nesting of arrays/objects in a frame (the frame itself is 1); deeper is `bad-request`. Default 64. */
  maxDepth?: number;
  /** Requests of one connection running at once; past it `busy` (retry after `retryAfterMs`). Default 32. */
  maxInFlight?: number;
  /**
   * Frames per second per connection (token bucket); past it `rate-limited`. Default 100/s, bursts
   * of 200; `false` disables. A `session.open` counts as `openCost` frames (default 10: 10 opens a
   * second, bursts of 20), since each one writes a durable session.
   */
  rateLimit?: { perSecond: number; burst: number; openCost?: number } | false;
  /** Unsent bytes a connection may hold before it is closed with 4008 (it does not read). Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Largest `log.read` answer in bytes (older events are left for the next page). Default 1 MiB. */
  maxLogPageBytes?: number;
  /** Sessions one connection may watch at once. Default 256. */
  maxWatches?: number;
  /** Open connections; past it an upgrade gets HTTP 503. Default 10,000. */
  maxConnections?: number;
  /**
   * Open connections of one principal; past it the upgrade gets HTTP 429 `too-many-connections`.
   * Default 16. Host code's principal (`allowAnonymous`) and peers are not counted.
   */
  maxConnectionsPerPrincipal?: number;
  /**
   * Open (and authenticating) connections from one remote address; past it HTTP 429
   * `too-many-connections`, before `authenticate` runs. Default 64. Not applied with `allowAnonymous`.
   * With `processes`, the total of all of them: this one holds its share.
   */
  maxConnectionsPerAddress?: number;
  /**
   * The number of processes that serve one client address between them (behind a balancer that
   * deals an address's connections over all of them). Each holds ceil(limit / processes) of each
   * per-address limit it counts in its own memory (`maxConnectionsPerAddress`), and its refusals
   * name the share: `… holds 22 connections on this process (at most 22: its share of the 64 one
   * address may hold across 3 processes)`. Default 1.
   */
  processes?: number;
  /**
   * The address an upgrade counts against. Default the socket's peer address; behind a proxy, read
   * the header it sets (and trust it only from the proxy). Null: the upgrade is not counted.
   */
  remoteAddress?(request: IncomingMessage): string | null;
  /**
   * A message begun (a frame without FIN) and not finished within this many milliseconds closes the
   * socket (1008); its fragments never exceed `maxFrameBytes` in all. Default 10,000.
   */
  maxFragmentedMs?: number;
  /**
   * Frames for one connection produced in one event-loop turn (an answer and the view it caused)
   * go out in one TCP write, each still its own WebSocket frame, in order. Default true; false
   * writes each frame at once (one write each), the baseline of `npm run bench -- load`.
   */
  coalesceWrites?: boolean;
  /** Ping interval; a connection that missed the previous pong is closed. Default 15 s; 0 disables. */
  heartbeatMs?: number;
  /** How long the answer of a mutation is kept for a retry of the same request id. Default 10 min. */
  retryWindowMs?: number;
  /** Where server-side failures are reported. Default `console.error`. */
  onError?(error: unknown): void;
  /**
   * This process's cluster membership (`joinCluster` from `task-surface/transport/cluster`): requests
   * for sessions another process owns go to it, and peers' connections (proving the shared secret) are let in.
   * Any `WebSocketCluster` plugs in the same way.
   */
  cluster?: WebSocketCluster;
}

/** A running WebSocket endpoint for a Host. */
export interface TaskSurfaceWebSocketServer {
  /** The listening port (the HTTP server's when attached). */
  readonly port: number;
  /** Open connections right now. */
  readonly connectionCount: number;
  /** Drops every open connection at once, as a network failure would (clients reconnect). */
  dropConnections(): void;
  /** Closes every connection (releasing their watches) and stops accepting new ones. */
  close(): Promise<void>;
}

/** Serves `host` over WebSocket: JSON frames checked by the wire schemas, one handler per connection. */
export async function createWebSocketServer(options: WebSocketServerOptions): Promise<TaskSurfaceWebSocketServer> {
  const maxMessageBytes = positive(options.maxMessageBytes, WIRE_MAX_MESSAGE_BYTES);
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxConnections = positive(options.maxConnections, 10_000);
  if (!options.authenticate && options.allowAnonymous !== true) {
    throw new Error(
      'createWebSocketServer: pass `authenticate` (who is connecting, from the upgrade request) or, for a server on which every connection may see and change every session, `allowAnonymous: true`',
    );
  }
  const onError = options.onError ?? ((error: unknown) => console.error('[task-surface ws]', error));
  const rate = options.rateLimit === false ? null : (options.rateLimit ?? { perSecond: 100, burst: 200 });
  const limits: ConnectionLimits = {
    maxMessageBytes,
    maxDepth: positive(options.maxDepth, MAX_FRAME_DEPTH),
    maxInFlight: positive(options.maxInFlight, 32),
    maxBufferedBytes: positive(options.maxBufferedBytes, 4 * 1024 * 1024),
    rateLimit: rate && {
      perSecond: positive(rate.perSecond, 100),
      burst: positive(rate.burst, 200),
      // Never more than a burst: an open must stay possible.
      openCost: Math.min(positive(rate.openCost, 10), positive(rate.burst, 200)),
    },
  };
  // A peer's connection carries the requests and views of many clients: no rate limit of its own
  // (each client's was applied where it connected), more in flight, a larger buffer.
  const peerLimits: ConnectionLimits = { ...limits, rateLimit: null, maxInFlight: 8_192, maxBufferedBytes: 64 * 1024 * 1024 };
  // ws closes the socket (1009) on frames over maxPayload without reading them; between
  // maxMessageBytes and it, a frame gets a `too-large` answer and the connection stays.
  const maxPayload = Math.max(maxMessageBytes, positive(options.maxFrameBytes, maxMessageBytes + 64 * 1024));
  const wss = new WebSocketServer({ noServer: true, maxPayload });
  wss.on('error', onError);
  const http =
    options.server ??
    createServer((_request, response) => {
      response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      response.end('this endpoint speaks WebSocket only');
    });
  if (!options.server) {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 0, options.listenHost ?? '127.0.0.1', () => resolve());
    });
  }
  const sockets = new Set<WebSocket>();
  /** Claimed peers still answering their challenge: not connections yet, but closed with the server. */
  const admitting = new Set<WebSocket>();
  const alive = new WeakMap<WebSocket, boolean>();
  const counts = new ConnectionCounts({
    perPrincipal: positive(options.maxConnectionsPerPrincipal, 16),
    perAddress: positive(options.maxConnectionsPerAddress, 64),
    processes: positive(options.processes, 1),
    addressOf: options.remoteAddress ?? ((request) => request.socket.remoteAddress ?? null),
  });
  const stopFragmentGuard = guardFragments(sockets, positive(options.maxFragmentedMs, 10_000));

  // Routed by hand (not ws's `server` option, which refuses every other path) so that other
  // upgrade handlers can share the HTTP server. Standalone, every path is this endpoint.
  const path = options.path ?? '/ws';
  let served: Set<string> | undefined;
  let identifying = 0;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = requestPath(request);
    if (options.server && target !== path) return; // another handler's (or nobody's) upgrade
    // Until ws takes the socket, nothing else listens for its errors: a client that resets it while
    // `authenticate` runs would otherwise throw ECONNRESET out of the process.
    socket.on('error', () => socket.destroy());
    if (target === null) return refuseUpgrade(socket, 400, 'Bad Request', 'the request target is not a URL');
    served ??= servedHosts(http.address());
    const host = checkHost(request, served, options.allowedHosts);
    if (host === null) return refuseUpgrade(socket, 400, 'Bad Request', 'the Host header is malformed or not one this server serves');
    if (!originAllowed(request.headers.origin, host, options.allowedOrigins)) {
      return refuseUpgrade(socket, 403, 'Forbidden', 'this Origin may not open a socket here');
    }
    // Upgrades still being authenticated count too: a slow `authenticate` cannot pile them up.
    if (sockets.size + identifying >= maxConnections)
      return refuseUpgrade(socket, 503, 'Service Unavailable', `at most ${maxConnections} connections`);
    const claimsPeer = options.cluster?.isPeer(request) === true;
    // A claimed peer counts against its address until it proves the cluster's secret.
    const counted = options.authenticate !== undefined;
    const address = counted ? counts.takeAddress(request) : { release() {} };
    if (typeof address === 'string') return refuseUpgrade(socket, 429, 'Too Many Requests', address);
    if (claimsPeer) {
      const challenge = options.cluster!.challengePeer(request);
      if (challenge === null) {
        address.release();
        return refuseUpgrade(socket, 401, 'Unauthorized', 'a peer upgrade must carry its nonce');
      }
      socket.once('close', () => address.release());
      return wss.handleUpgrade(request, socket, head, (ws) => {
        admitting.add(ws);
        ws.once('close', () => (admitting.delete(ws), address.release()));
        admitPeer(ws, challenge, () => {
          admitting.delete(ws);
          address.release();
          wss.emit('connection', ws, request, SYSTEM_PRINCIPAL, true);
        });
      });
    }
    identifying++;
    void identify(request)
      .finally(() => identifying--)
      .then((principal) => {
        if (socket.destroyed) return address.release();
        if (principal === null) {
          address.release();
          return refuseUpgrade(socket, 401, 'Unauthorized', 'who is connecting is not known: sign in first');
        }
        const slot = counted && !isSystem(principal) ? counts.takePrincipal(principal.id) : { release() {} };
        if (typeof slot === 'string') {
          address.release();
          return refuseUpgrade(socket, 429, 'Too Many Requests', slot);
        }
        const release = () => (address.release(), slot.release());
        socket.once('close', release);
        wss.handleUpgrade(request, socket, head, (ws) => {
          ws.once('close', release);
          wss.emit('connection', ws, request, principal, false);
        });
      });
  };
  /** The connection's principal, or null for a refusal (401). Never rejects. */
  const identify = async (request: IncomingMessage): Promise<Principal | null> =>
    options.authenticate ? identifyRequest(options.authenticate, request, onError) : SYSTEM_PRINCIPAL;
  http.on('upgrade', onUpgrade);

  const handle = createRequestHandler({
    host: options.host,
    canOpenSession: options.canOpenSession,
    onSessionOpened: options.onSessionOpened,
    retryWindowMs: options.retryWindowMs ?? 10 * 60_000,
    maxWatches: positive(options.maxWatches, 256),
    maxLogPageBytes: positive(options.maxLogPageBytes, 1024 * 1024),
    onError,
    ...(options.cluster ? { router: options.cluster.createRouter() } : {}),
  });
  let nextId = 0;

  wss.on('connection', (socket: WebSocket, request: IncomingMessage, principal: Principal, peer: boolean) => {
    const connection: WebSocketConnection = { id: `c${++nextId}`, request, principal, data: {} };
    sockets.add(socket);
    alive.set(socket, true);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, connection, {
      handle,
      scope: (as) => options.host.as(as),
      peer,
      limits: peer ? peerLimits : limits,
      coalesceWrites: options.coalesceWrites !== false,
      onError,
      onPong: () => alive.set(socket, true),
    });
  });

  const timer =
    heartbeatMs > 0
      ? setInterval(() => {
          for (const socket of sockets) {
            if (alive.get(socket) === false) {
              socket.terminate();
              continue;
            }
            alive.set(socket, false);
            socket.ping();
          }
        }, heartbeatMs)
      : undefined;
  timer?.unref?.();

  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    port,
    get connectionCount() {
      return sockets.size;
    },
    dropConnections() {
      for (const socket of sockets) socket.terminate();
    },
    async close() {
      http.off('upgrade', onUpgrade);
      if (timer) clearInterval(timer);
      stopFragmentGuard();
      for (const socket of [...sockets, ...admitting]) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      if (!options.server) {
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      }
    },
  };
}

/** `value` when it is a positive integer, else `fallback`. */
function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

function refuseUpgrade(socket: Duplex, status: number, statusText: string, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}
