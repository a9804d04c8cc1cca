/*
 * Connections from this process to its peers: the ordinary wire protocol, on the peer's ordinary
 * endpoint, authenticated by the cluster's shared secret and carrying the principal the forwarded
 * requests act as. One connection per (peer, principal), shared by every client of that principal.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import {
  isSystem,
  mintUuid,
  PrincipalSchema,
  SYSTEM_PRINCIPAL,
  type Principal,
  type SessionId,
  type SessionView,
} from '../../protocol/index.js';
import { ServerMessageSchema, wireError, type ServerMessage } from '../../protocol/wire.js';

/** Header carrying the shared secret on a peer's upgrade request. */
export const SECRET_HEADER = 'x-task-surface-cluster';
/** Header carrying the principal (JSON, base64url) a peer connection acts as. */
export const PRINCIPAL_HEADER = 'x-task-surface-principal';

export interface PeerLimits {
  /** Connections to peers at once (one per peer and principal); past it a forward is answered `busy`. */
  maxConnections: number;
  /** Forwarded requests waiting for their answer on one connection; past it `busy`. */
  maxInFlight: number;
  /** A forwarded request the owner does not answer within this is answered `busy` (the client asks again). */
  timeoutMs: number;
  /** A connection with nothing in flight and no watch is closed after this long. */
  idleMs: number;
  /**
   * A forwarded request the owner has not answered within this makes the owner a suspect: once its
   * heartbeat is older than the expiry by the database's clock, this process takes the session and
   * answers (a frozen owner), else the answer is awaited as usual (a slow one).
   */
  stallMs: number;
}

export const DEFAULT_PEER_LIMITS: PeerLimits = {
  maxConnections: 256,
  maxInFlight: 4_096,
  timeoutMs: 15_000,
  idleMs: 60_000,
  stallMs: 2_000,
};

/** Asked again later: what a client is told while a session's owner cannot be reached. */
export const RETRY_MS = 250;

type ViewListener = (view: SessionView) => void;

interface Waiting {
  resolve(message: ServerMessage): void;
  answer: Promise<ServerMessage>;
  timer: ReturnType<typeof setTimeout>;
}

/** One open (or opening) connection to a peer as one principal. */
class PeerConnection {
  readonly #socket: WebSocket;
  readonly #opened: Promise<boolean>;
  readonly #waiting = new Map<string, Waiting>();
  readonly #views = new Map<SessionId, Set<ViewListener>>();
  readonly #broken = new Set<() => void>();
  #closed = false;
  usedAt = Date.now();

