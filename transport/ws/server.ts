import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Host } from '../../host/types.js';
import type { SessionId, SessionView } from '../../protocol/index.js';
import { WIRE_MAX_MESSAGE_BYTES, parseClientRequest, wireError, type ServerMessage } from '../../protocol/wire.js';
import { createRequestHandler } from './handler.js';

/** One client connection, as the `authorize` hook sees it. */
export interface WebSocketConnection {
  /** Unique per connection (a reconnect is a new connection). */
  readonly id: string;
  /** The HTTP upgrade request: headers, cookies, URL (query parameters). */
  readonly request: IncomingMessage;
  /** A free slot for the embedding application, e.g. the authenticated user. */
  readonly data: Record<string, unknown>;
}

export interface WebSocketServerOptions {
  host: Host;
  /** Attach to an existing HTTP server (its upgrade requests on `path`)… */
  server?: Server;
  /** …or listen on this port (0 picks a free one). */
  port?: number;
  /** Upgrade path when attached to `server`. Default `/ws`. */
  path?: string;
  /**
   * May this connection see and act on this session? A refused session is answered exactly like a
   * missing one (`unknown-session`). Default: every session.
   */
  authorize?(connection: WebSocketConnection, sessionId: SessionId): boolean | Promise<boolean>;
  /** May this connection open a new session (`session.open`)? Default: yes. */
  canOpenSession?(connection: WebSocketConnection): boolean | Promise<boolean>;
  /** Called after a connection opened a session, e.g. to record who owns it. */
  onSessionOpened?(connection: WebSocketConnection, sessionId: SessionId): void;
  /** Largest accepted client frame in bytes; larger ones get a `too-large` error. Default 256 KiB. */
  maxMessageBytes?: number;
  /** Ping interval; a connection that missed the previous pong is closed. Default 15 s; 0 disables. */
  heartbeatMs?: number;
  /** How long the answer of a mutation is kept for a retry of the same request id. Default 10 min. */
  retryWindowMs?: number;
  /** Where server-side failures are reported. Default `console.error`. */
  onError?(error: unknown): void;
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
  const maxMessageBytes = options.maxMessageBytes ?? WIRE_MAX_MESSAGE_BYTES;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const onError = options.onError ?? ((error: unknown) => console.error('[task-surface ws]', error));
  // ws closes the socket on frames over maxPayload; keep that far above our limit so an oversized
  // request gets an error answer instead of a dropped connection.
  const maxPayload = Math.max(maxMessageBytes * 4, 1024 * 1024);
  const attached = options.server;
  const wss = attached ? new WebSocketServer({ noServer: true, maxPayload }) : new WebSocketServer({ port: options.port ?? 0, maxPayload });
  if (!attached) await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('error', onError);
  // Routed by hand (not ws's `server` option, which refuses every other path) so that other
  // upgrade handlers can share the HTTP server.
  const path = options.path ?? '/ws';
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  attached?.on('upgrade', onUpgrade);

  const handle = createRequestHandler({
    host: options.host,
    authorize: options.authorize,
    canOpenSession: options.canOpenSession,
    onSessionOpened: options.onSessionOpened,
    retryWindowMs: options.retryWindowMs ?? 10 * 60_000,
  });
  const sockets = new Set<WebSocket>();
  const alive = new WeakMap<WebSocket, boolean>();
  let nextId = 0;

  wss.on('connection', (socket, request) => {
    const connection: WebSocketConnection = { id: `c${++nextId}`, request, data: {} };
    const watches = new Map<SessionId, () => void>();
    let closed = false;
    sockets.add(socket);
    alive.set(socket, true);
    const send = (message: ServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    // A turn appends several events in one go; the client needs only the newest view of each.
    const pendingViews = new Map<SessionId, SessionView>();
    const flushViews = () => {
      for (const [sessionId, view] of pendingViews) send({ type: 'session.view', sessionId, view });
      pendingViews.clear();
    };
    const sendView = (sessionId: SessionId, view: SessionView) => {
      if (pendingViews.size === 0) setImmediate(flushViews);
      pendingViews.set(sessionId, view);
    };
    socket.on('pong', () => alive.set(socket, true));
    socket.on('error', onError);
    socket.on('close', () => {
      closed = true;
      sockets.delete(socket);
      for (const release of watches.values()) release();
      watches.clear();
    });
    socket.on('message', (data: RawData, isBinary: boolean) => {
      alive.set(socket, true);
      const size = byteLength(data);
      if (isBinary) return send(wireError(null, 'bad-request', 'binary frames are not supported; send JSON text'));
      if (size > maxMessageBytes) {
        return send(wireError(null, 'too-large', `message of ${size} bytes is over the limit of ${maxMessageBytes} bytes`));
      }
      const parsed = parseClientRequest(rawToString(data));
      if (!parsed.ok) return send(parsed.error);
      handle(parsed.request, { connection, watches, send, sendView, closed: () => closed }).then(send, (error: unknown) => {
        onError(error);
        send(wireError(parsed.request.id, 'server-error', 'the host failed to handle this request'));
      });
    });
  });

  const timer = heartbeatMs > 0
    ? setInterval(() => {
      for (const socket of sockets) {
        if (alive.get(socket) === false) { socket.terminate(); continue; }
        alive.set(socket, false);
        socket.ping();
      }
    }, heartbeatMs)
    : undefined;
  timer?.unref?.();

  const address = options.server ? options.server.address() : wss.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    port,
    get connectionCount() { return sockets.size; },
    dropConnections() { for (const socket of sockets) socket.terminate(); },
    close() {
      attached?.off('upgrade', onUpgrade);
      if (timer) clearInterval(timer);
      for (const socket of sockets) socket.terminate();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (data instanceof ArrayBuffer ? Buffer.from(data) : data).toString('utf8');
}
