import {
  SessionEventSchema,
  type CallId,
  type JsonValue,
  type NewSessionEvent,
  type SessionEvent,
  type SessionId,
  type TurnId,
} from '../../protocol/index.js';
import type { HostPluginApi, HostTool, StepContext, ToolOutcome } from '../../host/types.js';

/*
 * An in-memory HostPluginApi for the action-cards tests: sessions with a log, tools, step hooks,
 * turns that call tools the way the host's turn loop does (tool/call, execute, tool/result), forks,
 * rewinds and agent disposal.
 */

interface FakeSession {
  log: SessionEvent[];
  liveRoot: boolean;
  readOnly: boolean;
  queued: number;
}

export interface FakeTurn {
  turnId: TurnId;
  callTool(
    name: string,
    args: JsonValue,
    options?: { origin?: 'model' | 'code'; agent?: 'root' | 'subagent' },
  ): Promise<ToolOutcome & { callId: CallId }>;
  /** Runs the step hooks and returns the names of the tools the root agent is offered, plus new events. */
  step(agent?: 'root' | 'subagent'): { tools: string[]; notices: SessionEvent[] };
  end(): void;
}

export function createFakeHost(options: { inspect?: HostPluginApi['inspect'] } = {}) {
  const sessions = new Map<SessionId, FakeSession>();
  const eventListeners = new Set<(sessionId: SessionId, event: SessionEvent) => void>();
  const resetListeners = new Set<(sessionId: SessionId) => void>();
  const disposedListeners = new Set<(sessionId: SessionId) => void>();
  const tools = new Map<string, HostTool>();
  const hooks = new Set<(ctx: StepContext) => void>();
  const published: SessionId[] = [];
  let ids = 0;
  let clock = 1_000;

  const session = (sessionId: SessionId): FakeSession => {
    const s = sessions.get(sessionId);
    if (s === undefined) throw new Error(`fake host: no session ${sessionId}`);
    return s;
  };
  const add = <T>(set: Set<T>, item: T) => {
    set.add(item);
    return () => void set.delete(item);
  };

  const api: HostPluginApi = {
    now: () => clock,
    append(sessionId, event: NewSessionEvent) {
      const s = session(sessionId);
      const stored = SessionEventSchema.parse({ ...event, seq: s.log.length + 1, at: clock++ });
      s.log.push(stored);
      for (const listener of eventListeners) listener(sessionId, stored);
      return stored;
    },
    events: (sessionId) => effective(session(sessionId).log),
    onEvent: (listener) => add(eventListeners, listener),
    onReset: (listener) => add(resetListeners, listener),
    onAgentDisposed: (listener) => add(disposedListeners, listener),
    registerTool(tool) {
      if (tools.has(tool.definition.name)) throw new Error(`tool ${tool.definition.name} registered twice`);
      tools.set(tool.definition.name, tool);
      return () => void tools.delete(tool.definition.name);
    },
    onBeforeStep: (hook) => add(hooks, hook),
    queuedMessageCount: (sessionId) => session(sessionId).queued,
    isLiveRoot: (sessionId) => sessions.get(sessionId)?.liveRoot ?? false,
    isReadOnly: (sessionId) => session(sessionId).readOnly,
    hasSession: (sessionId) => sessions.has(sessionId),
    publish: (sessionId) => void published.push(sessionId),
    ...(options.inspect ? { inspect: options.inspect } : {}),
  };

  const host = {
    api,
    tools,
    published,
    open(options: { readOnly?: boolean } = {}): SessionId {
      const sessionId = `s${++ids}` as SessionId;
      sessions.set(sessionId, { log: [], liveRoot: true, readOnly: options.readOnly ?? false, queued: 0 });
      return sessionId;
    },
    log: (sessionId: SessionId) => [...session(sessionId).log],
    setQueued(sessionId: SessionId, queued: number) {
      session(sessionId).queued = queued;
    },
    /** Disposes the session's agent (closeSession); `reopen` brings a fresh one. */
    closeAgent(sessionId: SessionId, notify = true) {
      session(sessionId).liveRoot = false;
      if (notify) for (const listener of disposedListeners) listener(sessionId);
    },
    reopen(sessionId: SessionId) {
      session(sessionId).liveRoot = true;
      for (const listener of resetListeners) listener(sessionId);
    },
    fork(sessionId: SessionId, throughSeq = session(sessionId).log.length): SessionId {
      const forked = host.open();
      const inherited = effective(session(sessionId).log).filter((e) => e.seq <= throughSeq);
      session(forked).log.push(...inherited.map((e, i) => ({ ...e, seq: i + 1 })));
      api.append(forked, { type: 'session/forked', from: sessionId, throughSeq: inherited.length });
      for (const listener of resetListeners) listener(forked);
      return forked;
    },
    rewind(sessionId: SessionId, toSeq: number) {
      api.append(sessionId, { type: 'session/rewound', toSeq });
      for (const listener of resetListeners) listener(sessionId);
    },
    turn(sessionId: SessionId): FakeTurn {
      const turnId = `t${++ids}` as TurnId;
      api.append(sessionId, { type: 'turn/started', turnId });
      return {
        turnId,
        async callTool(name, args, options = {}) {
          const callId = `c${++ids}` as CallId;
          const origin = options.origin ?? 'model';
          const agent = options.agent ?? 'root';
          api.append(sessionId, { type: 'tool/call', callId, turnId, name, args, origin, agent });
          const tool = tools.get(name);
          const outcome: ToolOutcome =
            tool === undefined
              ? { ok: false, content: `Unknown tool ${name}` }
              : await tool.execute(args, { sessionId, callId, turnId, origin, agent, concludeTurn: () => {} });
          api.append(sessionId, { type: 'tool/result', callId, turnId, name, ok: outcome.ok, content: outcome.content });
          return { ...outcome, callId };
        },
        step(agent = 'root') {
          const before = session(sessionId).log.length;
          for (const hook of hooks) hook({ sessionId, turnId });
          const advertised = [...tools.values()]
            .filter((t) => t.modes.includes('native') && (t.when?.({ sessionId, agent }) ?? true))
            .map((t) => t.definition.name);
          return { tools: advertised, notices: session(sessionId).log.slice(before) };
        },
        end() {
          api.append(sessionId, { type: 'turn/ended', turnId, outcome: 'completed' });
        },
      };
    },
  };
  return host;
}

export type FakeHost = ReturnType<typeof createFakeHost>;

/** The effective log: events cut by a later `session/rewound` no longer count. */
function effective(log: readonly SessionEvent[]): SessionEvent[] {
  let out: SessionEvent[] = [];
  for (const event of log) {
    if (event.type === 'session/rewound') out = out.filter((e) => e.seq <= event.toSeq);
    out.push(event);
  }
  return out;
}
