import { createHash } from 'node:crypto';
import { capLogPage, isSystem, UnknownSessionError, type PrincipalHostApi, type SessionId } from '../../protocol/index.js';
import { wireError, type ClientRequest, type ServerMessage } from '../../protocol/wire.js';
import type { ConnectionContext, SessionRouter, WebSocketConnection } from './router.js';

export type { ConnectionContext } from './router.js';

export interface HandlerOptions {
  host: PrincipalHostApi;
  canOpenSession?(connection: WebSocketConnection): boolean | Promise<boolean>;
  onSessionOpened?(connection: WebSocketConnection, sessionId: SessionId): void;
  retryWindowMs: number;
  /** Sessions one connection may watch at once. */
  maxWatches: number;
  /** Largest `log.read` answer in bytes (the newest event always fits). */
  maxLogPageBytes: number;
  onError(error: unknown): void;
  /** In a cluster: sends requests for sessions owned elsewhere to their owner. */
  router?: SessionRouter;
}

/** Sessions a peer's connection may watch at once (it carries every watch its process forwards). */
const PEER_MAX_WATCHES = 100_000;

export type RequestHandler = (request: ClientRequest, ctx: ConnectionContext) => Promise<ServerMessage>;

const RETRY_CACHE_LIMIT = 20_000;

/**
 * Answers one parsed request. Mutations are remembered by session and request id for
 * `retryWindowMs`: a client that lost an answer (dropped socket) re-sends the same request id and
 * gets the first answer (or joins the still-running call) instead of running it twice. The Host
 * dedupes submissions and dismissals by their own ids too; this covers `session.send`,
 * `session.updateQueue` and `actionCards.act`, whose retries only the request id identifies.
 */
