/*
 * Connections to the other processes of the cluster: one per peer (the ordinary wire protocol on its
 * ordinary endpoint), proven by a challenge–response over the shared secret (handshake.ts), carrying
 * the requests and watches of every principal, each frame prefixed by its principal (peerWire.ts).
 * So peer traffic does not grow with the number of principals, and no set of visitors can fill it.
 */
import { WebSocket } from 'ws';
import { type Principal, type SessionId, type SessionView } from '../../protocol/index.js';
import { ServerMessageSchema, wireError, type ServerMessage } from '../../protocol/wire.js';
import { encodePrincipal, PEER_HEADER, peerFrame, splitPeerFrame } from '../ws/peerWire.js';
import { answerChallenge, nonce } from './handshake.js';

export interface PeerLimits {
  /** Peers connected at once (one connection each); past it, with none idle, a forward is answered `busy`. */
  maxConnections: number;
  /** Forwarded requests of one principal waiting for their answer on one connection; past it `busy`. */
  maxInFlight: number;
  /** A forwarded request the owner does not answer within this is answered `busy` (the client asks again). */
  timeoutMs: number;
  /** A connection with nothing in flight and no watch is closed after this long. */
  idleMs: number;
  /**
   * A forwarded request the owner has not answered within this, or a connection that has heard
   * nothing from it (not even a pong) for this long, makes the owner a suspect: once its heartbeat is
   * older than the expiry by the database's clock, this process takes its sessions (a frozen owner);
   * an owner that is only slow answers first.
   */
  stallMs: number;
}

export const DEFAULT_PEER_LIMITS: PeerLimits = {
  maxConnections: 256,
  maxInFlight: 1_024,
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
  token: string;
}

/** What a watch is told when its owner's connection goes away (`broken`) or silent (`stalled`). */
export interface WatchEvents {
  broken(): void;
  stalled(): void;
}

/** The one connection to a peer. */
class PeerConnection {
  readonly #socket: WebSocket;
  readonly #opened: Promise<boolean>;
  /** By principal prefix and request id: two principals' ids never meet. */
  readonly #waiting = new Map<string, Waiting>();
  readonly #inFlight = new Map<string, number>();
  /** By principal prefix and session. */
  readonly #views = new Map<string, Set<ViewListener>>();
  readonly #watchers = new Set<WatchEvents>();
  readonly #ticker: ReturnType<typeof setInterval>;
  #closed = false;
  #heardAt = Date.now();
  #stalled = false;
  usedAt = Date.now();

