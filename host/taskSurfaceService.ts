import { createActor, type Actor } from 'xstate';
import { surfaceMachine } from '../machines/surfaceMachine.js';
import {
  DismissTaskSurfaceRequestSchema, formatSubmission, GetActiveTaskSurfaceRequestSchema, parseTaskSurfaceModel,
  SubmitTaskSurfaceRequestSchema, TaskSurfacePresentationMetaEnvelopeSchema, validateSubmission,
  type CallId, type DismissTaskSurfaceResult, type GetActiveTaskSurfaceResult, type MessageId,
  type NormalizedTaskSurfaceModel, type QueuedMessage, type SessionEvent, type SessionId, type SubmitTaskSurfaceResult,
  type TaskSurfaceLimits, type TaskSurfacePendingSubmission, type TaskSurfaceService, type TaskSurfaceSubmissionId,
} from '../protocol/index.js';
import { parseInput, storeStep } from './errors.js';
import type { HostIds } from './ids.js';
import type { Inbox, InboxObserver } from './inbox.js';
import type { LoadedSession, Sessions } from './sessions.js';
import type { InspectObserver } from './types.js';

type SurfaceActor = Actor<typeof surfaceMachine>;

export interface TaskSurfaceServiceDeps {
  sessions: Sessions;
  ids: HostIds;
  limits: TaskSurfaceLimits;
  inspect: InspectObserver | undefined;
  /** The session's live inbox (created on demand). */
  inbox(sessionId: SessionId): Inbox;
  publish(sessionId: SessionId): void;
}

/**
 * The Task Surface service: getActive, submit, dismiss. The log-derived occurrence comes from the
 * projection and `findCall`; the one process-local pending submission per surface lives in that
 * surface's `surfaceMachine` actor (queued, claiming), which the inbox observer moves along.
 */
export class TaskSurfaceCoordinator implements TaskSurfaceService, InboxObserver {
  /** Live surface actors per session by callId: the open one, plus closed ones still holding a record. */
  readonly #actors = new Map<SessionId, Map<CallId, SurfaceActor>>();
  /** Accepted submissions of this process (first results for retries), per session. */
  readonly #accepted = new Map<SessionId, Map<TaskSurfaceSubmissionId, MessageId>>();
  /** The last occurrence model read per session: a stored tool/result never changes, so it is read once. */
  readonly #models = new Map<SessionId, { callId: CallId; model: NormalizedTaskSurfaceModel }>();
  #disposed = false;

  constructor(private readonly deps: TaskSurfaceServiceDeps) {}

  async getActive(input: unknown): Promise<GetActiveTaskSurfaceResult> {
    const request = parseInput('taskSurface.getActive', GetActiveTaskSurfaceRequestSchema, input);
    const session = this.#actionable(request.sessionId);
    const active = session?.surface.active;
    if (!session || !active || active.surfaceId !== request.surfaceId) return { active: false, reason: 'not-open' };
    const model = this.#occurrenceModel(session, active.callId);
    if (!model) return { active: false, reason: 'not-open' };
    return { active: true, callId: active.callId, surfaceId: active.surfaceId, model, pending: this.pending(request.sessionId, active.callId) };
  }

  async submit(input: unknown): Promise<SubmitTaskSurfaceResult> {
    const request = parseInput('taskSurface.submit', SubmitTaskSurfaceRequestSchema, input);
    const { sessionId, surfaceId, submissionId } = request;
    this.#assertLive();
    const session = this.#actionable(sessionId);
    if (!session) return { accepted: false, reason: 'not-open' };
    const first = this.#accepted.get(sessionId)?.get(submissionId) ?? session.surface.submissions.get(submissionId);
    if (first) return { accepted: true, messageId: first, phase: 'queued' };
    const active = session.surface.active;
    if (!active) return { accepted: false, reason: 'not-open' };
    if (active.surfaceId !== surfaceId) return { accepted: false, reason: 'stale' };
    const actor = this.#actorFor(sessionId, active.callId);
    if (actor.getSnapshot().context.pending) return { accepted: false, reason: 'submission-pending' };
    const model = this.#occurrenceModel(session, active.callId);
    if (!model) return { accepted: false, reason: 'not-open' };
    const submission = request.note === undefined ? { values: request.values } : { values: request.values, note: request.note };
    const valid = validateSubmission(model, submission, this.deps.limits);
    if (!valid.ok) return { accepted: false, reason: 'invalid-submission' };
    // Nothing above awaited the store: the checks and the admission below see one consistent state.
    const inbox = this.deps.inbox(sessionId);
    let messageId = this.deps.ids.message();
    while (session.userMessages.has(messageId) || inbox.findMessage(messageId)) messageId = this.deps.ids.message();
    const text = formatSubmission(model, valid.values, valid.note, { locale: request.locale ?? session.record.locale });
    const row = inbox.enqueue({
      messageId,
      text,
      source: {
        kind: 'user',
        rpcId: this.deps.ids.rpc(),
        taskSurface: { version: 1, submissionId, callId: active.callId, surfaceId, values: valid.values },
      },
    });
    actor.send({ type: 'submission.accepted', submissionId, messageId, itemId: row.id });
    this.#acceptedIn(sessionId).set(submissionId, messageId);
    return { accepted: true, messageId, phase: 'queued' };
  }

