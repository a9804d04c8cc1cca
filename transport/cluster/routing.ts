/*
 * The WebSocket handler's side of the cluster: a session-scoped request is answered by this
 * process's Host when it owns the session, sent on to the owner otherwise, and a watch follows its
 * session from process to process (owner killed, ownership lost) without the client noticing.
 */
import type { IncomingMessage } from 'node:http';
import { isSystem, mintUuid, type SessionId, type SessionView } from '../../protocol/index.js';
import { wireError, type ServerMessage } from '../../protocol/wire.js';
import type { ConnectionContext, SessionRequest, SessionRouter } from '../ws/router.js';
import { RETRY_MS, type PeerConnection } from './peers.js';
import type { Route } from './types.js';

/** The parts of a cluster membership (`ClusterNode`) the router drives. */
export interface RoutingNode {
  isPeer(request: IncomingMessage): boolean;
  route(sessionId: SessionId, fromPeer: boolean): Promise<Route>;
  owns(sessionId: SessionId): boolean;
  connect(url: string): PeerConnection | null;
  /** Learns the session's record (its owner) so the policy can be asked; 'failed' when the database did not answer. */
  peek(sessionId: SessionId): Promise<boolean | 'failed'>;
  forgetRemote(sessionId: SessionId): void;
  whenExpired(url: string): Promise<void>;
  onReleased(listener: (sessionId: SessionId) => void): () => void;
  adopt(sessionId: SessionId): Promise<void>;
  readonly stallMs: number;
}

/** The router of one WebSocket server's connections over this process's cluster membership. */
const busyMoved = {
  kind: 'retry',
  message: `the session moved to another process; retry in ${RETRY_MS} ms`,
  retryAfterMs: RETRY_MS,
} as const;

