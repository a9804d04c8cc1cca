import type { NewSessionEvent, SessionEvent, SessionId } from '../protocol/index.js';
import type { Sessions } from './sessions.js';
import { validateNewEvent } from './store/codec.js';
import type { ToolRegistry } from './tools/registry.js';
import type { HostPluginApi, InspectObserver, StepContext } from './types.js';

type StepHook = (ctx: StepContext) => void;

/** Listener sets the host fires; the plugin API subscribes to them. */
export class HostSignals {
  readonly events = new Set<(sessionId: SessionId, event: SessionEvent) => void>();
  readonly resets = new Set<(sessionId: SessionId) => void>();
  readonly agentDisposed = new Set<(sessionId: SessionId) => void>();
  /** Step hooks by phase: every `context` hook runs before any `notice` hook. */
  readonly beforeStep = { context: new Set<StepHook>(), notice: new Set<StepHook>() };

  static add<T>(set: Set<T>, listener: T): () => void {
    set.add(listener);
    return () => void set.delete(listener);
  }

  event(sessionId: SessionId, event: SessionEvent): void {
    for (const listener of [...this.events]) listener(sessionId, event);
  }

  reset(sessionId: SessionId): void {
    for (const listener of [...this.resets]) listener(sessionId);
  }

  disposed(sessionId: SessionId): void {
    for (const listener of [...this.agentDisposed]) listener(sessionId);
  }

  step(ctx: StepContext): void {
    for (const hook of [...this.beforeStep.context, ...this.beforeStep.notice]) hook(ctx);
  }
}

export interface PluginApiDeps {
  sessions: Sessions;
  tools: ToolRegistry;
  signals: HostSignals;
  clock(): number;
  queuedMessageCount(sessionId: SessionId): number;
  isLiveRoot(sessionId: SessionId): boolean;
  publish(sessionId: SessionId): void;
  inspect: InspectObserver | undefined;
}

/** The HostPluginApi of one host: what the action-cards service (or any plugin) may use. */
export function createPluginApi(d: PluginApiDeps): HostPluginApi {
  const api: HostPluginApi = {
    now: () => d.clock(),
    // A plugin's event is checked here, once: the store stamps events without parsing them again.
    append: (sessionId: SessionId, event: NewSessionEvent) => d.sessions.append(sessionId, validateNewEvent(sessionId, event)),
    events: (sessionId) => d.sessions.get(sessionId).effective.slice(),
    onEvent: (listener) => HostSignals.add(d.signals.events, listener),
    onReset: (listener) => HostSignals.add(d.signals.resets, listener),
    onAgentDisposed: (listener) => HostSignals.add(d.signals.agentDisposed, listener),
    registerTool: (tool) => d.tools.register(tool),
    onBeforeStep: (hook, options) => HostSignals.add(d.signals.beforeStep[options?.phase ?? 'context'], hook),
    queuedMessageCount: (sessionId) => d.queuedMessageCount(sessionId),
    isLiveRoot: (sessionId) => d.isLiveRoot(sessionId),
    isReadOnly: (sessionId) => d.sessions.find(sessionId)?.record.readOnly ?? false,
    hasSession: (sessionId) => d.sessions.has(sessionId),
    publish: (sessionId) => d.publish(sessionId),
  };
  if (d.inspect) api.inspect = d.inspect;
  return api;
}