  async dismiss(input: unknown): Promise<DismissTaskSurfaceResult> {
    const request = parseInput('taskSurface.dismiss', DismissTaskSurfaceRequestSchema, input);
    this.#assertLive();
    const session = this.#actionable(request.sessionId);
    if (!session) return { dismissed: false, reason: 'not-open' };
    const earlier = session.surface.dismissals.get(request.dismissalId);
    if (earlier !== undefined) return { dismissed: true, eventSeq: earlier };
    const active = session.surface.active;
    if (!active) return { dismissed: false, reason: 'not-open' };
    if (active.surfaceId !== request.surfaceId) return { dismissed: false, reason: 'stale' };
    if (this.#actors.get(request.sessionId)?.get(active.callId)?.getSnapshot().context.pending) {
      return { dismissed: false, reason: 'submission-pending' };
    }
    // A store failure stores nothing: the surface stays open and the same dismissalId may be retried.
    const event = storeStep(request.sessionId, 'taskSurface.dismiss', () => this.deps.sessions.append(request.sessionId, {
      type: 'task-surface/dismissed', callId: active.callId, surfaceId: active.surfaceId, dismissalId: request.dismissalId,
    }));
    return { dismissed: true, eventSeq: event.seq };
  }

  /** The pending submission of one occurrence, joined from its live actor. */
  pending(sessionId: SessionId, callId: CallId): TaskSurfacePendingSubmission | null {
    const snapshot = this.#actors.get(sessionId)?.get(callId)?.getSnapshot();
    const pending = snapshot?.context.pending;
    if (!snapshot || !pending) return null;
    return {
      submissionId: pending.submissionId,
      messageId: pending.messageId,
      phase: snapshot.matches('claiming') ? 'claiming' : 'queued',
    };
  }

  /** Every pending record of a session (tests and invariants). */
  pendingRecords(sessionId: SessionId): { callId: CallId; messageId: MessageId; state: string }[] {
    return [...(this.#actors.get(sessionId)?.values() ?? [])].flatMap((actor) => {
      const { context, value } = actor.getSnapshot();
      return context.pending ? [{ callId: context.callId, messageId: context.pending.messageId, state: JSON.stringify(value) }] : [];
    });
  }

  /* ---- log events (after they are durable and folded) ---- */

  onEvent(session: LoadedSession, event: SessionEvent, reset: boolean): void {
    const sessionId = session.record.sessionId;
    if (reset) {
      this.reset(session);
      return;
    }
    const actors = this.#actors.get(sessionId);
    if (actors && (event.type === 'user/message' || event.type === 'task-surface/dismissed')) {
      for (const actor of actors.values()) {
        const { callId, surfaceId } = actor.getSnapshot().context;
        if (event.type === 'task-surface/dismissed') {
          if (event.callId === callId && event.surfaceId === surfaceId) actor.send({ type: 'log.dismissed' });
        } else if (!event.source.taskSurface) {
          actor.send({ type: 'log.bypassed' });
        } else if (event.source.taskSurface.callId === callId && event.source.taskSurface.surfaceId === surfaceId) {
          actor.send({ type: 'log.submitted', submissionId: event.source.taskSurface.submissionId });
        }
      }
      this.#collect(sessionId);
    }
    if (session.surface.active) this.#actorFor(sessionId, session.surface.active.callId);
  }

