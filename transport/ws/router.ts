/*
 * What the WebSocket server asks of something that places sessions across processes (a cluster):
 * the server defines these shapes and knows nothing of who implements them.
 */
import type { IncomingMessage } from 'node:http';
import type { Principal, ScopedHostApi, SessionId, SessionView } from '../../protocol/index.js';
import type { ClientRequest, ServerMessage } from '../../protocol/wire.js';

/** One client connection, as the `authorize` hook sees it. */
export interface WebSocketConnection {
  /** Unique per connection (a reconnect is a new connection). */
  readonly id: string;
  /** The HTTP upgrade request: headers, cookies, URL (query parameters). */
  readonly request: IncomingMessage;
  /** Who the connection acts as (from `authenticate`; the system principal with `allowAnonymous`). */
  readonly principal: Principal;
  /** A free slot for the embedding application. */
  readonly data: Record<string, unknown>;
}

/** One connection as a request handler (and a router) sees it. */
export interface ConnectionContext {
  connection: WebSocketConnection;
  /** The Host as the connection's principal sees it (`host.as(connection.principal)`). */
  host: ScopedHostApi;
  /** The connection's session watches; the server releases them all when it closes. */
  watches: Map<SessionId, () => void>;
  send(message: ServerMessage): void;
  /** Pushes a session view; views of one session coalesce to the newest per event-loop turn. */
  sendView(sessionId: SessionId, view: SessionView): void;
  /** True once the connection closed: a late watch must not outlive it. */
  closed(): boolean;
}

/** A request that names a session. */
export type SessionRequest = ClientRequest & { params: { sessionId: SessionId } };

/** Decides where each session-scoped request of a connection is answered. */
export interface SessionRouter {
  /** Whether the connection is a peer's (more in flight and more watches; never sent on). */
  isPeer(ctx: ConnectionContext): boolean;
  /** Answers a session-scoped request (not a watch): `local()` when this process serves the session. */
  serve(request: SessionRequest, ctx: ConnectionContext, local: () => Promise<ServerMessage>): Promise<ServerMessage>;
  /**
   * Starts watching the session for the connection (`ctx.watches` holds the release), wherever it
   * is served. `local(listener)` watches it in this process's Host (access already checked).
   */
  watch(
    request: SessionRequest,
    ctx: ConnectionContext,
    local: (listener: (view: SessionView) => void) => () => void,
  ): Promise<ServerMessage>;
  /** A session this process just opened. */
  opened(sessionId: SessionId): Promise<void>;
}

/**
 * What `createWebSocketServer({ cluster })` plugs in: a `ClusterNode` from
 * `task-surface/transport/cluster` is one. Another implementation (a different placement scheme)
 * needs only these members.
 *
 * A peer is another process of the cluster. Its upgrade carries `PEER_HEADER` (peerWire.ts); the
 * server then sends `challengePeer(request).challenge` as the connection's first frame and reads
 * nothing but the answer, which `verify` must accept within `PEER_PROOF_MS`, else the socket is
 * closed (`CLOSE_PEER_REFUSED`). Until then the socket counts against its address like any client's.
 * A proven peer's frames each name their principal (`peerFrame`), and each is served as that
 * principal, exactly as a connection of its own would be.
 */
export interface WebSocketCluster {
  /** Whether an upgrade claims to be a peer's (it must prove it before anything is read). */
  isPeer(request: IncomingMessage): boolean;
  /** The challenge for a claimed peer and the check of its answer; null refuses the upgrade (HTTP 401). */
  challengePeer(request: IncomingMessage): { challenge: string; verify(answer: string): boolean } | null;
  /** The router of one server's connections (called once per server). */
  createRouter(): SessionRouter;
}