  constructor(
    readonly url: string,
    principal: Principal,
    secret: string,
    private readonly limits: PeerLimits,
    /** `broken`: the socket closed by itself (the peer died or the network failed), not by `close()`. */
    private readonly onClosed: (broken: boolean) => void,
  ) {
    const headers = { [SECRET_HEADER]: secret, [PRINCIPAL_HEADER]: encodePrincipal(principal) };
    this.#socket = new WebSocket(url, { headers, maxPayload: 64 * 1024 * 1024, handshakeTimeout: limits.timeoutMs });
    this.#opened = new Promise((resolve) => {
      this.#socket.once('open', () => resolve(true));
      this.#socket.once('close', () => resolve(false));
    });
    this.#socket.on('error', () => {});
    this.#socket.on('message', (data) => this.#receive(String(data)));
    this.#socket.on('close', () => this.#close(true));
  }

  get busy(): boolean {
    return this.#waiting.size > 0 || this.#views.size > 0;
  }

  /** Sends the request (with the client's own id, so the owner's retry cache sees a retry) and waits for its answer. */
  async request(frame: { id: string; type: string; params: unknown }): Promise<ServerMessage> {
    this.usedAt = Date.now();
    const already = this.#waiting.get(frame.id);
    if (already) return already.answer; // the client re-sent it while the first is still on its way
    if (this.#waiting.size >= this.limits.maxInFlight) {
      return wireError(
        frame.id,
        'busy',
        `${this.#waiting.size} forwarded requests are waiting for the process serving this session; retry in ${RETRY_MS} ms`,
        RETRY_MS,
      );
    }
    let resolve!: (message: ServerMessage) => void;
    const answer = new Promise<ServerMessage>((r) => (resolve = r));
    const timer = setTimeout(() => {
      this.#settle(
        frame.id,
        // Asked again with the same id, the owner answers from its retry cache: a retry is safe.
        wireError(
          frame.id,
          'busy',
          `the process serving session "${sessionOf(frame)}" did not answer within ${this.limits.timeoutMs} ms; retry in ${RETRY_MS} ms`,
          RETRY_MS,
        ),
      );
    }, this.limits.timeoutMs);
    this.#waiting.set(frame.id, { resolve, answer, timer });
    if (!(await this.#opened) || this.#closed) {
      this.#settle(frame.id, unreachable(frame.id));
      return answer;
    }
    this.#socket.send(JSON.stringify(frame));
    return answer;
  }

  /**
   * Watches a session on the peer: the answer to the watch request, and views as they come. `broken`
   * runs once if the connection goes away while watching.
   */
  async watch(
    sessionId: SessionId,
    requestId: string,
    listener: ViewListener,
    broken: () => void,
  ): Promise<{ answer: ServerMessage; stop(): void }> {
    let listeners = this.#views.get(sessionId);
    const first = !listeners;
    if (!listeners) this.#views.set(sessionId, (listeners = new Set()));
    listeners.add(listener);
    this.#broken.add(broken);
    const stop = () => {
      this.#broken.delete(broken);
      const set = this.#views.get(sessionId);
      if (!set?.delete(listener) || set.size > 0) return;
      this.#views.delete(sessionId);
      if (!this.#closed && this.#socket.readyState === WebSocket.OPEN) {
        this.#socket.send(JSON.stringify({ id: mintUuid(), type: 'session.unwatch', params: { sessionId } }));
      }
    };
    // A second watcher of a session already watched asks again too: the owner answers with the current view.
    const answer = await this.request({ id: requestId, type: 'session.watch', params: { sessionId } });
    if (answer.type === 'error' || (first && this.#closed)) stop();
    return { answer, stop };
  }

  close(): void {
    this.#socket.terminate();
    this.#close(false);
  }

  #receive(text: string): void {
    this.usedAt = Date.now();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    // Parsed by the wire schema like any server's frames: a peer that passed the secret may still
    // be a stale, newer or broken build, and its answers go on to clients as they are.
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      if (typeof id === 'string') {
        this.#settle(id, wireError(id, 'server-error', 'the process serving this session answered with a malformed message'));
      }
      return;
    }
    const message = parsed.data as ServerMessage;
    if (message.type === 'session.view') {
      for (const listener of [...(this.#views.get(message.sessionId) ?? [])]) listener(message.view);
      return;
    }
    if (message.id !== null) this.#settle(message.id, message);
  }

  #settle(id: string, message: ServerMessage): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(message);
  }

  #close(broken: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...this.#waiting.keys()]) this.#settle(id, unreachable(id));
    this.#views.clear();
    const watches = [...this.#broken];
    this.#broken.clear();
    for (const run of watches) run();
    this.onClosed(broken);
  }
}

function sessionOf(frame: { params: unknown }): string {
  const params = frame.params as { sessionId?: unknown } | null;
  return typeof params?.sessionId === 'string' ? params.sessionId : '';
}

/**
 * The principal as a peer's upgrade header: host code's principal is known by identity, never by
 * its id (a user whose id is `system` gets no more than the policy gives), so it travels as a flag.
 */
export function encodePrincipal(principal: Principal): string {
  return Buffer.from(JSON.stringify(isSystem(principal) ? { system: true } : { principal })).toString('base64url');
}

/**
 * A peer's upgrade request: the principal it acts as; null when it claims to be a peer with a wrong
 * secret or principal (HTTP 401); undefined when it is an ordinary client (no cluster header).
 */
export function peerPrincipal(request: IncomingMessage, secret: Buffer): Principal | null | undefined {
  const given = request.headers[SECRET_HEADER];
  if (given === undefined) return undefined;
  const bytes = Buffer.from(String(given));
  if (bytes.length !== secret.length || !timingSafeEqual(bytes, secret)) return null;
  try {
    const raw = JSON.parse(Buffer.from(String(request.headers[PRINCIPAL_HEADER] ?? ''), 'base64url').toString()) as {
      system?: unknown;
      principal?: unknown;
    };
    if (raw.system === true) return SYSTEM_PRINCIPAL;
    const parsed = PrincipalSchema.safeParse(raw.principal);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The owner went away mid-request: the client asks again (same id) and reaches the next owner. */
export function unreachable(id: string): ServerMessage {
  // The peer's address is the cluster's own business: it never reaches a client.
  return wireError(id, 'busy', `the process serving this session cannot be reached; retry in ${RETRY_MS} ms`, RETRY_MS);
}

/** The connections to every peer, bounded, closed when idle. */
export class Peers {
  readonly #connections = new Map<string, PeerConnection>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly secret: string,
    private readonly limits: PeerLimits,
    /** A connection to `url` broke by itself: the process there may be dead. */
    private readonly onBroken: (url: string) => void = () => {},
  ) {
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(1_000, Math.min(limits.idleMs, 30_000)));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#connections.size;
  }

  /** The connection to `url` as `principal`, or null when `maxConnections` are open and none is idle. */
  connection(url: string, principal: Principal): PeerConnection | null {
    const key = `${url}\u0000${encodePrincipal(principal)}`;
    const known = this.#connections.get(key);
    if (known) return known;
    if (this.#connections.size >= this.limits.maxConnections && !this.#evictOne()) return null;
    const created = new PeerConnection(url, principal, this.secret, this.limits, (broken) => {
      if (this.#connections.get(key) === created) this.#connections.delete(key);
      if (broken) this.onBroken(url);
    });
    this.#connections.set(key, created);
    return created;
  }

  close(): void {
    clearInterval(this.#sweeper);
    for (const connection of [...this.#connections.values()]) connection.close();
  }

  #evictOne(): boolean {
    let oldest: PeerConnection | undefined;
    for (const connection of this.#connections.values()) {
      if (!connection.busy && (!oldest || connection.usedAt < oldest.usedAt)) oldest = connection;
    }
    oldest?.close();
    return oldest !== undefined;
  }

  #sweep(): void {
    const now = Date.now();
    for (const connection of [...this.#connections.values()]) {
      if (!connection.busy && now - connection.usedAt > this.limits.idleMs) connection.close();
    }
  }
}

export type { PeerConnection };