  /** Rebuilds the live actors from the fold (load, rewind): process-local records are gone. */
  reset(session: LoadedSession): void {
    const sessionId = session.record.sessionId;
    for (const actor of this.#actors.get(sessionId)?.values() ?? []) actor.stop();
    this.#actors.delete(sessionId);
    this.#accepted.delete(sessionId);
    this.#models.delete(sessionId);
    if (session.surface.active) this.#actorFor(sessionId, session.surface.active.callId);
  }

  /** Forgets an unloaded session (nothing pending); its actors come back from the fold on the next load. */
  unload(sessionId: SessionId): void {
    for (const actor of this.#actors.get(sessionId)?.values() ?? []) actor.stop();
    this.#actors.delete(sessionId);
    this.#accepted.delete(sessionId);
    this.#models.delete(sessionId);
  }

  dispose(): void {
    this.#disposed = true;
    for (const actors of this.#actors.values()) for (const actor of actors.values()) actor.stop();
    this.#actors.clear();
    this.#models.clear();
  }

  /* ---- inbox outcomes (generic; only correlated rows concern this service) ---- */

  claimed(sessionId: SessionId, row: QueuedMessage): void {
    const correlation = row.source.taskSurface;
    if (correlation) this.#actors.get(sessionId)?.get(correlation.callId)?.send({ type: 'queue.claimed' });
  }

  committed(sessionId: SessionId, row: QueuedMessage): void {
    const correlation = row.source.taskSurface;
    if (!correlation) return;
    // Durable now: the fold answers retries of this submissionId from here on.
    this.#accepted.get(sessionId)?.delete(correlation.submissionId);
    this.#collect(sessionId);
  }

  discarded(sessionId: SessionId, row: QueuedMessage, reason: string): void {
    const correlation = row.source.taskSurface;
    if (!correlation) return;
    this.#actors.get(sessionId)?.get(correlation.callId)?.send({ type: 'submission.discarded', reason });
    this.#accepted.get(sessionId)?.delete(correlation.submissionId);
    this.#collect(sessionId);
  }

  /* ---- internals ---- */

  /** After the host's disposal nothing is admitted or appended (getActive still reads). */
  #assertLive(): void {
    if (this.#disposed) throw new Error('the host is disposed');
  }

  /** The session if it exists and accepts Task Surface actions (read-only sessions do not). */
  #actionable(sessionId: SessionId): LoadedSession | undefined {
    const session = this.deps.sessions.find(sessionId);
    return session && !session.record.readOnly ? session : undefined;
  }

  /**
   * Reads the exact occurrence by callId (an index, never a scan) and revalidates its model. The
   * stored result is immutable, so the last valid model per session is kept (one open surface each).
   */
  #occurrenceModel(session: LoadedSession, callId: CallId): NormalizedTaskSurfaceModel | null {
    const sessionId = session.record.sessionId;
    const cached = this.#models.get(sessionId);
    if (cached?.callId === callId) return cached.model;
    const { result } = storeStep(sessionId, 'reading the surface\'s tool result', () => this.deps.sessions.store.findCall(sessionId, callId));
    if (result?.type !== 'tool/result' || !result.ok) return null;
    const meta = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(result.meta);
    if (!meta.success) return null;
    const parsed = parseTaskSurfaceModel(meta.data.model, this.deps.limits);
    if (!parsed.ok) return null;
    this.#models.set(sessionId, { callId, model: parsed.model });
    return parsed.model;
  }

  #actorFor(sessionId: SessionId, callId: CallId): SurfaceActor {
    let actors = this.#actors.get(sessionId);
    if (!actors) this.#actors.set(sessionId, (actors = new Map()));
    let actor = actors.get(callId);
    if (!actor) {
      const active = this.deps.sessions.get(sessionId).surface.active!;
      actor = createActor(surfaceMachine, { input: { callId, surfaceId: active.surfaceId }, inspect: this.deps.inspect });
      actor.start();
      actors.set(callId, actor);
    }
    return actor;
  }

  /** Stops actors whose surface is closed and that hold no pending record. */
  #collect(sessionId: SessionId): void {
    const actors = this.#actors.get(sessionId);
    if (!actors) return;
    for (const [callId, actor] of actors) {
      const snapshot = actor.getSnapshot();
      if (snapshot.matches('closed') && !snapshot.context.pending) {
        actor.stop();
        actors.delete(callId);
      }
    }
  }

  #acceptedIn(sessionId: SessionId): Map<TaskSurfaceSubmissionId, MessageId> {
    let map = this.#accepted.get(sessionId);
    if (!map) this.#accepted.set(sessionId, (map = new Map()));
    return map;
  }
}
