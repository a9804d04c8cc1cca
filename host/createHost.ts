import { resolveLimits, type SessionId } from '../protocol/index.js';
import { createActionCardsService } from './actionCards/index.js';
import { createDurability } from './durability.js';
import { freshId, resolveIds } from './ids.js';
import { hostApi } from './hostApi.js';
import { createLifecycle } from './lifecycle.js';
import { readPreview } from './taskSurface/preview.js';
import { createAdmission } from './limits/admission.js';
import { createPrincipalLimits, resolveQuotas } from './limits/index.js';
import { LiveInboxes } from './liveInboxes.js';
import { createMessages } from './messages.js';
import { createPluginApi, HostSignals } from './pluginApi.js';
import { ownerOnly } from './principal.js';
import { Sessions } from './sessions.js';
import { createTaskSurfaceService } from './taskSurface/index.js';
import { createShowTaskSurfaceTool } from './taskSurface/tools.js';
import { ToolRegistry } from './tools/registry.js';
import type { CreateHostOptions, Host } from './types.js';
import { createUnloading } from './unloading.js';
import { sessionView, Watchers } from './views.js';

/**
 * Creates a Host over a session-log store. Host code opens sessions and drives everything from
 * here; a transport exposes the same calls to clients. Browser-safe (the store decides).
 *
 * The parts, each in its own module: `Sessions` (the loaded logs and their folds), `LiveInboxes`
 * (each live session's queue and turn loop), the Task Surface and action-cards services, the
 * plugin API, `Durability` (answers wait for an asynchronous store), `Messages`, `Lifecycle` (open,
 * fork, rewind), `Unloading` (residency), `Watchers`; `hostApi` is the public face over them.
 */
export function createHost(options: CreateHostOptions): Host {
  const { store, inspect } = options;
  const limits = resolveLimits(options.limits);
  const clock = options.clock ?? Date.now;
  const ids = resolveIds(options.ids);
  const report = options.onError ?? ((error: Error) => console.error(error));
  const tools = new ToolRegistry();
  const signals = new HostSignals();
  const viewOf = (sessionId: SessionId) => {
    const session = sessions.get(sessionId);
    const view = sessionView(session, inboxes.get(sessionId), actionCards, surfaces.activePending(session));
    // The turn's pending state: its model call waits for a slot (the model-call limits).
    return quotas.waiting(sessionId) ? { ...view, waiting: 'model' as const } : view;
  };
  const watchers = new Watchers(viewOf);
  // A session an asynchronous store lost is not published until it is loaded again (its view would read the store).
  const publish = (sessionId: SessionId) => {
    if (!durability.async || sessions.isLoaded(sessionId)) watchers.publish(sessionId);
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
      unloading.residency.loaded();
    },
  );
  const durability = createDurability({
    store,
    sessions,
    report,
    unload: (sessionId) => unloading.unload(sessionId),
    watched: (sessionId) => watchers.has(sessionId),
    publish,
    disposed: () => inboxes.disposed,
  });
  // Per principal (host/limits): sessions, stored bytes, messages per minute, turns and model calls.
  const quotas = createPrincipalLimits({
    store,
    clock,
    quotas: resolveQuotas(options.quotas),
    ownerOf: (sessionId) => sessions.ownerOf(sessionId) ?? null,
    busy: (sessionId) => {
      const inbox = inboxes.get(sessionId);
      return inbox !== undefined && (inbox.turnState === 'running' || !inbox.isIdle);
    },
    publish,
  });
  // Messages per minute in this process's memory, or from the processes' shared buckets (`messageRate`).
  const admission = createAdmission({ limits: quotas, report, ...(options.messageRate ? { rate: options.messageRate } : {}) });
  const surfaces = createTaskSurfaceService({ sessions, ids, limits, inspect, admission, inbox: (sessionId) => inboxes.for(sessionId) });
  const driver = options.driver && quotas.gate(options.driver);
  const inboxes = new LiveInboxes({
    ...{ sessions, tools, ids, inspect, publish, report, driver, autoAdmit: options.autoAdmit ?? true },
    observer: surfaces,
    beforeStep: (ctx) => signals.step(ctx),
    preview: (sessionId, name, args) => readPreview(name, args, limits, sessions.get(sessionId).surface.active !== null),
    agentDisposed: (sessionId) => signals.disposed(sessionId),
    ...(durability.async ? { whenDurable: (sessionId: SessionId) => durability.whenDurable(sessionId) } : {}),
  });
  const plugins = createPluginApi({
    ...{ sessions, tools, signals, clock, publish, inspect },
    queuedMessageCount: (sessionId) => inboxes.get(sessionId)?.queuedCount ?? 0,
    isLiveRoot: (sessionId) => !inboxes.disposed && inboxes.has(sessionId),
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
  const messages = createMessages({ sessions, inboxes, ids, admission, maxQueuedMessages: positiveOr(options.maxQueuedMessages, 100) });
  const unloading = createUnloading({
    ...{ sessions, inboxes, watchers },
    forget: [messages.forget, surfaces.unload, (sessionId) => signals.reset(sessionId)],
    maxLoadedSessions: positiveOr(options.maxLoadedSessions, 1_000),
    idleMs: positiveOr(options.sessionIdleMs, 5 * 60_000),
  });
  const lifecycle = createLifecycle({ sessions, inboxes, ids, clock, report });
  const policy = options.policy ?? ownerOnly;
  return hostApi({
    sessions,
    inboxes,
    surfaces,
    actionCards,
    plugins,
    durability,
    messages,
    lifecycle,
    unloading,
    watchers,
    viewOf,
    policy,
    sharedSessions: options.sharedSessions,
    quotas,
    report,
  });
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}
