/*
 * One host process's place in a cluster: its heartbeat, the sessions it owns, and where every other
 * session is served. See docs/cluster.md for the design and its reasons.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import type { SessionId } from '../../protocol/index.js';
import { Liveness } from './liveness.js';
import { Suspicions } from './suspicion.js';
import { challengeFor, wellFormedNonce } from './handshake.js';
import { PEER_HEADER } from '../ws/peerWire.js';
import { forgetDeadWorkers, heartbeat, leave, OwnerLookups, register, release, tablesIn, withTimeout, type Tables } from './ownership.js';
import type { SessionRouter } from '../ws/router.js';
import { createSessionRouter } from './routing.js';
import type { ClusterOptions, Route } from './types.js';
import { DEFAULT_PEER_LIMITS, Peers, RETRY_MS, type PeerConnection } from './peers.js';

export type { Route } from './types.js';

/** How long a remote owner is trusted without asking the database (a refusal or a broken connection forgets it sooner). */
const REMOTE_KEPT_MS = 20_000;

/** The cluster membership of one host process. Create it with `joinCluster`. */
export class ClusterNode {
  readonly workerId: string;
  /** How long a forwarded request may go unanswered before its owner is suspected frozen (`peers.stallMs`). */
  readonly stallMs: number;
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
  readonly #suspicions: Suspicions;
  readonly #liveness: Liveness;
  readonly #lookups: OwnerLookups;
  #reconfirming: Promise<boolean> | undefined;
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
    this.#heartbeatMs = options.heartbeatMs ?? 1_000;
    this.#expiryMs = options.expiryMs ?? 10_000;
    if (!(this.#heartbeatMs > 0 && this.#expiryMs >= 3 * this.#heartbeatMs)) {
      throw new Error('joinCluster: `expiryMs` must be at least three heartbeats (`heartbeatMs` > 0)');
    }
    this.#secret = Buffer.from(options.secret);
    this.#t = tablesIn(options.schema ?? 'public');
    const peers = { ...DEFAULT_PEER_LIMITS, ...options.peers };
    this.stallMs = peers.stallMs;
    this.#peers = new Peers(
      options.secret,
      peers,
      (url) => void this.suspect(url),
      (url) => this.#report(new Error(`cluster: the process the workers table names at ${url} did not prove the cluster's secret`)),
    );
    this.#lookups = new OwnerLookups(options.db, this.#t, this.workerId, this.#expiryMs);
    this.#suspicions = new Suspicions(options.db, this.#t, this.workerId, this.#expiryMs, (error) => this.#report(error));
    this.#liveness = new Liveness(options.heartbeatDb ?? options.db, this.workerId, (error) => this.#livenessLost(error));
  }

  /** Creates the tables (idempotent), registers this process and starts its heartbeat. */
  async start(): Promise<void> {
    // The lock first: a row that says `locked` is always backed by a held lock.
    await register(this.#options.db, this.#t, this.workerId, this.#options.url, await this.#liveness.take());
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

  /** Whether an upgrade claims to be a peer's (it must then prove it knows the secret: `challengePeer`). */
  isPeer(request: IncomingMessage): boolean {
    return request.headers[PEER_HEADER] !== undefined;
  }

  /**
   * The challenge a claimed peer must answer (handshake.ts): the secret is never sent, and the
   * answer is bound to this process's own `url`. Null when the upgrade carries no well-formed nonce.
   */
  challengePeer(request: IncomingMessage): { challenge: string; verify(answer: string): boolean } | null {
    const peerNonce = request.headers[PEER_HEADER];
    return wellFormedNonce(peerNonce) ? challengeFor(this.#secret, peerNonce, this.#options.url) : null;
  }

  /** The router of one WebSocket server's connections (`createWebSocketServer({ cluster })` calls it). */
  createRouter(): SessionRouter {
    return createSessionRouter(this);
  }

  /**
   * Where a request for the session is served. A peer's request is never sent on: the process it
   * reached takes the session if it can, else tells it to ask again (the owner moved).
   */
  route(sessionId: SessionId, fromPeer: boolean): Promise<Route> {
    if (this.#closed) return Promise.resolve(retry('this process is stopping'));
    if (!this.#fresh()) {
      // Paused or cut off past the heartbeat's margin: peers may have taken some sessions meanwhile.
      return this.#reconfirm().then((ok) =>
        ok ? this.#route(sessionId, fromPeer) : retry(`this process cannot reach the database; retry in ${RETRY_MS} ms`),
      );
    }
    return this.#route(sessionId, fromPeer);
  }

  #route(sessionId: SessionId, fromPeer: boolean): Promise<Route> {
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

  /** The connection to a remote owner (shared by every principal); null when `peers.maxConnections` are open and busy. */
  connect(url: string): PeerConnection | null {
    return this.#peers.connection(url);
  }

  /** Learns the session's record (its owner) from the store so that the policy can be asked; 'failed': the database did not answer. */
  async peek(sessionId: SessionId): Promise<boolean | 'failed'> {
    if (this.#options.host.hasSession(sessionId) || !this.#options.store.peek) return this.#options.host.hasSession(sessionId);
    try {
      return await this.#options.store.peek(sessionId);
    } catch (error) {
      this.#report(error);
      return 'failed';
    }
  }

  /** Forget a remote owner seen lately (it did not answer, or said it no longer owns the session). */
  forgetRemote(sessionId: SessionId): void {
    this.#remote.delete(sessionId);
  }

  /** A session this process just opened: it owns it from the start, its writes fenced by the token. */
  async adopt(sessionId: SessionId): Promise<void> {
    await this.#options.store.flush?.(sessionId);
    const owner = await this.#lookups.acquire(sessionId);
    if (owner?.kind !== 'mine') throw new Error(`session ${sessionId} was opened here but another process owns it`);
    // Fenced like a routed session: once a peer takes it over, a write still queued here is refused.
    this.#options.store.setFence?.(sessionId, owner.token);
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
    this.#liveness.close();
  }

  /** A connection to the process at `url` broke: removes it when it is provably dead (see `Suspicions`). */
  suspect(url: string): Promise<number> {
    return this.#suspicions.suspect(url);
  }

  /** Resolves once the process at `url` may be taken for dead (see `Suspicions.whenExpired`). */
  whenExpired(url: string): Promise<void> {
    return this.#suspicions.whenExpired(url);
  }

  /**
   * After a gap in the heartbeat: renews it now, then keeps only the sessions the table still gives
   * this process with the same token (a peer that took one raised it). False when the database
   * cannot be reached: then nothing is served.
   */
  #reconfirm(): Promise<boolean> {
    this.#reconfirming ??= (async () => {
      const sentAt = Date.now();
      try {
        if (this.#lockMissing()) await withTimeout(this.#register(), this.#expiryMs);
        const alive = await withTimeout(heartbeat(this.#liveness.db, this.#t, this.workerId), this.#expiryMs);
        if (alive) await withTimeout(this.#keepOnlyMine(), this.#expiryMs);
        else {
          // Declared dead and cleaned up by a peer: whatever it owned may be someone else's now.
          this.#stopServing();
          await this.#register();
        }
        this.#lastBeat = sentAt;
        this.#healthy = true;
        return true;
      } catch (error) {
        this.#lost(error);
        return false;
      }
    })().finally(() => (this.#reconfirming = undefined));
    return this.#reconfirming;
  }

  async #keepOnlyMine(): Promise<void> {
    const { rows } = await this.#options.db.query(`SELECT session_id, token::text AS token FROM ${this.#t.owners} WHERE owner_id = $1`, [
      this.workerId,
    ]);
    const held = new Map(rows.map((row) => [row.session_id as string, BigInt(row.token as string)]));
    for (const [sessionId, token] of [...this.#owned]) if (held.get(sessionId) !== token) this.#drop(sessionId);
  }

  /** The database cannot be reached past the margin: serve nothing until it can. */
  #lost(error: unknown): void {
    if (!this.#healthy) return;
    this.#healthy = false;
    this.#report(
      new Error(`cluster: heartbeat failed for ${Date.now() - this.#lastBeat} ms; this process stops serving its sessions`, {
        cause: error,
      }),
    );
    this.#stopServing();
  }

  /** The heartbeat was renewed recently enough that no peer can have declared this process dead. */
  #fresh(): boolean {
    return this.#healthy && Date.now() - this.#lastBeat <= this.#expiryMs - this.#heartbeatMs;
  }

  async #resolve(sessionId: SessionId, fromPeer: boolean): Promise<Route> {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const owner = await this.#lookups.acquire(sessionId);
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
        this.#options.unload(sessionId);
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
   * Renews the heartbeat. A process that cannot renew it for `expiryMs` minus one heartbeat (by its
   * own clock, from when the last good renewal was sent) stops serving: by the time the database
   * calls it dead it has let go, and fencing refuses any write still queued. One that renews it
   * late (paused, busy) keeps only the sessions whose token is still its own.
   */
  async #beat(): Promise<void> {
    const sentAt = Date.now();
    // By then a renewal must have succeeded, or this process lets go.
    const deadline = this.#lastBeat + this.#expiryMs - this.#heartbeatMs;
    try {
      if (sentAt > deadline) {
        // A gap (a paused process, a busy event loop): renew, and let go of what peers took meanwhile.
        await this.#reconfirm();
      } else {
        if (this.#lockMissing()) await withTimeout(this.#register(), Math.max(1, deadline - sentAt));
        const alive = await withTimeout(heartbeat(this.#liveness.db, this.#t, this.workerId), Math.max(1, deadline - sentAt));
        if (!alive) {
          this.#stopServing();
          await this.#register();
        }
        this.#lastBeat = sentAt;
        this.#healthy = true;
      }
      if (Math.random() < 0.01) await forgetDeadWorkers(this.#options.db, this.#t, 60 * this.#expiryMs);
    } catch (error) {
      if (Date.now() >= deadline) this.#lost(error);
    } finally {
      this.#schedule();
    }
  }

  /** Registers again (its heartbeat renewed), saying whether the liveness lock is held. */
  async #register(): Promise<void> {
    if (this.#lockMissing()) await this.#liveness.take().catch((error: unknown) => this.#report(error));
    await register(this.#options.db, this.#t, this.workerId, this.#options.url, this.#liveness.held);
  }

  #lockMissing(): boolean {
    return this.#liveness.possible && !this.#liveness.held;
  }

  /** The lock's connection ended: peers may call this process dead at once, so it lets go at once. */
  #livenessLost(error: Error | undefined): void {
    this.#report(new Error("cluster: the liveness lock's connection ended; this process stops serving its sessions", { cause: error }));
    this.#stopServing();
    this.#healthy = false;
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

/** Joins the cluster: creates its tables if needed, registers this process, starts its heartbeat. */
export async function joinCluster(options: ClusterOptions): Promise<ClusterNode> {
  const node = new ClusterNode(options);
  await node.start();
  return node;
}
