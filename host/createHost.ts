import {
  resolveLimits,
  SendMessageRequestSchema,
  UpdateQueueRequestSchema,
  type SendMessageResult,
  type SessionId,
  type UpdateQueueResult,
} from '../protocol/index.js';
import { createActionCardsService } from './actionCards/index.js';
import { HostStoreError, parseInput, UnknownSessionError } from './errors.js';
import { freshId, resolveIds } from './ids.js';
import { Inbox } from './inbox.js';
import { createPluginApi, HostSignals } from './pluginApi.js';
import { forkSession, rewindSession } from './history.js';
import { forkInput, openSessionInput, readLogInput, sessionIdInput } from './inputs.js';
import { isKept } from './durableQueue.js';
import { ownerOnly } from './principal.js';
import { Residency } from './residency.js';
import { scopedHost } from './scoped.js';
import { Sessions } from './sessions.js';
import { createDurability } from './durability.js';
import { isAsyncStore } from './store/types.js';
import { createTaskSurfaceService, type TaskSurfaceHostService } from './taskSurface/index.js';
import { createShowTaskSurfaceTool } from './taskSurface/tools.js';
import { ToolRegistry } from './tools/registry.js';
import type { CreateHostOptions, Host, OpenSessionOptions } from './types.js';
import { logPage, sessionView, Watchers } from './views.js';

/**
 * Creates a Host over a session-log store. Host code opens sessions and drives everything from
 * here; a transport exposes the same calls to clients. Browser-safe (the store decides).
 */
