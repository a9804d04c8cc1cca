import {
  DismissTaskSurfaceRequestSchema,
  formatSubmission,
  SubmitTaskSurfaceRequestSchema,
  type DismissTaskSurfaceResult,
  type SessionId,
  type SubmitTaskSurfaceResult,
  type TaskSurfaceLimits,
} from '../../protocol/index.js';
import { parseInput, storeStep } from '../errors.js';
import { freshId, type HostIds } from '../ids.js';
import type { Inbox } from '../inbox.js';
import { TAKE_TOKEN, type MessageAdmission } from '../limits/admission.js';
import { refusal } from '../limits/index.js';
import type { LoadedSession, Sessions } from '../sessions.js';
import { decideDismissal, decideSubmission } from './decide.js';
import type { OccurrenceModels } from './occurrences.js';
import type { SubmissionRecords } from './records.js';

export interface SurfaceActionsDeps {
  sessions: Sessions;
  ids: HostIds;
  limits: TaskSurfaceLimits;
  records: SubmissionRecords;
  models: OccurrenceModels;
  /** The session's live inbox (created on demand). */
  inbox(sessionId: SessionId): Inbox;
  /** Throws once the service is disposed (after the input was checked). */
  assertLive(): void;
  /** The principal's limits (host/limits/admission.ts): asked for a new submission only, never for a retry. */
  admission: MessageAdmission;
}

/** The session if it exists and accepts Task Surface actions (read-only sessions do not). */
export function actionable(sessions: Sessions, sessionId: SessionId): LoadedSession | undefined {
  const session = sessions.find(sessionId);
  return session && !session.record.readOnly ? session : undefined;
}

/**
 * `taskSurface.submit`: checks the submission against the open occurrence's model, records it as
 * pending and queues its user message. The same submissionId answers with its first message.
 * `by`: the principal id who submitted (recorded on the user message's source).
 */
export async function submitSurface(deps: SurfaceActionsDeps, input: unknown, by?: string): Promise<SubmitTaskSurfaceResult> {
  const request = parseInput('taskSurface.submit', SubmitTaskSurfaceRequestSchema, input);
  const { sessionId, surfaceId, submissionId } = request;
  const { records } = deps;
  // Run again from the top after a shared rate's take (host/limits/admission.ts).
  return deps.admission.run<SubmitTaskSurfaceResult>('taskSurface.submit', by, (admit) => {
    deps.assertLive();
    const session = actionable(deps.sessions, sessionId);
    if (!session) return { accepted: false, reason: 'not-open' };
    const decision = decideSubmission(session.surface, request, {
      model: (callId) => deps.models.model(session, callId),
      held: (id) => records.held(sessionId, id),
      pending: (callId) => records.pendingOf(sessionId, callId) !== null,
      limits: deps.limits,
    });
    if (decision.decision === 'repeat') return { accepted: true, messageId: decision.messageId, phase: 'queued' };
    if (decision.decision === 'refuse') return { accepted: false, reason: decision.reason };
    const refused = admit(sessionId, by);
    if (refused === TAKE_TOKEN) return TAKE_TOKEN;
    if (refused) return refusal(refused);
    const active = decision;
    // Nothing above awaited anything: the checks and the admission below see one consistent state.
    const inbox = deps.inbox(sessionId);
    const messageId = freshId('message', deps.ids.message, (id) => session.userMessages.has(id) || inbox.findMessage(id) !== undefined);
    const text = formatSubmission(decision.model, decision.values, decision.note, { locale: request.locale ?? session.record.locale });
    // The record first, so the view the enqueue publishes already carries the pending phase.
    records.accept(sessionId, { callId: active.callId, surfaceId, submissionId, messageId });
    try {
      inbox.enqueue({
        messageId,
        text,
        source: {
          kind: 'user',
          rpcId: deps.ids.rpc(),
          taskSurface: { version: 1, submissionId, callId: active.callId, surfaceId, values: decision.values },
          ...(by === undefined ? {} : { by }),
        },
      });
    } catch (error) {
      // Not accepted (the row could not be saved): no record stays behind.
      records.send(sessionId, active.callId, { type: 'submission.discarded', reason: 'store-failed' });
      throw error;
    }
    return { accepted: true, messageId, phase: 'queued' };
  });
}

/**
 * `taskSurface.dismiss`: records the open surface's dismissal; the same dismissalId answers with its
 * first event. `by`: the principal id who dismissed (recorded on the event).
 */
export async function dismissSurface(deps: SurfaceActionsDeps, input: unknown, by?: string): Promise<DismissTaskSurfaceResult> {
  const request = parseInput('taskSurface.dismiss', DismissTaskSurfaceRequestSchema, input);
  deps.assertLive();
  const session = actionable(deps.sessions, request.sessionId);
  if (!session) return { dismissed: false, reason: 'not-open' };
  const decision = decideDismissal(session.surface, request, {
    pending: (callId) => deps.records.pendingOf(request.sessionId, callId) !== null,
  });
  if (decision.decision === 'repeat') return { dismissed: true, eventSeq: decision.seq };
  if (decision.decision === 'refuse') return { dismissed: false, reason: decision.reason };
  const active = decision;
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
}
