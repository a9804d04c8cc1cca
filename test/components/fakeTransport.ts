import type {
  DismissTaskSurfaceRequest,
  DismissTaskSurfaceResult,
  GetActiveTaskSurfaceRequest,
  GetActiveTaskSurfaceResult,
  SessionEvent,
  SessionId,
  SessionView,
  SubmitTaskSurfaceRequest,
  SubmitTaskSurfaceResult,
  TaskSurfaceModelV1,
  CallId,
  TaskSurfaceId,
  MessageId,
  GetTaskSurfaceOutcomeRequest,
  TaskSurfaceOutcome,
  TaskSurfacePendingSubmission,
} from '../../protocol/index.js';
import { TransportError, type HostTransport, type SessionListener } from '../../transport/types.js';

export const sid = (s: string) => s as SessionId;
export const surface = (s: string) => s as TaskSurfaceId;

export function emptyView(sessionId: SessionId): SessionView {
  return {
    sessionId,
    lastSeq: 0,
    readOnly: false,
    turn: 'idle',
    taskSurface: { active: null },
    queue: [],
    actionCards: { proposals: [], decisions: {} },
  };
}

/** A deferred promise the test settles by hand. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A spying HostTransport: it records every call, counts live watches, and answers from fields the
 * test sets (a function may return a deferred promise to hold a call open).
 */
export class FakeTransport implements HostTransport {
  views = new Map<SessionId, SessionView>();
  listeners = new Map<SessionId, Set<SessionListener>>();
  /** Watches made minus watches released. */
  liveWatches = 0;
  watchCalls = 0;
  log: SessionEvent[] = [];
  calls = {
    getActive: [] as GetActiveTaskSurfaceRequest[],
    getOutcome: [] as GetTaskSurfaceOutcomeRequest[],
    submit: [] as SubmitTaskSurfaceRequest[],
    dismiss: [] as DismissTaskSurfaceRequest[],
    readLog: 0,
  };
  /** How closed surfaces closed, by surfaceId (getOutcome answers `unknown` for others). */
  outcomes = new Map<string, TaskSurfaceOutcome>();
  /** The next this-many getOutcome calls fail with a transport error. */
  failGetOutcome = 0;
  models = new Map<string, TaskSurfaceModelV1>();
  /** The Host's pending submission for the open surface: getActive answers it and views carry it. */
  pending: TaskSurfacePendingSubmission | null = null;
  onSubmit: (input: SubmitTaskSurfaceRequest) => Promise<SubmitTaskSurfaceResult> = async (input) => ({
    accepted: true,
    messageId: `m-${input.submissionId}` as MessageId,
    phase: 'queued',
  });
  onDismiss: (input: DismissTaskSurfaceRequest) => Promise<DismissTaskSurfaceResult> = async () => ({ dismissed: true, eventSeq: 9 });
  disposed = false;
  /** The next this-many getActive calls fail with a transport error (a dropped connection). */
  failGetActive = 0;

  /** Opens `surfaceId` with `model` as the session's active surface and publishes the view. */
  open(sessionId: SessionId, surfaceId: string, model: TaskSurfaceModelV1): void {
    this.models.set(surfaceId, model);
    this.update(sessionId, {
      taskSurface: { active: { callId: `call-${surfaceId}` as CallId, surfaceId: surfaceId as TaskSurfaceId, pending: this.pending } },
    });
  }

  /** The Host's pending record changed (accepted, claimed, discarded): getActive and the pushed view say so. */
  setPending(sessionId: SessionId, pending: TaskSurfacePendingSubmission | null): void {
    this.pending = pending;
    const active = this.views.get(sessionId)?.taskSurface.active;
    if (active) this.update(sessionId, { taskSurface: { active: { ...active, pending } } });
  }

  close(sessionId: SessionId): void {
    this.update(sessionId, { taskSurface: { active: null } });
  }

  update(sessionId: SessionId, patch: Partial<SessionView>): void {
    const view = { ...(this.views.get(sessionId) ?? emptyView(sessionId)), ...patch };
    view.lastSeq++;
    this.views.set(sessionId, view);
    for (const listener of this.listeners.get(sessionId) ?? []) listener(view);
  }

  watchSession(sessionId: SessionId, listener: SessionListener): () => void {
    if (this.disposed) throw new TransportError('disposed', 'disposed');
    this.watchCalls++;
    this.liveWatches++;
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    queueMicrotask(() => {
      if (set.has(listener)) listener(this.views.get(sessionId) ?? emptyView(sessionId));
    });
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      this.liveWatches--;
      set.delete(listener);
    };
  }

  async readLog(_sessionId: SessionId, options: { before?: number; limit: number }) {
    this.calls.readLog++;
    const older = this.log.filter((e) => options.before === undefined || e.seq < options.before);
    const events = older.slice(-options.limit);
    return { events, hasMore: older.length > events.length, lastSeq: this.log.at(-1)?.seq ?? 0 };
  }

  taskSurface = {
    getActive: async (input: GetActiveTaskSurfaceRequest): Promise<GetActiveTaskSurfaceResult> => {
      this.calls.getActive.push(input);
      if (this.failGetActive > 0) {
        this.failGetActive--;
        throw new TransportError('unreachable', 'the connection dropped');
      }
      const view = this.views.get(input.sessionId);
      const model = this.models.get(input.surfaceId);
      if (!model || view?.taskSurface.active?.surfaceId !== input.surfaceId) return { active: false, reason: 'not-open' };
      return { active: true, callId: `call-${input.surfaceId}` as CallId, surfaceId: input.surfaceId, model, pending: this.pending };
    },
    getOutcome: async (input: GetTaskSurfaceOutcomeRequest): Promise<TaskSurfaceOutcome> => {
      this.calls.getOutcome.push(input);
      if (this.failGetOutcome > 0) {
        this.failGetOutcome--;
        throw new TransportError('unreachable', 'the connection dropped');
      }
      const active = this.views.get(input.sessionId)?.taskSurface.active;
      if (active?.surfaceId === input.surfaceId) return { status: 'open', callId: active.callId, pending: active.pending };
      return this.outcomes.get(input.surfaceId) ?? { status: 'unknown' };
    },
    submit: (input: SubmitTaskSurfaceRequest) => {
      this.calls.submit.push(input);
      return this.onSubmit(input);
    },
    dismiss: (input: DismissTaskSurfaceRequest) => {
      this.calls.dismiss.push(input);
      return this.onDismiss(input);
    },
  };

  session = {
    send: async () => {
      throw new Error('not used');
    },
    updateQueue: async () => {
      throw new Error('not used');
    },
  };

  actionCards = {
    act: async () => {
      throw new Error('not used');
    },
  };

  dispose(): void {
    this.disposed = true;
    for (const set of this.listeners.values()) set.clear();
  }
}