export function createSessionRouter(node: RoutingNode): SessionRouter {
  const followers = new Map<SessionId, Set<Follower>>();
  node.onReleased((sessionId) => {
    for (const follower of [...(followers.get(sessionId) ?? [])]) follower.reattach();
  });

  const isPeer = (ctx: ConnectionContext) => node.isPeer(ctx.connection.request);

  /**
   * The policy first: a principal it refuses gets `unknown-session` before anything is acquired,
   * taken over, loaded or sent on. A session this process has not seen has its record (owner) read
   * first, so the policy is asked exactly as on the process that serves it. Null: go on.
   */
  const refused = async (request: SessionRequest, ctx: ConnectionContext): Promise<ServerMessage | null> => {
    if (isSystem(ctx.connection.principal)) return null;
    const { sessionId } = request.params;
    const known = await node.peek(sessionId);
    if (known === 'failed') {
      return answerFor(request, {
        kind: 'retry',
        message: `the database did not answer while finding session "${sessionId}"; retry in ${RETRY_MS} ms`,
        retryAfterMs: RETRY_MS,
      });
    }
    return known && ctx.host.access(sessionId) !== 'none' ? null : answerFor(request, { kind: 'unknown' });
  };
  const noPeerRoom = (request: SessionRequest) =>
    answerFor(request, {
      kind: 'retry',
      message: `too many connections to other processes are open; retry in ${RETRY_MS} ms`,
      retryAfterMs: RETRY_MS,
    });

  const answerFor = (request: SessionRequest, route: Exclude<Route, { kind: 'local' } | { kind: 'remote' }>): ServerMessage =>
    route.kind === 'unknown'
      ? wireError(request.id, 'unknown-session', `unknown session "${request.params.sessionId}"`)
      : wireError(request.id, 'busy', route.message, route.retryAfterMs);

  /** One connection's watch of one session, following it wherever it is served. */
  class Follower {
    #stop: () => void = () => {};
    #stopped = false;
    #local = false;
    #generation = 0;
    /** The owner this watch reached last, when it is another process. */
    #url: string | undefined;
    #timer: ReturnType<typeof setTimeout> | undefined;

    constructor(
      readonly sessionId: SessionId,
      private readonly ctx: ConnectionContext,
      private readonly local: (listener: (view: SessionView) => void) => () => void,
    ) {}

    readonly #send = (view: SessionView) => {
      if (!this.#stopped) this.ctx.sendView(this.sessionId, view);
    };

    /** Watches the session where it is served now; the answer to the watch request. */
    async attach(request: SessionRequest): Promise<ServerMessage> {
      const refusal = await refused(request, this.ctx);
      if (refusal) return refusal;
      const route = await node.route(this.sessionId, isPeer(this.ctx));
      if (this.#stopped) return wireError(request.id, 'busy', 'the watch was released', RETRY_MS);
      if (route.kind === 'local') {
        if (this.ctx.host.access(this.sessionId) === 'none') return answerFor(request, { kind: 'unknown' });
        this.#local = true;
        let set = followers.get(this.sessionId);
        if (!set) followers.set(this.sessionId, (set = new Set()));
        set.add(this);
        const stop = this.local(this.#send);
        this.#stop = () => {
          stop();
          set.delete(this);
          if (set.size === 0 && followers.get(this.sessionId) === set) followers.delete(this.sessionId);
        };
        return { type: 'result', id: request.id, result: 'watching' };
      }
      if (route.kind !== 'remote') return answerFor(request, route);
      const peer = node.connect(route.url);
      if (!peer) return noPeerRoom(request);
      this.#local = false;
      this.#url = route.url;
      const generation = this.#generation;
      const { answer, stop } = await peer.watch(this.ctx.connection.principal, this.sessionId, request.id, this.#send, {
        broken: () => {
          node.forgetRemote(this.sessionId);
          this.reattach(route.url);
        },
        stalled: () => void this.#whileSilent(peer, route.url, generation),
      });
      this.#stop = stop;
      if (this.#stopped) stop();
      if (answer.type === 'error' && answer.code === 'busy') node.forgetRemote(this.sessionId);
      return answer;
    }

    /**
     * The session moved (its owner died, or this process let it go): find it again, until it
     * answers. After a broken owner's connection, the next try is when that owner's heartbeat
     * expires (then this process may take the session itself), not after a guessed back-off.
     */
    reattach(brokenUrl?: string): void {
      if (this.#stopped) return;
      this.#stop();
      this.#stop = () => {};
      clearTimeout(this.#timer);
      const generation = ++this.#generation;
      const wait =
        brokenUrl === undefined ? new Promise((resolve) => (this.#timer = setTimeout(resolve, RETRY_MS))) : node.whenExpired(brokenUrl);
      void wait.then(async () => {
        if (this.#stopped || generation !== this.#generation) return;
        this.#url = undefined;
        const answer = await this.attach({
          id: mintUuid(),
          type: 'session.watch',
          params: { sessionId: this.sessionId },
        } as SessionRequest);
        if (generation !== this.#generation || answer.type !== 'error' || answer.code !== 'busy') return;
        // Still unreachable (its heartbeat not yet expired, or it is alive but swamped): wait again.
        // unknown-session ends the search: the session is gone for this principal; the watch stays silent.
        this.reattach(this.#url);
      });
    }

    /**
     * The owner went silent (not even a pong for `peers.stallMs`): a frozen process keeps its
     * connection open, so nothing breaks. Once its heartbeat has expired by the database's clock the
     * session is routed afresh (this process may take it over); an owner that speaks again meanwhile
     * keeps the watch.
     */
    async #whileSilent(peer: PeerConnection, url: string, generation: number): Promise<void> {
      while (!this.#stopped && generation === this.#generation && peer.stalled) {
        await node.whenExpired(url);
        if (this.#stopped || generation !== this.#generation || !peer.stalled) return;
        node.forgetRemote(this.sessionId);
        const route = await node.route(this.sessionId, isPeer(this.ctx));
        if (route.kind === 'local' || (route.kind === 'remote' && route.url !== url)) return this.reattach();
      }
    }

    /** The client asked to watch again: a fresh view. */
    refresh(request: SessionRequest, view: () => SessionView): Promise<ServerMessage> | ServerMessage {
      if (this.#local && node.owns(this.sessionId)) {
        this.#send(view());
        return { type: 'result', id: request.id, result: 'watching' };
      }
      this.reattach();
      return { type: 'result', id: request.id, result: 'watching' };
    }

    stop(): void {
      this.#stopped = true;
      clearTimeout(this.#timer);
      this.#stop();
    }
  }

  const connectionFollowers = new WeakMap<ConnectionContext, Map<SessionId, Follower>>();

  return {
    isPeer,

    async serve(request, ctx, local) {
      const { sessionId } = request.params;
      const refusal = await refused(request, ctx);
      if (refusal) return refusal;
      const route = await node.route(sessionId, isPeer(ctx));
      if (route.kind === 'local') return local();
      if (route.kind !== 'remote') return answerFor(request, route);
      const peer = node.connect(route.url);
      if (!peer) return noPeerRoom(request);
      const sent = peer.request(ctx.connection.principal, { id: request.id, type: request.type, params: request.params });
      let stall: ReturnType<typeof setTimeout> | undefined;
      const stalled = await Promise.race([sent.then(() => false), new Promise<true>((r) => (stall = setTimeout(r, node.stallMs, true)))]);
      clearTimeout(stall);
      if (stalled) {
        // No answer in time: a frozen owner keeps its connections (and its rows) but stops its
        // heartbeat. Once the heartbeat is older than the expiry by the database's clock, take the
        // session and answer here; an owner that is only slow answers first (its answer wins).
        node.forgetRemote(sessionId);
        const expired = await Promise.race([sent.then(() => false), node.whenExpired(route.url).then(() => true)]);
        if (expired) {
          const again = await node.route(sessionId, isPeer(ctx));
          if (again.kind === 'local') return local();
          if (again.kind !== 'remote' || again.url !== route.url) return answerFor(request, again.kind === 'remote' ? busyMoved : again);
        }
      }
      const answer = await sent;
      if (answer.type === 'error' && answer.code === 'busy') node.forgetRemote(sessionId);
      return answer;
    },

    async watch(request, ctx, local) {
      const { sessionId } = request.params;
      let mine = connectionFollowers.get(ctx);
      if (!mine) connectionFollowers.set(ctx, (mine = new Map()));
      const known = mine.get(sessionId);
      if (known && ctx.watches.has(sessionId)) return known.refresh(request, () => ctx.host.getView(sessionId));
      const follower = new Follower(sessionId, ctx, local);
      mine.set(sessionId, follower);
      // Placeholder first: a local watch calls the listener at once, and views go only to watched sessions.
      ctx.watches.set(sessionId, () => follower.stop());
      const release = () => {
        follower.stop();
        if (mine.get(sessionId) === follower) mine.delete(sessionId);
      };
      ctx.watches.set(sessionId, release);
      const answer = await follower.attach(request);
      if (answer.type === 'error' || ctx.closed()) {
        release();
        if (ctx.watches.get(sessionId) === release) ctx.watches.delete(sessionId);
      }
      return answer;
    },

    opened: (sessionId) => node.adopt(sessionId),
  };
}
