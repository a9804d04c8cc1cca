import type { SessionId, SessionView } from '../protocol/index.js';
import type { ActionCardsHostService } from './actionCards/index.js';
import type { Durability } from './durability.js';
import { readLogInput, sessionIdInput } from './inputs.js';
import type { Lifecycle } from './lifecycle.js';
import type { LiveInboxes } from './liveInboxes.js';
import type { Messages } from './messages.js';
import type { PrincipalLimits } from './limits/index.js';
import { scopedHost } from './scoped.js';
import type { Sessions } from './sessions.js';
import { isAsyncStore } from './store/types.js';
import type { TaskSurfaceHostService } from './taskSurface/index.js';
import type { SessionPolicy } from './principal.js';
import type { CreateHostOptions, Host, HostPluginApi } from './types.js';
import type { Unloading } from './unloading.js';
import { logPage, type Watchers } from './views.js';

/** The named parts `createHost` composes, as the public `Host` calls them. */
export interface HostParts {
  sessions: Sessions;
  inboxes: LiveInboxes;
  surfaces: TaskSurfaceHostService;
  actionCards: ActionCardsHostService;
  plugins: HostPluginApi;
  durability: Durability;
  messages: Messages;
  lifecycle: Lifecycle;
  unloading: Unloading;
  watchers: Watchers;
  viewOf(sessionId: SessionId): SessionView;
  policy: SessionPolicy;
  /** Sessions a sharing policy shares with a principal (`CreateHostOptions.sharedSessions`). */
  sharedSessions: CreateHostOptions['sharedSessions'];
  /** The per-principal limits (host/limits). */
  quotas: PrincipalLimits;
  report(error: Error): void;
}

/**
 * The public `Host` over its parts. Writes that clients make answer once durable (`durably`); with a
 * synchronous store the services themselves are exposed, so what host code patches or wraps is what
 * every path calls.
 */
export function hostApi(parts: HostParts): Host {
  const { sessions, inboxes, surfaces, actionCards, durability, messages, lifecycle, watchers } = parts;
  const { store } = sessions;
  const { durably } = durability;
  const submit = durably((input: unknown, by?: string) => surfaces.submit(input, by));
  const dismiss = durably((input: unknown, by?: string) => surfaces.dismiss(input, by));
  const send = durably((input: unknown, by?: string) => messages.send(input, by));

  const host: Host = {
    taskSurface: durability.async ? { ...surfaces, submit, dismiss } : surfaces,
    actionCards: durability.async ? { ...actionCards, act: durably(actionCards.act) } : actionCards,
    plugins: parts.plugins,
    as: (principal) =>
      scopedHost({
        host,
        principal,
        policy: parts.policy,
        report: parts.report,
        owner: (sessionId) => sessions.ownerOf(sessionId) ?? null,
        open: lifecycle.open,
        fork: lifecycle.fork,
        send,
        submit,
        dismiss,
        ...(parts.sharedSessions ? { shared: parts.sharedSessions } : {}),
        limits: parts.quotas,
      }),
    session: { send: (input) => send(input), updateQueue: durably(messages.updateQueue) },
    inbox: {
      claimNext: (sessionId) => inboxes.for(sessionIdInput('inbox.claimNext', sessionId)).claimNext(),
      claimed: (sessionId) => inboxes.get(sessionId)?.claimedRows() ?? [],
    },
    openSession: (options) => lifecycle.open(options),
    load: (input) => durability.load(sessionIdInput('load', input)),
    whenDurable: async (input) => durability.whenDurable(sessionIdInput('whenDurable', input)),
    hasSession: (sessionId) => sessions.has(sessionId),
    loadedSessionCount: () => sessions.loadedCount,
    sessionSummary(input) {
      const session = sessions.get(sessionIdInput('sessionSummary', input));
      return { sessionId: session.record.sessionId, title: session.record.title, lastSeq: session.lastSeq };
    },
    listSessions: () =>
      store.listSessions().map((r) => ({
        sessionId: r.sessionId,
        title: r.title,
        lastSeq: sessions.isLoaded(r.sessionId) ? sessions.get(r.sessionId).lastSeq : store.lastSeq(r.sessionId),
      })),
    listSessionsOf: (owner) =>
      store.listSessionsOf(owner).map((r) => ({
        sessionId: r.sessionId,
        title: r.title,
        lastSeq: sessions.isLoaded(r.sessionId) ? sessions.get(r.sessionId).lastSeq : r.lastSeq,
      })),
    closeSession: (sessionId) => inboxes.close(sessionIdInput('closeSession', sessionId), 'session-closed'),
    unload: (sessionId) => {
      const id = sessionIdInput('unload', sessionId);
      // The store's copy first: the turn stopped below cannot write its end (the next owner ends it).
      if (isAsyncStore(store)) store.unload(id);
      parts.unloading.unload(id);
    },
    getView(input) {
      const sessionId = sessionIdInput('getView', input);
      // Both read the session first: an unknown one throws UnknownSessionError, before anything starts.
      if (!inboxes.disposed) inboxes.for(sessionId);
      return parts.viewOf(sessionId);
    },
    watchSession(sessionId, listener) {
      const view = host.getView(sessionId);
      const stop = watchers.add(sessionId, listener);
      listener(view);
      return stop;
    },
    async readLog(sessionId, opts) {
      return logPage(sessions.get(sessionIdInput('readLog', sessionId)), readLogInput(opts));
    },
    fork: (sessionId, opts) => lifecycle.fork(sessionId, opts),
    rewind: (sessionId, toSeq) => lifecycle.rewind(sessionId, toSeq),
    whenIdle: (sessionId) => inboxes.whenIdle(sessionId),
    async dispose() {
      if (inboxes.disposed) return;
      parts.unloading.residency.dispose();
      // First, so an act racing disposal is refused as `closing` and running card operations abort.
      actionCards.dispose();
      await inboxes.dispose();
      surfaces.dispose();
      watchers.clear();
      inboxes.releaseWaiters();
    },
  };
  return host;
}
