import {
  GetActiveTaskSurfaceRequestSchema,
  GetTaskSurfaceOutcomeRequestSchema,
  type CallId,
  type MessageId,
  type SessionEvent,
  type SessionId,
  type TaskSurfaceLimits,
  type TaskSurfaceOutcome,
  type TaskSurfacePendingSubmission,
  type TaskSurfaceService,
} from '../../protocol/index.js';
import { parseInput } from '../errors.js';
import type { HostIds } from '../ids.js';
import type { Inbox, InboxObserver } from '../inbox.js';
import type { LoadedSession, Sessions } from '../sessions.js';
import type { InspectObserver } from '../types.js';
import { actionable, dismissSurface, submitSurface, type SurfaceActionsDeps } from './actions.js';
import { OccurrenceModels } from './occurrences.js';
import { SubmissionRecords } from './records.js';
import type { MessageAdmission } from '../limits/admission.js';

export interface TaskSurfaceServiceDeps {
  sessions: Sessions;
  ids: HostIds;
  limits: TaskSurfaceLimits;
  inspect: InspectObserver | undefined;
  /** The session's live inbox (created on demand). */
  inbox(sessionId: SessionId): Inbox;
  /** The principal's limits, asked before a submission is queued (host/limits/admission.ts). */
  admission: MessageAdmission;
}

/** The service as createHost holds it: the public contract, the inbox's observer, the log's listener. */
export interface TaskSurfaceHostService extends TaskSurfaceService, InboxObserver {
  /** The pending submission of the session's open surface (null when none): the pushed view carries it. */
  activePending(session: LoadedSession): TaskSurfacePendingSubmission | null;
  /** Every live pending record of a session (tests and invariants). */
  pendingRecords(sessionId: SessionId): { callId: CallId; messageId: MessageId; state: string }[];
  /** After an event is durable and folded; `reset`: the effective log was cut (a rewind). */
  onEvent(session: LoadedSession, event: SessionEvent, reset: boolean): void;
  /** The session's state was rebuilt from its log (load, rewind): process-local records are gone. */
  reset(session: LoadedSession): void;
  /** Forgets an unloaded session (nothing pending); the next load folds its log again. */
  unload(sessionId: SessionId): void;
  /** Nothing is admitted or appended afterwards; getActive and getOutcome still read. */
  dispose(): void;
  /** `by`: the principal id who submitted (recorded on the user message's source). */
  submit(input: unknown, by?: string): ReturnType<TaskSurfaceService['submit']>;
  /** `by`: the principal id who dismissed (recorded on the event). */
  dismiss(input: unknown, by?: string): ReturnType<TaskSurfaceService['dismiss']>;
}

/**
 * Creates the Task Surface service: getActive, getOutcome, submit, dismiss. Whether and how a surface
 * closed is the fold's (`session.surface`, projection.ts); its parts: `OccurrenceModels` (the open
 * surface's model), `SubmissionRecords` (a live `surfaceMachine` actor only while a submission of this
 * process is queued or claiming; the inbox's outcomes move it along), and the actions (actions.ts).
 */
export function createTaskSurfaceService(deps: TaskSurfaceServiceDeps): TaskSurfaceHostService {
  const records = new SubmissionRecords(deps.inspect);
  const models = new OccurrenceModels(deps.sessions, deps.limits);
  let disposed = false;
  const actions: SurfaceActionsDeps = {
    ...deps,
    records,
    models,
    assertLive: () => {
      if (disposed) throw new Error('the host is disposed');
    },
  };

  const service: TaskSurfaceHostService = {
    async getActive(input) {
      const request = parseInput('taskSurface.getActive', GetActiveTaskSurfaceRequestSchema, input);
      const session = actionable(deps.sessions, request.sessionId);
      const active = session?.surface.active;
      if (!session || !active || active.surfaceId !== request.surfaceId) return { active: false, reason: 'not-open' };
      const model = models.model(session, active.callId);
      if (!model) return { active: false, reason: 'not-open' };
      const pending = records.pendingOf(request.sessionId, active.callId);
      return { active: true, callId: active.callId, surfaceId: active.surfaceId, model, pending };
    },

    async getOutcome(input): Promise<TaskSurfaceOutcome> {
      const request = parseInput('taskSurface.getOutcome', GetTaskSurfaceOutcomeRequestSchema, input);
      // A read: read-only sessions answer too (their transcript rows show how each surface closed).
      const session = deps.sessions.find(request.sessionId);
      if (!session) return { status: 'unknown' };
      const active = session.surface.active;
      if (active?.surfaceId === request.surfaceId) {
        return { status: 'open', callId: active.callId, pending: records.pendingOf(request.sessionId, active.callId) };
      }
      const closed = session.surface.outcomes.get(request.surfaceId);
      return closed ? structuredClone(closed) : { status: 'unknown' };
    },

    submit: (input, by) => submitSurface(actions, input, by),
    dismiss: (input, by) => dismissSurface(actions, input, by),

    activePending(session) {
      const active = session.surface.active;
      return active ? records.pendingOf(session.record.sessionId, active.callId) : null;
    },
    pendingRecords: (sessionId) => records.list(sessionId),

    onEvent(session, event, reset) {
      if (reset) return service.reset(session);
      models.noticed(session, event);
      records.follow(session.record.sessionId, event);
    },
    reset: (session) => records.forget(session.record.sessionId),
    unload: (sessionId) => records.forget(sessionId),
    dispose() {
      disposed = true;
      records.dispose();
    },

    /* ---- inbox outcomes (generic; only correlated rows concern this service) ---- */
    claimed(sessionId, row) {
      const correlation = row.source.taskSurface;
      if (correlation) records.send(sessionId, correlation.callId, { type: 'queue.claimed' });
    },
    discarded(sessionId, row, reason) {
      const correlation = row.source.taskSurface;
      if (correlation) records.send(sessionId, correlation.callId, { type: 'submission.discarded', reason });
    },
  };
  return service;
}
