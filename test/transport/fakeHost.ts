// A small in-memory Host for transport tests: enough behaviour to observe what the wire does
// (calls counted, submissions deduped by submissionId like the real Host, calls that can be held).
import { ownerOnly, type SessionPolicy } from '../../host/principal.js';
import { scopedHost } from '../../host/scoped.js';
import type { Host } from '../../host/types.js';
import type {
  LogPage,
  SessionEvent,
  SessionId,
  SessionSummary,
  SessionView,
  SubmitTaskSurfaceResult,
  MessageId,
  InboxItemId,
} from '../../protocol/index.js';
import type { SessionListener } from '../../transport/types.js';

export interface FakeHost extends Host {
  calls: Record<string, number>;
  watcherCount(): number;
  /** Makes the next calls of `method` wait until `release()`. */
  hold(method: string): { release(): void; reached: Promise<void> };
  bump(sessionId: SessionId): void;
  answerWith(method: string, value: unknown): void;
}

export interface FakeHostOptions {
  /** Owners by session id (the rest have none: only host code sees them). */
  owners?: Record<string, string>;
  policy?: SessionPolicy;
  /** Where the scoped host reports a policy that throws. */
  onError?(error: Error): void;
}

export function createFakeHost(sessionIds: string[] = ['s1', 's2'], options: FakeHostOptions = {}): FakeHost {
  const views = new Map<SessionId, SessionView>();
  const listeners = new Map<SessionId, Set<SessionListener>>();
  const submissions = new Map<string, SubmitTaskSurfaceResult>();
  const calls: Record<string, number> = {};
  const holds = new Map<string, { gate: Promise<void>; arrived: () => void }>();
  const overrides = new Map<string, unknown>();
  const log = new Map<SessionId, SessionEvent[]>();
  const open = (id: string) => {
    const sessionId = id as SessionId;
    views.set(sessionId, {
      sessionId,
      lastSeq: 0,
      readOnly: false,
      turn: 'idle',
      taskSurface: { active: null },
      queue: [],
      actionCards: { proposals: [], decisions: {} },
    });
    log.set(sessionId, []);
    return sessionId;
  };
  sessionIds.forEach(open);
  const track = async <T>(method: string, run: () => T): Promise<T> => {
    calls[method] = (calls[method] ?? 0) + 1;
    const held = holds.get(method);
    if (held) {
      held.arrived();
      await held.gate;
    }
    if (overrides.has(method)) return overrides.get(method) as T;
    return run();
  };
  const publish = (sessionId: SessionId) => {
    for (const l of listeners.get(sessionId) ?? []) l(views.get(sessionId)!);
  };
  const bump = (sessionId: SessionId) => {
    const view = views.get(sessionId)!;
    const events = log.get(sessionId)!;
    events.push({ seq: events.length + 1, at: 0, type: 'turn/started', turnId: `t${events.length + 1}` } as SessionEvent);
    views.set(sessionId, { ...view, lastSeq: events.length });
    publish(sessionId);
  };
  let opened = 0;
  const host: FakeHost = {
    calls,
    watcherCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
    hold(method) {
      let release!: () => void;
      let arrived!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const reached = new Promise<void>((r) => (arrived = r));
      holds.set(method, { gate, arrived });
      return {
        release: () => {
          holds.delete(method);
          release();
        },
        reached,
      };
    },
    bump,
    answerWith: (method, value) => overrides.set(method, value),
    taskSurface: {
      getActive: (_input) => track('getActive', () => ({ active: false, reason: 'not-open' }) as const),
      getOutcome: (_input) => track('getOutcome', () => ({ status: 'unknown' }) as const),
      submit: (input) =>
        track('submit', () => {
          const first = submissions.get(input.submissionId);
          if (first) return first;
          const result = { accepted: true, messageId: `m-${input.submissionId}` as MessageId, phase: 'queued' } as const;
          submissions.set(input.submissionId, result);
          bump(input.sessionId);
          return result;
        }),
      dismiss: (_input) => track('dismiss', () => ({ dismissed: false, reason: 'not-open' }) as const),
    },
    actionCards: {
      register: () => () => {},
      act: (_input) => track('act', () => ({ status: 'accepted', phase: 'started' }) as const),
      view: () => ({ proposals: [], decisions: {} }),
      record: () => {
        throw new Error('not in the fake');
      },
    },
    session: {
      send: (input) =>
        track('send', () => {
          bump(input.sessionId);
          return { accepted: true, messageId: input.messageId, itemId: `i-${input.messageId}` as InboxItemId } as const;
        }),
      updateQueue: (_input) => track('updateQueue', () => ({ ok: false, reason: 'queue-item-not-found' }) as const),
    },
    openSession: (options) => open(options?.sessionId ?? `new${++opened}`),
    hasSession: (sessionId) => views.has(sessionId),
    load: async (sessionId) => views.has(sessionId),
    whenDurable: async () => undefined,
    loadedSessionCount: () => views.size,
    listSessions: (): SessionSummary[] =>
      [...views.values()].map((v) => ({ sessionId: v.sessionId, title: `Session ${v.sessionId}`, lastSeq: v.lastSeq })),
    // The fake's sessions have no owners (host code opened them all).
    listSessionsOf: (): SessionSummary[] => [],
    sessionSummary: (sessionId: SessionId): SessionSummary => ({
      sessionId,
      title: `Session ${sessionId}`,
      lastSeq: views.get(sessionId)?.lastSeq ?? 0,
    }),
    closeSession: () => {},
    unload: () => {},
    getView: (sessionId) => views.get(sessionId)!,
    watchSession(sessionId, listener) {
      let set = listeners.get(sessionId);
      if (!set) listeners.set(sessionId, (set = new Set()));
      set.add(listener);
      listener(views.get(sessionId)!);
      return () => {
        set.delete(listener);
      };
    },
    readLog: (sessionId, { before, limit }) =>
      track('readLog', (): LogPage => {
        const events = log.get(sessionId)!.filter((e) => before === undefined || e.seq < before);
        return { events: events.slice(-limit), hasMore: events.length > limit, lastSeq: log.get(sessionId)!.length };
      }),
    fork: () => {
      throw new Error('not in the fake');
    },
    // Through `this`: a test that spreads the fake and overrides a method reaches the override.
    as(this: FakeHost, principal) {
      const self = this as FakeHost; // the spread copy a test made, not the original
      return scopedHost({
        host: self,
        principal,
        policy: options.policy ?? ownerOnly,
        report: options.onError ?? (() => {}),
        owner: (sessionId) => options.owners?.[sessionId] ?? null,
        open: (opts) => self.openSession(opts),
        fork: (id, opts) => self.fork(id, opts),
        send: (input) => self.session.send(input as never),
        submit: (input) => self.taskSurface.submit(input as never),
        dismiss: (input) => self.taskSurface.dismiss(input as never),
        // The fake stores nothing: no principal is ever at a limit.
        limits: { checkOwn: () => undefined, storageFull: () => null, storedBytes: () => 0 },
      });
    },
    rewind: () => {},
    whenIdle: async () => {},
    inbox: { claimNext: () => null, claimed: () => [] },
    plugins: {} as FakeHost['plugins'],
    dispose: async () => {},
  };
  return host;
}
