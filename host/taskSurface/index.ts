import { createActor, type Actor } from 'xstate';
import { surfaceMachine } from '../../machines/surfaceMachine.js';
import {
  DismissTaskSurfaceRequestSchema,
  formatSubmission,
  GetActiveTaskSurfaceRequestSchema,
  GetTaskSurfaceOutcomeRequestSchema,
  parseTaskSurfaceModel,
  SubmitTaskSurfaceRequestSchema,
  TaskSurfacePresentationMetaEnvelopeSchema,
  validateSubmission,
  type CallId,
  type MessageId,
  type NormalizedTaskSurfaceModel,
  type SessionEvent,
  type SessionId,
  type TaskSurfaceLimits,
  type TaskSurfaceOutcome,
  type TaskSurfacePendingSubmission,
  type TaskSurfaceService,
  type TaskSurfaceId,
  type TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import { parseInput, storeStep } from '../errors.js';
import { freshId, type HostIds } from '../ids.js';
import type { Inbox, InboxObserver } from '../inbox.js';
import type { LoadedSession, Sessions } from '../sessions.js';
import type { InspectObserver } from '../types.js';
import { modelBuiltHere } from './tools.js';

type SurfaceActor = Actor<typeof surfaceMachine>;

export interface TaskSurfaceServiceDeps {
  sessions: Sessions;
  ids: HostIds;
  limits: TaskSurfaceLimits;
  inspect: InspectObserver | undefined;
  /** The session's live inbox (created on demand). */
  inbox(sessionId: SessionId): Inbox;
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
 * closed is the fold's (`session.surface`, projection.ts); a live `surfaceMachine` actor exists only
 * while a submission of this process is queued or claiming, and the inbox's outcomes move it along.
 */
export function createTaskSurfaceService(deps: TaskSurfaceServiceDeps): TaskSurfaceHostService {
  /** Live actors per session by callId: one per accepted submission not yet durable or discarded. */
  const actors = new Map<SessionId, Map<CallId, SurfaceActor>>();
  /**
   * Per session, one actor that holds no record, kept for the next submission: a session's surfaces
   * are followed by one long-lived actor, not one created per submission (a second exists only while
   * a bypassed occurrence still awaits its row's outcome).
   */
  const spares = new Map<SessionId, SurfaceActor>();
  /** The last occurrence model read per session: a stored tool/result never changes, so it is read once. */
  const models = new Map<SessionId, { callId: CallId; model: NormalizedTaskSurfaceModel }>();
  let disposed = false;

  const assertLive = () => {
    if (disposed) throw new Error('the host is disposed');
  };

  /** The session if it exists and accepts Task Surface actions (read-only sessions do not). */
  const actionable = (sessionId: SessionId): LoadedSession | undefined => {
    const session = deps.sessions.find(sessionId);
    return session && !session.record.readOnly ? session : undefined;
  };

  /**
   * Reads the exact occurrence by callId (an index, never a scan) and revalidates its model. The
   * stored result is immutable, so the last valid model per session is kept (one open surface each).
   */
  const occurrenceModel = (session: LoadedSession, callId: CallId): NormalizedTaskSurfaceModel | null => {
    const sessionId = session.record.sessionId;
    const cached = models.get(sessionId);
    if (cached?.callId === callId) return cached.model;
    const { result } = storeStep(sessionId, "reading the surface's tool result", () => deps.sessions.store.findCall(sessionId, callId));
    if (result?.type !== 'tool/result' || !result.ok) return null;
    const meta = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(result.meta);
    if (!meta.success) return null;
    const parsed = parseTaskSurfaceModel(meta.data.model, deps.limits);
    if (!parsed.ok) return null;
    models.set(sessionId, { callId, model: parsed.model });
    return parsed.model;
  };

  const pendingOf = (sessionId: SessionId, callId: CallId): TaskSurfacePendingSubmission | null => {
    const snapshot = actors.get(sessionId)?.get(callId)?.getSnapshot();
    const pending = snapshot?.context.pending;
    if (!snapshot || !pending) return null;
    return {
      submissionId: pending.submissionId,
      messageId: pending.messageId,
      phase: snapshot.matches('claiming') ? 'claiming' : 'queued',
    };
  };

  /** The messageId of a submission this process accepted and still holds (not yet durable). */
  const heldSubmission = (sessionId: SessionId, submissionId: TaskSurfaceSubmissionId): MessageId | undefined => {
    for (const actor of actors.get(sessionId)?.values() ?? []) {
      const pending = actor.getSnapshot().context.pending;
      if (pending?.submissionId === submissionId) return pending.messageId;
    }
    return undefined;
  };

  /** Releases the actors that hold no pending record any more (durable, discarded): one is kept as the spare. */
  const collect = (sessionId: SessionId) => {
    const live = actors.get(sessionId);
    if (!live) return;
    for (const [callId, actor] of live) {
      if (actor.getSnapshot().context.pending) continue;
      live.delete(callId);
      if (spares.has(sessionId)) actor.stop();
      else spares.set(sessionId, actor);
    }
    if (live.size === 0) actors.delete(sessionId);
  };

  /** The actor that takes a new submission: the session's spare (it holds nothing), else a new one. */
  const actorFor = (sessionId: SessionId, callId: CallId, surfaceId: TaskSurfaceId): SurfaceActor => {
    const spare = spares.get(sessionId);
    if (!spare) return createActor(surfaceMachine, { input: { callId, surfaceId }, inspect: deps.inspect }).start();
    spares.delete(sessionId);
    return spare;
  };

  const sendTo = (sessionId: SessionId, callId: CallId, event: Parameters<SurfaceActor['send']>[0]) => {
    actors.get(sessionId)?.get(callId)?.send(event);
    collect(sessionId);
  };

  const service: TaskSurfaceHostService = {
    async getActive(input) {
      const request = parseInput('taskSurface.getActive', GetActiveTaskSurfaceRequestSchema, input);
      const session = actionable(request.sessionId);
      const active = session?.surface.active;
      if (!session || !active || active.surfaceId !== request.surfaceId) return { active: false, reason: 'not-open' };
      const model = occurrenceModel(session, active.callId);
      if (!model) return { active: false, reason: 'not-open' };
      return {
        active: true,
        callId: active.callId,
        surfaceId: active.surfaceId,
        model,
        pending: pendingOf(request.sessionId, active.callId),
      };
    },

    async getOutcome(input): Promise<TaskSurfaceOutcome> {
      const request = parseInput('taskSurface.getOutcome', GetTaskSurfaceOutcomeRequestSchema, input);
      // A read: read-only sessions answer too (their transcript rows show how each surface closed).
      const session = deps.sessions.find(request.sessionId);
      if (!session) return { status: 'unknown' };
      const active = session.surface.active;
      if (active?.surfaceId === request.surfaceId) {
        return { status: 'open', callId: active.callId, pending: pendingOf(request.sessionId, active.callId) };
      }
      const closed = session.surface.outcomes.get(request.surfaceId);
      return closed ? structuredClone(closed) : { status: 'unknown' };
    },

    async submit(input, by) {
      const request = parseInput('taskSurface.submit', SubmitTaskSurfaceRequestSchema, input);
      const { sessionId, surfaceId, submissionId } = request;
      assertLive();
      const session = actionable(sessionId);
      if (!session) return { accepted: false, reason: 'not-open' };
      const first = session.surface.submissions.get(submissionId) ?? heldSubmission(sessionId, submissionId);
      if (first) return { accepted: true, messageId: first, phase: 'queued' };
      const active = session.surface.active;
      if (!active) return { accepted: false, reason: 'not-open' };
      if (active.surfaceId !== surfaceId) return { accepted: false, reason: 'stale' };
      if (pendingOf(sessionId, active.callId)) return { accepted: false, reason: 'submission-pending' };
      const model = occurrenceModel(session, active.callId);
      if (!model) return { accepted: false, reason: 'not-open' };
      const submission = request.note === undefined ? { values: request.values } : { values: request.values, note: request.note };
      const valid = validateSubmission(model, submission, deps.limits);
      if (!valid.ok) return { accepted: false, reason: 'invalid-submission' };
      // Nothing above awaited the store: the checks and the admission below see one consistent state.
      const inbox = deps.inbox(sessionId);
      const messageId = freshId('message', deps.ids.message, (id) => session.userMessages.has(id) || inbox.findMessage(id) !== undefined);
      const text = formatSubmission(model, valid.values, valid.note, { locale: request.locale ?? session.record.locale });
      // The record first, so the view the enqueue publishes already carries the pending phase.
      const actor = actorFor(sessionId, active.callId, surfaceId);
      actor.send({ type: 'submission.accepted', callId: active.callId, surfaceId, submissionId, messageId });
      let live = actors.get(sessionId);
      if (!live) actors.set(sessionId, (live = new Map()));
      live.set(active.callId, actor);
      try {
        inbox.enqueue({
          messageId,
          text,
          source: {
            kind: 'user',
            rpcId: deps.ids.rpc(),
            taskSurface: { version: 1, submissionId, callId: active.callId, surfaceId, values: valid.values },
            ...(by === undefined ? {} : { by }),
          },
        });
      } catch (error) {
        // Not accepted (the row could not be saved): no record stays behind.
        sendTo(sessionId, active.callId, { type: 'submission.discarded', reason: 'store-failed' });
        throw error;
      }
      return { accepted: true, messageId, phase: 'queued' };
    },

    async dismiss(input, by) {
      const request = parseInput('taskSurface.dismiss', DismissTaskSurfaceRequestSchema, input);
      assertLive();
      const session = actionable(request.sessionId);
      if (!session) return { dismissed: false, reason: 'not-open' };
      const earlier = session.surface.dismissals.get(request.dismissalId);
      if (earlier !== undefined) return { dismissed: true, eventSeq: earlier };
      const active = session.surface.active;
      if (!active) return { dismissed: false, reason: 'not-open' };
      if (active.surfaceId !== request.surfaceId) return { dismissed: false, reason: 'stale' };
      if (pendingOf(request.sessionId, active.callId)) return { dismissed: false, reason: 'submission-pending' };
      // A store failure stores nothing: the surface stays open and the same dismissalId may be retried.
      const event = storeStep(request.sessionId, 'taskSurface.dismiss', () =>
        deps.sessions.append(request.sessionId, {
          type: 'task-surface/dismissed',
          callId: active.callId,
          surfaceId: active.surfaceId,
          dismissalId: request.dismissalId,
          ...(by === undefined ? {} : { by }),
        }),
      );
      return { dismissed: true, eventSeq: event.seq };
    },

    activePending(session) {
      const active = session.surface.active;
      return active ? pendingOf(session.record.sessionId, active.callId) : null;
    },

    pendingRecords(sessionId) {
      return [...(actors.get(sessionId)?.values() ?? [])].flatMap((actor) => {
        const { context, value } = actor.getSnapshot();
        return context.pending ? [{ callId: context.callId, messageId: context.pending.messageId, state: JSON.stringify(value) }] : [];
      });
    },

    onEvent(session, event, reset) {
      const sessionId = session.record.sessionId;
      if (reset) return service.reset(session);
      // The result this host just appended for the open surface carries the model its tool parsed.
      if (event.type === 'tool/result' && session.surface.active?.callId === event.callId) {
        const built = modelBuiltHere(event.meta);
        if (built) models.set(sessionId, { callId: event.callId, model: built });
      }
      const live = actors.get(sessionId);
      if (!live || (event.type !== 'user/message' && event.type !== 'task-surface/dismissed')) return;
      // The fold decided the outcome; the actors holding a submission follow it to release their record.
      for (const actor of live.values()) {
        const { callId, surfaceId } = actor.getSnapshot().context;
        if (event.type === 'task-surface/dismissed') {
          if (event.callId === callId && event.surfaceId === surfaceId) actor.send({ type: 'log.dismissed' });
        } else if (!event.source.taskSurface) {
          actor.send({ type: 'log.bypassed' });
        } else if (event.source.taskSurface.callId === callId && event.source.taskSurface.surfaceId === surfaceId) {
          actor.send({ type: 'log.submitted', submissionId: event.source.taskSurface.submissionId });
        }
      }
      collect(sessionId);
    },

    reset(session) {
      service.unload(session.record.sessionId);
    },

    unload(sessionId) {
      for (const actor of actors.get(sessionId)?.values() ?? []) actor.stop();
      actors.delete(sessionId);
      spares.get(sessionId)?.stop();
      spares.delete(sessionId);
      models.delete(sessionId);
    },

    dispose() {
      disposed = true;
      for (const live of actors.values()) for (const actor of live.values()) actor.stop();
      for (const spare of spares.values()) spare.stop();
      actors.clear();
      spares.clear();
      models.clear();
    },

    /* ---- inbox outcomes (generic; only correlated rows concern this service) ---- */

    claimed(sessionId, row) {
      const correlation = row.source.taskSurface;
      if (correlation) sendTo(sessionId, correlation.callId, { type: 'queue.claimed' });
    },

    committed(sessionId) {
      // Durable now: the fold answers retries of this submissionId from here on.
      collect(sessionId);
    },

    discarded(sessionId, row, reason) {
      const correlation = row.source.taskSurface;
      if (correlation) sendTo(sessionId, correlation.callId, { type: 'submission.discarded', reason });
    },
  };
  return service;
}
