import { createActor, type Actor } from 'xstate';
import { surfaceMachine } from '../../machines/surfaceMachine.js';
import type {
  CallId,
  MessageId,
  SessionEvent,
  SessionId,
  TaskSurfaceId,
  TaskSurfacePendingSubmission,
  TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import type { InspectObserver } from '../types.js';
import { inspectSession } from '../inspect.js';

type SurfaceActor = Actor<typeof surfaceMachine>;

/** What a surface actor is told from outside (the inbox's outcomes, the fold's decisions). */
export type SurfaceEvent = Parameters<SurfaceActor['send']>[0];

/**
 * The process-local pending records of accepted submissions: a live `surfaceMachine` actor per
 * submission that is queued or claiming, released once the log decided (durable) or the row was
 * discarded. What the log says is the fold's; this holds only what the log cannot.
 */
export class SubmissionRecords {
  /** Live actors per session by callId: one per accepted submission not yet durable or discarded. */
  readonly #actors = new Map<SessionId, Map<CallId, SurfaceActor>>();
  /**
   * Per session, one actor that holds no record, kept for the next submission: a session's surfaces
   * are followed by one long-lived actor, not one created per submission (a second exists only while
   * a bypassed occurrence still awaits its row's outcome).
   */
  readonly #spares = new Map<SessionId, SurfaceActor>();

  constructor(private readonly inspect: InspectObserver | undefined) {}

  /** The pending submission of the occurrence, or null when this process holds none. */
  pendingOf(sessionId: SessionId, callId: CallId): TaskSurfacePendingSubmission | null {
    const snapshot = this.#actors.get(sessionId)?.get(callId)?.getSnapshot();
    const pending = snapshot?.context.pending;
    if (!snapshot || !pending) return null;
    return {
      submissionId: pending.submissionId,
      messageId: pending.messageId,
      phase: snapshot.matches('claiming') ? 'claiming' : 'queued',
    };
  }

  /** The messageId of a submission this process accepted and still holds (not yet durable). */
  held(sessionId: SessionId, submissionId: TaskSurfaceSubmissionId): MessageId | undefined {
    for (const actor of this.#actors.get(sessionId)?.values() ?? []) {
      const pending = actor.getSnapshot().context.pending;
      if (pending?.submissionId === submissionId) return pending.messageId;
    }
    return undefined;
  }

  /** Records an accepted submission (the session's spare actor takes it, else a new one). */
  accept(
    sessionId: SessionId,
    pending: { callId: CallId; surfaceId: TaskSurfaceId; submissionId: TaskSurfaceSubmissionId; messageId: MessageId },
  ) {
    const { callId, surfaceId } = pending;
    let actor = this.#spares.get(sessionId);
    if (actor) this.#spares.delete(sessionId);
    else actor = createActor(surfaceMachine, { input: { callId, surfaceId }, inspect: inspectSession(this.inspect, sessionId) }).start();
    actor.send({ type: 'submission.accepted', ...pending });
    let live = this.#actors.get(sessionId);
    if (!live) this.#actors.set(sessionId, (live = new Map()));
    live.set(callId, actor);
  }

  /** Tells the occurrence's record what happened to it, then releases what no longer holds anything. */
  send(sessionId: SessionId, callId: CallId, event: SurfaceEvent): void {
    this.#actors.get(sessionId)?.get(callId)?.send(event);
    this.collect(sessionId);
  }

  /** The fold decided an outcome: the records holding a submission follow it to release themselves. */
  follow(sessionId: SessionId, event: SessionEvent): void {
    // Only a logged message settles a held record: a dismissal is refused while a submission is held
    // (queued, claiming or bypassed), and those states do not handle one.
    const live = this.#actors.get(sessionId);
    if (!live || event.type !== 'user/message') return;
    for (const actor of live.values()) {
      const { callId, surfaceId } = actor.getSnapshot().context;
      if (!event.source.taskSurface) {
        actor.send({ type: 'log.bypassed' });
      } else if (event.source.taskSurface.callId === callId && event.source.taskSurface.surfaceId === surfaceId) {
        actor.send({ type: 'log.submitted', submissionId: event.source.taskSurface.submissionId });
      }
    }
    this.collect(sessionId);
  }

  /** Releases the actors that hold no pending record any more (durable, discarded): one is kept as the spare. */
  collect(sessionId: SessionId): void {
    const live = this.#actors.get(sessionId);
    if (!live) return;
    for (const [callId, actor] of live) {
      if (actor.getSnapshot().context.pending) continue;
      live.delete(callId);
      if (this.#spares.has(sessionId)) actor.stop();
      else this.#spares.set(sessionId, actor);
    }
    if (live.size === 0) this.#actors.delete(sessionId);
  }

  /** Every live pending record of a session (tests and invariants). */
  list(sessionId: SessionId): { callId: CallId; messageId: MessageId; state: string }[] {
    return [...(this.#actors.get(sessionId)?.values() ?? [])].flatMap((actor) => {
      const { context, value } = actor.getSnapshot();
      return context.pending ? [{ callId: context.callId, messageId: context.pending.messageId, state: JSON.stringify(value) }] : [];
    });
  }

  /** Stops the session's actors (unloaded, or its log was cut). */
  forget(sessionId: SessionId): void {
    for (const actor of this.#actors.get(sessionId)?.values() ?? []) actor.stop();
    this.#actors.delete(sessionId);
    this.#spares.get(sessionId)?.stop();
    this.#spares.delete(sessionId);
  }

  dispose(): void {
    for (const live of this.#actors.values()) for (const actor of live.values()) actor.stop();
    for (const spare of this.#spares.values()) spare.stop();
    this.#actors.clear();
    this.#spares.clear();
  }
}