export function createHost(options: CreateHostOptions): Host {
  const { store, inspect, driver } = options;
  const limits = resolveLimits(options.limits);
  const clock = options.clock ?? Date.now;
  // Sessions list in creation order, which stores keep by createdAt: two sessions opened in the
  // same millisecond must not come back in another order after a restart.
  let lastCreatedAt = 0;
  const creationTime = () => (lastCreatedAt = Math.max(clock(), lastCreatedAt + 1));
  const ids = resolveIds(options.ids);
  const autoAdmit = options.autoAdmit ?? true;
  const report = options.onError ?? ((error: Error) => console.error(error));
  const maxQueuedMessages = positiveOr(options.maxQueuedMessages, 100);
  const policy = options.policy ?? ownerOnly;
  const tools = new ToolRegistry();
  const signals = new HostSignals();
  const inboxes = new Map<SessionId, Inbox>();
  const sendResults = new Map<SessionId, Map<string, SendMessageResult>>();
  const idleWaiters = new Set<{ ids: () => SessionId[]; resolve: () => void }>();
  const closing = new Set<Promise<void>>();
  let disposed = false;

  const viewOf = (sessionId: SessionId) => {
    const session = sessions.get(sessionId);
    return sessionView(session, inboxes.get(sessionId), actionCards, surfaces.activePending(session));
  };
  const watchers = new Watchers(viewOf);
  // A session an asynchronous store lost is not published until it is loaded again (its view would read the store).
  const publish = (sessionId: SessionId) => {
    if (durability.async && !sessions.isLoaded(sessionId)) return;
    watchers.publish(sessionId);
  };

  const sessions: Sessions = new Sessions(
    store,
    clock,
    (session, event, change) => {
      const sessionId = session.record.sessionId;
      // An ignored event (a rewound turn's late write) is stored but tells the projections nothing.
      if (change !== 'ignored') {
        surfaces.onEvent(session, event, change === 'cut');
        signals.event(sessionId, event);
      }
      if (change === 'cut') signals.reset(sessionId);
      publish(sessionId);
    },
    (session) => {
      surfaces.reset(session);
      signals.reset(session.record.sessionId);
      residency.loaded();
    },
  );

  const checkIdle = () => {
    for (const waiter of [...idleWaiters]) {
      if (waiter.ids().every((id) => inboxes.get(id)?.isIdle ?? true)) {
        idleWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  /** A minted id never reopens an existing session (deterministic minters restart from 1). */
  const freshSessionId = (): SessionId => freshId('session', ids.session, (id) => sessions.has(id));

  const assertOpen = () => {
    if (disposed) throw new Error('the host is disposed');
  };

  /** The session's live inbox and turn loop, started on first use (a live root agent). */
  const inboxFor = (sessionId: SessionId): Inbox => {
    assertOpen();
    let inbox = inboxes.get(sessionId);
    if (!inbox) {
      sessions.get(sessionId);
      inbox = new Inbox(sessionId, {
        sessions,
        tools,
        ids,
        driver,
        autoAdmit,
        inspect,
        observer: surfaces,
        beforeStep: (ctx) => signals.step(ctx),
        publish,
        onIdle: checkIdle,
        report,
        ...(durability.async ? { whenDurable: () => durability.whenDurable(sessionId) } : {}),
      });
      inboxes.set(sessionId, inbox);
    }
    return inbox;
  };

  const surfaces: TaskSurfaceHostService = createTaskSurfaceService({ sessions, ids, limits, inspect, inbox: inboxFor });

  const plugins = createPluginApi({
    sessions,
    tools,
    signals,
    clock,
    publish,
    inspect,
    queuedMessageCount: (sessionId) => inboxes.get(sessionId)?.queuedCount ?? 0,
    isLiveRoot: (sessionId) => !disposed && inboxes.has(sessionId),
  });

  tools.register(
    createShowTaskSurfaceTool({
      limits,
      mintSurfaceId: (sessionId) => {
        const used = sessions.get(sessionId).surface.surfaceIds;
        return freshId('surface', ids.surface, (surfaceId) => used.has(surfaceId));
      },
      activeSurface: (sessionId) => sessions.get(sessionId).surface.active,
    }),
  );
  const actionCards = createActionCardsService(plugins, options.actionCards ?? {});

  /** Nothing in flight: no watcher, no running or scheduled turn, no claim, only stored (ordinary) rows. */
  const idleSession = (sessionId: SessionId): boolean => {
    if (watchers.has(sessionId)) return false;
    const inbox = inboxes.get(sessionId);
    return !inbox || (inbox.turnState === 'idle' && inbox.isIdle && inbox.claimedRows().length === 0 && inbox.rows.every(isKept));
  };
  /**
   * Drops the session from memory without touching the store: its inbox (stored rows stay and are
   * restored), projections and card state come back from the log on the next use. The live agent's
   * card-skill activation is kept (no agent-disposed signal): unloading is invisible to the agent.
   */
  const unloadSession = (sessionId: SessionId) => {
    const inbox = inboxes.get(sessionId);
    if (inbox) {
      inboxes.delete(sessionId);
      void inbox.dispose('unloaded');
    }
    sendResults.delete(sessionId);
    surfaces.unload(sessionId);
    signals.reset(sessionId);
    sessions.unload(sessionId);
    if (isAsyncStore(store)) store.unload(sessionId);
  };
  const residency: Residency = new Residency({
    sessions,
    idle: idleSession,
    unload: unloadSession,
    maxLoadedSessions: positiveOr(options.maxLoadedSessions, 1_000),
    idleMs: positiveOr(options.sessionIdleMs, 5 * 60_000),
  });

  const durability = createDurability({
    store,
    sessions,
    report,
    unload: unloadSession,
    watched: (sessionId) => watchers.has(sessionId),
    publish,
    disposed: () => disposed,
  });
  const { durably } = durability;

  const closeInbox = (sessionId: SessionId, reason: string) => {
    const inbox = inboxes.get(sessionId);
    if (!inbox) return;
    inboxes.delete(sessionId);
    const done = inbox.dispose(reason).finally(() => {
      closing.delete(done);
      checkIdle();
    });
    closing.add(done);
    signals.disposed(sessionId);
    publish(sessionId);
  };

  /** `by`: the principal id recorded on the message's source (absent for host code). */
  const send = async (input: unknown, by?: string): Promise<SendMessageResult> => {
    const request = parseInput('session.send', SendMessageRequestSchema, input);
    const session = sessions.find(request.sessionId);
    if (!session) return { accepted: false, reason: 'unknown-session' };
    if (session.record.readOnly) return { accepted: false, reason: 'read-only' };
    let results = sendResults.get(request.sessionId);
    if (!results) sendResults.set(request.sessionId, (results = new Map()));
    const first = results.get(request.messageId);
    if (first) return first;
    if (session.userMessages.has(request.messageId)) {
      // Durable before this process (a retry after a restart): never admit it twice.
      return { accepted: true, messageId: request.messageId, itemId: ids.item() };
    }
    const inbox = inboxFor(request.sessionId);
    // Already on its way (a submission's row, say): one message per messageId, never two.
    const live = inbox.findMessage(request.messageId);
    if (live) return { accepted: true, messageId: request.messageId, itemId: live.id };
    if (inbox.rows.length >= maxQueuedMessages) return { accepted: false, reason: 'queue-full' };
    const row = inbox.enqueue({
      messageId: request.messageId,
      text: request.text,
      source: { kind: 'user', rpcId: request.rpcId, ...(by === undefined ? {} : { by }) },
    });
    const result: SendMessageResult = { accepted: true, messageId: request.messageId, itemId: row.id };
    results.set(request.messageId, result);
    // Bounded: the newest answers are kept (amortised O(1)); an older message is still never
    // admitted twice while it is durable or queued (the fold and the live row answer for it).
    if (results.size > 2 * SEND_ANSWERS_KEPT) sendResults.set(request.sessionId, new Map([...results].slice(-SEND_ANSWERS_KEPT)));
    return result;
  };

  /** `owner`: the principal id the opening event names (none for host code). */
  const open = (options: OpenSessionOptions | undefined, owner?: string): SessionId => {
    assertOpen();
    const opts = openSessionInput(options);
    const sessionId = opts.sessionId ?? freshSessionId();
    if (!sessions.has(sessionId)) {
      sessions.create({
        sessionId,
        title: opts.title ?? 'Untitled',
        createdAt: creationTime(),
        toolMode: opts.toolMode ?? 'native',
        readOnly: opts.readOnly ?? false,
        locale: opts.locale ?? 'en',
        ...(owner === undefined ? {} : { owner }),
      });
      if (owner !== undefined) sessions.append(sessionId, { type: 'session/opened', owner });
    }
    inboxFor(sessionId);
    return sessionId;
  };

  const fork = (sessionId: SessionId, opts: Parameters<Host['fork']>[1], owner?: string): SessionId => {
    assertOpen();
    const forked = forkSession(sessions, freshSessionId(), sessionIdInput('fork', sessionId), forkInput(opts), creationTime(), owner);
    inboxFor(forked);
    return forked;
  };

  const submit = durably((input: unknown, by?: string) => surfaces.submit(input, by));
  const dismiss = durably((input: unknown, by?: string) => surfaces.dismiss(input, by));
  const durableSend = durably((input: unknown, by?: string) => send(input, by));

  const host: Host = {
    // Synchronous stores: the services themselves (what host code patches or wraps is what every path calls).
    taskSurface: durability.async ? { ...surfaces, submit, dismiss } : surfaces,
    actionCards: durability.async ? { ...actionCards, act: durably(actionCards.act) } : actionCards,
    plugins,
    as: (principal) =>
      scopedHost({
        host,
        principal,
        policy,
        report,
        owner: (sessionId) => sessions.ownerOf(sessionId) ?? null,
        open,
        fork,
        send: durableSend,
        submit,
        dismiss,
        ...(options.sharedSessions ? { shared: options.sharedSessions } : {}),
      }),
    session: {
      send: (input) => durableSend(input),
      updateQueue: durably(async (input): Promise<UpdateQueueResult> => {
        const request = parseInput('session.updateQueue', UpdateQueueRequestSchema, input);
        const inbox = inboxes.get(request.sessionId);
        const row = inbox?.find(request.itemId);
        if (!inbox || !row) return { ok: false, reason: 'queue-item-not-found' };
        if (request.op === 'remove') {
          inbox.remove(row.id);
          return { ok: true };
        }
        // Editing would separate the text from its structured values; steering would bypass admission.
        if (row.source.taskSurface) return { ok: false, reason: 'task-surface-row' };
        inbox.update(row.id, request.op === 'edit' ? { text: request.text } : { placement: 'steering' });
        return { ok: true };
      }),
    },
    inbox: {
      claimNext: (sessionId) => inboxFor(sessionIdInput('inbox.claimNext', sessionId)).claimNext(),
      claimed: (sessionId) => inboxes.get(sessionId)?.claimedRows() ?? [],
    },
    openSession: (options) => open(options),
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
    closeSession: (sessionId) => closeInbox(sessionIdInput('closeSession', sessionId), 'session-closed'),
    unload: (sessionId) => {
      const id = sessionIdInput('unload', sessionId);
      // The store's copy first: the turn stopped below cannot write its end (the next owner ends it).
      if (isAsyncStore(store)) store.unload(id);
      unloadSession(id);
    },
    getView(input) {
      const sessionId = sessionIdInput('getView', input);
      if (!sessions.has(sessionId)) throw new UnknownSessionError(sessionId);
      if (!disposed) inboxFor(sessionId);
      return viewOf(sessionId);
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
    fork: (sessionId, opts) => fork(sessionId, opts),
    rewind(input, toSeq) {
      assertOpen();
      const sessionId = sessionIdInput('rewind', input);
      // The marker first: a bad toSeq or a store error refuses the rewind before anything is dropped.
      rewindSession(sessions, sessionId, toSeq);
      inboxes.get(sessionId)?.cancel('rewound');
      // Also when the session is not live (closed): a rewind drops every message that was waiting.
      try {
        for (const row of store.listQueued(sessionId)) store.deleteQueued(sessionId, row.itemId);
      } catch (error) {
        report(new HostStoreError(sessionId, 'deleting the rows a rewind dropped', error));
      }
    },
    whenIdle(sessionId) {
      return new Promise<void>((resolve) => {
        idleWaiters.add({ ids: () => (sessionId ? [sessionId] : [...inboxes.keys()]), resolve });
        checkIdle();
      });
    },
    async dispose() {
      if (disposed) return;
      residency.dispose();
      // First, so an act racing disposal is refused as `closing` and running card operations abort.
      actionCards.dispose();
      for (const sessionId of [...inboxes.keys()]) closeInbox(sessionId, 'host-disposed');
      disposed = true;
      await Promise.all([...closing]);
      surfaces.dispose();
      watchers.clear();
      for (const waiter of idleWaiters) waiter.resolve();
      idleWaiters.clear();
    },
  };
  return host;
}

/** `session.send` answers remembered per session for retries (between this and twice as many). */
const SEND_ANSWERS_KEPT = 1_000;

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}
