/*
 * One host process's place in a cluster: its heartbeat, the sessions it owns, and where every other
 * session is served. See docs/cluster.md for the design and its reasons.
 */
import { timingSafeEqual, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import { PrincipalSchema, SYSTEM_PRINCIPAL, type Principal, type SessionId } from '../../protocol/index.js';
import { acquire, forgetDeadWorkers, heartbeat, leave, register, release, tablesIn, type Queryable, type Tables } from './ownership.js';
import { Peers, PRINCIPAL_HEADER, RETRY_MS, SECRET_HEADER, type PeerConnection, type PeerLimits } from './peers.js';

/** The parts of a Host the cluster drives (a `Host` from `task-surface/host` fits). */
export interface ClusterHost {
  /** Reads a stored session into this process (the Postgres store's Host has it); false when there is none. */
  load?(sessionId: SessionId): Promise<boolean>;
  hasSession(sessionId: SessionId): boolean;
}

/** The parts of a store the cluster drives (`createPostgresStore`'s store fits). */
export interface ClusterStore {
  /** Appends of the session commit only while `ts_session_owners` holds this token. */
  setFence?(sessionId: SessionId, token: bigint | undefined): void;
  /** Resolves when every write of the session made so far is committed. */
  flush?(sessionId?: SessionId): Promise<void>;
  /** Drops this process's copy of the session (the next load reads it afresh). */
  unload?(sessionId: SessionId): void;
  /** A write failed or was fenced: this process no longer serves the session. */
  onLost?(listener: (sessionId: SessionId, error: Error) => void): () => void;
}

export interface ClusterOptions {
  /** The shared database: a small pool of the cluster's own (taking sessions, leaving). */
  db: Queryable;
  /**
   * Where the heartbeat is renewed: a connection nothing else uses (a pool of one), so that a renewal
   * never waits behind other queries. Default `db`.
   */
  heartbeatDb?: Queryable;
  /** The store's schema (its tables, `ts_workers` among them, are there). Default `public`. */
  schema?: string;
  host: ClusterHost;
  store: ClusterStore;
  /** Stops serving a session in this process (its actors stop; its log stays in the store). */
  unload(sessionId: SessionId): void;
  /** This process's WebSocket endpoint as its peers reach it, e.g. `ws://10.0.0.5:8787/ws`. */
  url: string;
  /** Shared by every process of the cluster; a peer connection must present it. At least 16 characters. */
  secret: string;
  /** Unique per process. Default: host name, pid and a random suffix. */
  workerId?: string;
  /** How often the heartbeat is renewed. Default 500 ms. */
  heartbeatMs?: number;
  /** A process whose heartbeat is older than this is dead: its sessions may be taken. Default 2,000 ms. */
  expiryMs?: number;
  peers?: Partial<PeerLimits>;
  onError?(error: unknown): void;
}

/** Where one request for a session goes. */
export type Route =
  | { kind: 'local' }
  | { kind: 'remote'; url: string }
  | { kind: 'unknown' }
  /** Nowhere right now (a takeover is under way, too many peer connections…): the client retries. */
  | { kind: 'retry'; message: string; retryAfterMs: number };

/** How long a remote owner is trusted without asking the database (a refusal or a broken connection forgets it sooner). */
const REMOTE_KEPT_MS = 20_000;

export const DEFAULT_PEER_LIMITS: PeerLimits = { maxConnections: 256, maxInFlight: 4_096, timeoutMs: 15_000, idleMs: 60_000 };

/** The cluster membership of one host process. Create it with `joinCluster`. */
export class ClusterNode {
  readonly workerId: string;
  readonly #options: ClusterOptions;
  readonly #heartbeatMs: number;
  readonly #expiryMs: number;
  readonly #peers: Peers;
  readonly #secret: Buffer;
  readonly #t: Tables;
  /** Sessions this process owns, with their fencing token. */
  readonly #owned = new Map<SessionId, bigint>();
  readonly #resolving = new Map<SessionId, Promise<Route>>();
  /** Remote owners seen lately (saves a query per forwarded request). */
  readonly #remote = new Map<SessionId, { url: string; at: number }>();
  readonly #released = new Set<(sessionId: SessionId) => void>();
  #lastBeat = Date.now();
  #healthy = true;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopLost: (() => void) | undefined;

  constructor(options: ClusterOptions) {
    if (typeof options.secret !== 'string' || options.secret.length < 16) {
      throw new Error('joinCluster: `secret` must be a string of at least 16 characters, the same in every process');
    }
    this.#options = options;
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.#heartbeatMs = options.heartbeatMs ?? 500;
    this.#expiryMs = options.expiryMs ?? 2_000;
    if (!(this.#heartbeatMs > 0 && this.#expiryMs >= 3 * this.#heartbeatMs)) {
      throw new Error('joinCluster: `expiryMs` must be at least three heartbeats (`heartbeatMs` > 0)');
    }
    this.#secret = Buffer.from(options.secret);
    this.#t = tablesIn(options.schema ?? 'public');
    this.#peers = new Peers(options.secret, { ...DEFAULT_PEER_LIMITS, ...options.peers });
  }

  /** Creates the tables (idempotent), registers this process and starts its heartbeat. */
  async start(): Promise<void> {
    await register(this.#options.db, this.#t, this.workerId, this.#options.url);
    this.#lastBeat = Date.now();
    this.#stopLost = this.#options.store.onLost?.((sessionId) => this.#drop(sessionId));
    this.#schedule();
  }

  /** Sessions this process serves now. */
  get ownedCount(): number {
    return this.#owned.size;
  }

  /** Open connections to peers. */
  get peerConnectionCount(): number {
    return this.#peers.size;
  }

  /** Serving: joined, not closed, and the heartbeat renewed in time (what a health check asks). */
  get serving(): boolean {
    return !this.#closed && this.#fresh();
  }

  owns(sessionId: SessionId): boolean {
    return this.#owned.has(sessionId);
  }

  /** Runs when this process stops serving a session (lost, fenced, or its heartbeat lapsed). */
  onReleased(listener: (sessionId: SessionId) => void): () => void {
    this.#released.add(listener);
    return () => this.#released.delete(listener);
  }

  /**
   * A peer's upgrade request: the principal it acts as; null when it claims to be a peer with a
   * wrong secret or principal (HTTP 401); undefined when it is an ordinary client.
   */
  peerPrincipal(request: IncomingMessage): Principal | null | undefined {
    const secret = request.headers[SECRET_HEADER];
    if (secret === undefined) return undefined;
    const given = Buffer.from(String(secret));
    if (given.length !== this.#secret.length || !timingSafeEqual(given, this.#secret)) return null;
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

  /**
   * Whether a connection is a peer's (its requests are never sent on). A request with the header
   * and a wrong secret never became a connection: `peerPrincipal` refused it.
   */
  isPeer(request: IncomingMessage): boolean {
    return request.headers[SECRET_HEADER] !== undefined;
  }

  /**
   * Where a request for the session is served. A peer's request is never sent on: the process it
   * reached takes the session if it can, else tells it to ask again (the owner moved).
   */
  route(sessionId: SessionId, fromPeer: boolean): Promise<Route> {
    if (this.#closed) return Promise.resolve(retry('this process is stopping'));
    if (!this.#fresh()) {
      // Frozen or cut off past the heartbeat's margin: peers may have taken the sessions already.
      this.#stopServing();
      return Promise.resolve(retry('this process has not renewed its heartbeat in time; retry in a moment'));
    }
    if (this.#owned.has(sessionId) && this.#options.host.hasSession(sessionId)) return Promise.resolve({ kind: 'local' });
    const remote = this.#remote.get(sessionId);
    if (!fromPeer && remote && Date.now() - remote.at < REMOTE_KEPT_MS) return Promise.resolve({ kind: 'remote', url: remote.url });
    let resolving = this.#resolving.get(sessionId);
    if (!resolving) {
      resolving = this.#resolve(sessionId, fromPeer).finally(() => this.#resolving.delete(sessionId));
      this.#resolving.set(sessionId, resolving);
    }
    return resolving;
  }

  /** The connection to a remote owner as `principal`; null when `peers.maxConnections` are open and busy. */
  connect(url: string, principal: Principal): PeerConnection | null {
    return this.#peers.connection(url, principal);
  }

  /** Forget a remote owner seen lately (it did not answer, or said it no longer owns the session). */
  forgetRemote(sessionId: SessionId): void {
    this.#remote.delete(sessionId);
  }

  /** A session this process just opened: it owns it from the start. */
  async adopt(sessionId: SessionId): Promise<void> {
    await this.#options.store.flush?.(sessionId);
    const owner = await acquire(this.#options.db, this.#t, sessionId, this.workerId, this.#expiryMs);
    if (owner?.kind !== 'mine') throw new Error(`session ${sessionId} was opened here but another process owns it`);
    this.#own(sessionId, owner.token);
  }

  /** Gives every session up and leaves the cluster (a graceful stop: peers take over at once). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#stopLost?.();
    this.#peers.close();
    for (const sessionId of [...this.#owned.keys()]) this.#drop(sessionId);
    await leave(this.#options.db, this.#t, this.workerId).catch((error: unknown) => this.#report(error));
  }

  /** The heartbeat was renewed recently enough that no peer can have declared this process dead. */
  #fresh(): boolean {
    return this.#healthy && Date.now() - this.#lastBeat <= this.#expiryMs - this.#heartbeatMs;
  }

  async #resolve(sessionId: SessionId, fromPeer: boolean): Promise<Route> {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const owner = await acquire(this.#options.db, this.#t, sessionId, this.workerId, this.#expiryMs);
        if (owner === null) continue;
        if (owner.kind === 'peer' && owner.workerId !== this.workerId) {
          if (fromPeer) return retry(`session "${sessionId}" moved to another process; retry in ${RETRY_MS} ms`);
          this.#remote.set(sessionId, { url: owner.url, at: Date.now() });
          return { kind: 'remote', url: owner.url };
        }
        if (owner.kind !== 'mine') continue;
        this.#options.store.setFence?.(sessionId, owner.token);
        // Whatever copy this process held (read for a list, or from before it lost the session) may
        // be older than the log: read it afresh under the new token.
        this.#options.store.unload?.(sessionId);
        const exists = this.#options.host.load ? await this.#options.host.load(sessionId) : this.#options.host.hasSession(sessionId);
        if (!exists) {
          this.#options.store.setFence?.(sessionId, undefined);
          await release(this.#options.db, this.#t, sessionId, this.workerId, owner.token);
          return { kind: 'unknown' };
        }
        this.#own(sessionId, owner.token);
        return { kind: 'local' };
      }
      return retry(`session "${sessionId}" is changing owner; retry in ${RETRY_MS} ms`);
    } catch (error) {
      this.#report(error);
      return retry(`the database did not answer while finding who serves session "${sessionId}"; retry in ${RETRY_MS} ms`);
    }
  }

  #own(sessionId: SessionId, token: bigint): void {
    this.#owned.set(sessionId, token);
    this.#remote.delete(sessionId);
  }

  /** Stops serving a session here: unloaded, and every local watcher told to find its new home. */
  #drop(sessionId: SessionId): void {
    if (!this.#owned.delete(sessionId)) return;
    try {
      this.#options.unload(sessionId);
    } catch (error) {
      this.#report(error);
    }
    for (const listener of [...this.#released]) listener(sessionId);
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#beat(), this.#heartbeatMs);
    this.#timer.unref();
  }

  /**
   * Renews the heartbeat. A process that has not renewed it for `expiryMs` minus one heartbeat
   * (by its own clock, from when the last successful renewal was sent) stops serving: by the time
   * the database calls it dead, it has already let go, and fencing refuses any write still queued.
   */
  async #beat(): Promise<void> {
    const sentAt = Date.now();
    try {
      const alive = await withTimeout(heartbeat(this.#options.heartbeatDb ?? this.#options.db, this.#t, this.workerId), this.#expiryMs);
      // Renewed, but after a gap (a frozen process, a long pause): peers may have taken over meanwhile.
      if (!alive || sentAt - this.#lastBeat > this.#expiryMs - this.#heartbeatMs) {
        // Declared dead and cleaned up by a peer: whatever it owned may be someone else's now.
        this.#stopServing();
        await register(this.#options.db, this.#t, this.workerId, this.#options.url);
      }
      this.#lastBeat = sentAt;
      this.#healthy = true;
      if (Math.random() < 0.01) await forgetDeadWorkers(this.#options.db, this.#t, 60 * this.#expiryMs);
    } catch (error) {
      if (Date.now() - this.#lastBeat > this.#expiryMs - this.#heartbeatMs && this.#healthy) {
        this.#healthy = false;
        this.#report(
          new Error(`cluster: heartbeat failed for ${Date.now() - this.#lastBeat} ms; this process stops serving its sessions`, {
            cause: error,
          }),
        );
        this.#stopServing();
      }
    } finally {
      this.#schedule();
    }
  }

  #stopServing(): void {
    for (const sessionId of [...this.#owned.keys()]) this.#drop(sessionId);
  }

  #report(error: unknown): void {
    (this.#options.onError ?? ((e: unknown) => console.error('[task-surface cluster]', e)))(error);
  }
}

export function retry(message: string): Route {
  return { kind: 'retry', message, retryAfterMs: RETRY_MS };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Joins the cluster: creates its tables if needed, registers this process, starts its heartbeat. */
export async function joinCluster(options: ClusterOptions): Promise<ClusterNode> {
  const node = new ClusterNode(options);
  await node.start();
  return node;
}