export function createRequestHandler(options: HandlerOptions): RequestHandler {
  const answered = new Map<string, { at: number; answer: Promise<unknown> }>();
  /** `answered`'s keys in insertion order from `head` on (a key may repeat after a failed call). */
  const order: string[] = [];
  let head = 0;

  /** A hook that throws (or rejects) is a refusal, reported to `onError`. */
  const hookAllows = async (hook: () => boolean | Promise<boolean>): Promise<boolean> => {
    try {
      return (await hook()) === true;
    } catch (error) {
      options.onError(error);
      return false;
    }
  };

  const once = (
    request: ClientRequest & { params: { sessionId: SessionId } },
    ctx: ConnectionContext,
    run: () => Promise<unknown>,
  ): Promise<unknown> => {
    const now = Date.now();
    // By principal, type and a fingerprint of the parameters too: a request id is the client's
    // word, so another person (or another request) reusing it must not be answered this one's result.
    const { principal } = ctx.connection;
    const who = isSystem(principal) ? '\u0001system' : `u:${principal.id}`;
    const fingerprint = createHash('sha256').update(JSON.stringify(request.params)).digest('base64url');
    const key = `${who}\u0000${request.params.sessionId}\u0000${request.type}\u0000${request.id}\u0000${fingerprint}`;
    const hit = answered.get(key);
    if (hit && now - hit.at < options.retryWindowMs) return hit.answer;
    // Oldest first, from a queue of keys: iterating the Map from its start after many deletions
    // walks the deleted slots again each time (a flood made that the server's hottest loop).
    while (head < order.length) {
      const oldest = answered.get(order[head]!);
      if (oldest && answered.size < RETRY_CACHE_LIMIT && now - oldest.at < options.retryWindowMs) break;
      answered.delete(order[head++]!);
    }
    if (head > 4096 && head * 2 > order.length) {
      order.splice(0, head);
      head = 0;
    }
    const answer = run();
    answered.set(key, { at: now, answer });
    order.push(key);
    // A failed call is not an answer: a retry runs it again.
    answer.catch(() => answered.delete(key));
    return answer;
  };

  return async function handle(request: ClientRequest, ctx: ConnectionContext): Promise<ServerMessage> {
    const result = (value: unknown): ServerMessage => ({ type: 'result', id: request.id, result: value });
    const unknownSession = (sessionId: string) => wireError(request.id, 'unknown-session', `unknown session "${sessionId}"`);

    const { host } = ctx;
    switch (request.type) {
      case 'ping':
        return result('pong');
      case 'session.list':
        return result(host.listSessions());
      case 'session.open': {
        if (!(await hookAllows(() => options.canOpenSession?.(ctx.connection) ?? true))) {
          return wireError(request.id, 'bad-request', 'this connection may not open sessions');
        }
        const { title, locale } = request.params;
        const sessionId = host.openSession({ ...(title === undefined ? {} : { title }), ...(locale === undefined ? {} : { locale }) });
        // Answered once the new session is durable (a PostgreSQL store writes it a moment later).
        await host.whenDurable(sessionId);
        await options.router?.opened(sessionId);
        options.onSessionOpened?.(ctx.connection, sessionId);
        return result(host.sessionSummary(sessionId));
      }
      default:
        break;
    }

    const { sessionId } = request.params;
    const local = async () => {
      // A store that keeps sessions elsewhere (PostgreSQL) reads this one in first; others answer at once.
      if (!(await host.load(sessionId))) return unknownSession(sessionId);
      try {
        return await answer(request, ctx, result);
      } catch (error) {
        // Access was withdrawn (or the session went away) between the check and the call.
        if (error instanceof UnknownSessionError) return unknownSession(sessionId);
        throw error;
      }
    };
    const { router } = options;
    if (!router) return local();
    if (request.type === 'session.unwatch') {
      // Nothing to load: the watch, wherever it is served, is released here.
      ctx.watches.get(sessionId)?.();
      ctx.watches.delete(sessionId);
      return result('unwatched');
    }
    if (request.type !== 'session.watch') return router.serve(request, ctx, local);
    if (ctx.closed()) return result('watching');
    const maxWatches = router.isPeer(ctx) ? PEER_MAX_WATCHES : options.maxWatches;
    if (!ctx.watches.has(sessionId) && ctx.watches.size >= maxWatches) return tooManyWatches(request.id, ctx, maxWatches);
    return router.watch(request, ctx, (listener) => host.watchSession(sessionId, listener));
  };

  async function answer(
    request: ClientRequest & { params: { sessionId: SessionId } },
    ctx: ConnectionContext,
    result: (value: unknown) => ServerMessage,
  ): Promise<ServerMessage> {
    const { host } = ctx;
    const { sessionId } = request.params;

    switch (request.type) {
      case 'session.watch': {
        if (ctx.closed()) return result('watching');
        if (!ctx.watches.has(sessionId)) {
          if (ctx.watches.size >= options.maxWatches) return tooManyWatches(request.id, ctx, options.maxWatches);
          // Placeholder first: the host calls the listener synchronously with the current view.
          ctx.watches.set(sessionId, () => {});
          ctx.watches.set(
            sessionId,
            host.watchSession(sessionId, (view) => ctx.sendView(sessionId, view)),
          );
        } else {
          ctx.sendView(sessionId, host.getView(sessionId));
        }
        return result('watching');
      }
      case 'session.unwatch':
        ctx.watches.get(sessionId)?.();
        ctx.watches.delete(sessionId);
        return result('unwatched');
      case 'log.read': {
        const { before, limit } = request.params;
        // Built within the budget by the Host; capped again (cached sizes: lookups) for a Host that ignores it.
        const maxBytes = options.maxLogPageBytes;
        const page = await host.readLog(sessionId, before === undefined ? { limit, maxBytes } : { before, limit, maxBytes });
        return result(capLogPage(page, maxBytes));
      }
      case 'taskSurface.getActive':
        return result(await host.taskSurface.getActive(request.params));
      case 'taskSurface.getOutcome':
        return result(await host.taskSurface.getOutcome(request.params));
      case 'taskSurface.submit':
        return result(await once(request, ctx, () => host.taskSurface.submit(request.params)));
      case 'taskSurface.dismiss':
        return result(await once(request, ctx, () => host.taskSurface.dismiss(request.params)));
      case 'session.send':
        return result(await once(request, ctx, () => host.session.send(request.params)));
      case 'session.updateQueue':
        return result(await once(request, ctx, () => host.session.updateQueue(request.params)));
      case 'actionCards.act':
        return result(await once(request, ctx, () => host.actionCards.act(request.params)));
      default:
        return wireError(request.id, 'bad-request', `unknown request type "${request.type}"`);
    }
  }
}

function tooManyWatches(id: string, ctx: ConnectionContext, maxWatches: number): ServerMessage {
  return wireError(
    id,
    'bad-request',
    `this connection already watches ${ctx.watches.size} sessions (at most ${maxWatches}); unwatch one first`,
  );
}