  constructor(
    readonly url: string,
    secret: Buffer,
    private readonly limits: PeerLimits,
    /** `broken`: the socket closed by itself (the peer died or the network failed), not by `close()`. */
    private readonly onClosed: (broken: boolean) => void,
    /** The process at `url` did not prove the cluster's secret. */
    onRefused: () => void,
  ) {
    const mine = nonce();
    this.#socket = new WebSocket(url, {
      headers: { [PEER_HEADER]: mine },
      maxPayload: 64 * 1024 * 1024,
      handshakeTimeout: limits.timeoutMs,
    });
    this.#opened = new Promise((resolve) => {
      this.#socket.once('close', () => resolve(false));
      this.#socket.once('message', (data) => {
        // Nothing is sent before the owner proved it knows the secret: a rogue address learns nothing.
        const answer = answerChallenge(secret, mine, url, String(data));
        if (answer === null) {
          onRefused();
          this.#socket.terminate();
          return resolve(false);
        }
        this.#socket.send(answer);
        this.#socket.on('message', (frame) => this.#receive(String(frame)));
        resolve(true);
      });
    });
    this.#socket.on('error', () => {});
    this.#socket.on('pong', () => this.#heard());
    this.#socket.on('close', () => this.#close(true));
    // A frozen owner keeps its TCP connection open and answers nothing, not even a ping.
    this.#ticker = setInterval(() => this.#tick(), Math.max(100, Math.floor(limits.stallMs / 2)));
    this.#ticker.unref();
  }

  get busy(): boolean {
    return this.#waiting.size > 0 || this.#views.size > 0;
  }

  /** True while the owner has been silent past `stallMs` (cleared by the next frame or pong). */
  get stalled(): boolean {
    return this.#stalled;
  }

  /** Sends the request as `principal` (with the client's own id, so the owner's retry cache sees a retry) and waits for its answer. */
  async request(principal: Principal, frame: { id: string; type: string; params: unknown }): Promise<ServerMessage> {
    this.usedAt = Date.now();
    const token = encodePrincipal(principal);
    const key = `${token} ${frame.id}`;
    const already = this.#waiting.get(key);
    if (already) return already.answer; // the client re-sent it while the first is still on its way
    const held = this.#inFlight.get(token) ?? 0;
    if (held >= this.limits.maxInFlight) {
      return wireError(
        frame.id,
        'busy',
        `${held} of your forwarded requests are waiting for the process serving this session; retry in ${RETRY_MS} ms`,
        RETRY_MS,
      );
    }
    let resolve!: (message: ServerMessage) => void;
    const answer = new Promise<ServerMessage>((r) => (resolve = r));
    const timer = setTimeout(() => {
      this.#settle(
        key,
        // Asked again with the same id, the owner answers from its retry cache: a retry is safe.
        wireError(
          frame.id,
          'busy',
          `the process serving session "${sessionOf(frame)}" did not answer within ${this.limits.timeoutMs} ms; retry in ${RETRY_MS} ms`,
          RETRY_MS,
        ),
      );
    }, this.limits.timeoutMs);
    this.#waiting.set(key, { resolve, answer, timer, token });
    this.#inFlight.set(token, held + 1);
    if (!(await this.#opened) || this.#closed) {
      this.#settle(key, unreachable(frame.id));
      return answer;
    }
    this.#socket.send(peerFrame(token, JSON.stringify(frame)));
    return answer;
  }

  /**
   * Watches a session on the peer as `principal`: the answer to the watch request, and views as
   * they come. `events.broken` runs once if the connection goes away while watching, `stalled` each
   * time the owner falls silent past `stallMs`.
   */
  async watch(
    principal: Principal,
    sessionId: SessionId,
    requestId: string,
    listener: ViewListener,
    events: WatchEvents,
  ): Promise<{ answer: ServerMessage; stop(): void }> {
    const token = encodePrincipal(principal);
    const key = `${token} ${sessionId}`;
    let listeners = this.#views.get(key);
    const first = !listeners;
    if (!listeners) this.#views.set(key, (listeners = new Set()));
    listeners.add(listener);
    this.#watchers.add(events);
    const stop = () => {
      this.#watchers.delete(events);
      const set = this.#views.get(key);
      if (!set?.delete(listener) || set.size > 0) return;
      this.#views.delete(key);
      if (!this.#closed && this.#socket.readyState === WebSocket.OPEN) {
        this.#socket.send(peerFrame(token, JSON.stringify({ id: `unwatch-${sessionId}`, type: 'session.unwatch', params: { sessionId } })));
      }
    };
    // A second watcher of a session already watched asks again too: the owner answers with the current view.
    const answer = await this.request(principal, { id: requestId, type: 'session.watch', params: { sessionId } });
    if (answer.type === 'error' || (first && this.#closed)) stop();
    return { answer, stop };
  }

  close(): void {
    this.#socket.terminate();
    this.#close(false);
  }

  #heard(): void {
    this.#heardAt = Date.now();
    this.#stalled = false;
  }

  #tick(): void {
    if (this.#closed || this.#socket.readyState !== WebSocket.OPEN) return;
    if (!this.#stalled && this.busy && Date.now() - this.#heardAt > this.limits.stallMs) {
      this.#stalled = true;
      for (const watcher of [...this.#watchers]) watcher.stalled();
    }
    this.#socket.ping();
  }

  #receive(text: string): void {
    this.usedAt = Date.now();
    this.#heard();
    const split = splitPeerFrame(text);
    if (!split) return;
    let json: unknown;
    try {
      json = JSON.parse(split.body);
    } catch {
      return;
    }
    // Parsed by the wire schema like any server's frames: a peer that proved the secret may still
    // be a stale, newer or broken build, and its answers go on to clients as they are.
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      if (typeof id === 'string') {
        this.#settle(
          `${split.token} ${id}`,
          wireError(id, 'server-error', 'the process serving this session answered with a malformed message'),
        );
      }
      return;
    }
    const message = parsed.data as ServerMessage;
    if (message.type === 'session.view') {
      for (const listener of [...(this.#views.get(`${split.token} ${message.sessionId}`) ?? [])]) listener(message.view);
      return;
    }
    if (message.id !== null) this.#settle(`${split.token} ${message.id}`, message);
  }

  #settle(key: string, message: ServerMessage): void {
    const waiting = this.#waiting.get(key);
    if (!waiting) return;
    this.#waiting.delete(key);
    clearTimeout(waiting.timer);
    const left = (this.#inFlight.get(waiting.token) ?? 1) - 1;
    if (left > 0) this.#inFlight.set(waiting.token, left);
    else this.#inFlight.delete(waiting.token);
    waiting.resolve(message);
  }

  #close(broken: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stalled = false; // a closed connection is broken, not silent: its watches were told
    clearInterval(this.#ticker);
    for (const [key, waiting] of [...this.#waiting]) this.#settle(key, unreachable(idOf(key, waiting.token)));
    this.#views.clear();
    const watchers = [...this.#watchers];
    this.#watchers.clear();
    for (const watcher of watchers) watcher.broken();
    this.onClosed(broken);
  }
}

const idOf = (key: string, token: string) => key.slice(token.length + 1);

function sessionOf(frame: { params: unknown }): string {
  const params = frame.params as { sessionId?: unknown } | null;
  return typeof params?.sessionId === 'string' ? params.sessionId : '';
}

/** The owner went away mid-request: the client asks again (same id) and reaches the next owner. */
export function unreachable(id: string): ServerMessage {
  // The peer's address is the cluster's own business: it never reaches a client.
  return wireError(id, 'busy', `the process serving this session cannot be reached; retry in ${RETRY_MS} ms`, RETRY_MS);
}

/** The connections to every peer, one each, bounded, closed when idle. */
export class Peers {
  readonly #connections = new Map<string, PeerConnection>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  readonly #secret: Buffer;

  constructor(
    secret: string,
    private readonly limits: PeerLimits,
    /** A connection to `url` broke by itself: the process there may be dead. */
    private readonly onBroken: (url: string) => void = () => {},
    /** The process at `url` did not prove the secret (a stale or rogue row in the workers table). */
    private readonly onRefused: (url: string) => void = () => {},
  ) {
    this.#secret = Buffer.from(secret);
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(1_000, Math.min(limits.idleMs, 30_000)));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#connections.size;
  }

  /** The connection to `url`, or null when `maxConnections` peers are connected and none is idle. */
  connection(url: string): PeerConnection | null {
    const known = this.#connections.get(url);
    if (known) return known;
    if (this.#connections.size >= this.limits.maxConnections && !this.#evictOne()) return null;
    const created = new PeerConnection(
      url,
      this.#secret,
      this.limits,
      (broken) => {
        if (this.#connections.get(url) === created) this.#connections.delete(url);
        if (broken) this.onBroken(url);
      },
      () => this.onRefused(url),
    );
    this.#connections.set(url, created);
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
