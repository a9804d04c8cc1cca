/*
 * The Task Surface's decisions as pure functions of the fold: whether a submission or a dismissal
 * is taken, refused, or answered again. The Host runs them against its session log's fold; the AI
 * SDK integration (ai-sdk/) runs the same ones against the fold of an app's own messages, so each
 * rule is written once.
 */
import {
  validateSubmission,
  type CallId,
  type JsonValue,
  type MessageId,
  type NormalizedTaskSurfaceModel,
  type TaskSurfaceDismissalId,
  type TaskSurfaceId,
  type TaskSurfaceLimits,
  type TaskSurfaceSubmissionId,
  type TaskSurfaceValues,
} from '../../protocol/index.js';
import type { TaskSurfaceFold } from './projection.js';

/** What a submission asks for (the request's fields the decision reads). */
export interface SubmissionAsked {
  surfaceId: TaskSurfaceId;
  submissionId: TaskSurfaceSubmissionId;
  values: Record<string, JsonValue>;
  note?: string | undefined;
}

/** What the decision reads besides the fold: the open surface's model and any process-local record. */
export interface SubmissionReads {
  /** The open occurrence's model, revalidated; null when it cannot be read (the surface counts as not open). */
  model(callId: CallId): NormalizedTaskSurfaceModel | null;
  /** A submission accepted earlier and not durable yet (the Host's inbox holds it). */
  held?(submissionId: TaskSurfaceSubmissionId): MessageId | undefined;
  /** Whether an accepted submission of this occurrence is still queued or claiming. */
  pending?(callId: CallId): boolean;
  limits?: Partial<TaskSurfaceLimits>;
}

/** Why the decision refuses a submission (the Host adds its own quota and load reasons beside these). */
export type SubmissionRefusal = 'not-open' | 'stale' | 'submission-pending' | 'invalid-submission';

/**
 * `repeat`: this submissionId was taken before (the first message's id; nothing new is added).
 * `accept`: the canonical values (and note) to send as the one user message.
 */
export type SubmissionDecision =
  | { decision: 'repeat'; messageId: MessageId }
  | { decision: 'refuse'; reason: SubmissionRefusal }
  | {
      decision: 'accept';
      callId: CallId;
      surfaceId: TaskSurfaceId;
      model: NormalizedTaskSurfaceModel;
      values: TaskSurfaceValues;
      note?: string;
    };

/** Decides a submission: a retry gets the first answer, then open, current, not pending, valid. */
export function decideSubmission(fold: TaskSurfaceFold, asked: SubmissionAsked, reads: SubmissionReads): SubmissionDecision {
  const first = fold.submissions.get(asked.submissionId) ?? reads.held?.(asked.submissionId);
  if (first) return { decision: 'repeat', messageId: first };
  const active = fold.active;
  if (!active) return { decision: 'refuse', reason: 'not-open' };
  if (active.surfaceId !== asked.surfaceId) return { decision: 'refuse', reason: 'stale' };
  if (reads.pending?.(active.callId)) return { decision: 'refuse', reason: 'submission-pending' };
  const model = reads.model(active.callId);
  if (!model) return { decision: 'refuse', reason: 'not-open' };
  const submission = asked.note === undefined ? { values: asked.values } : { values: asked.values, note: asked.note };
  const valid = validateSubmission(model, submission, reads.limits);
  if (!valid.ok) return { decision: 'refuse', reason: 'invalid-submission' };
  const accepted = { decision: 'accept' as const, callId: active.callId, surfaceId: active.surfaceId, model, values: valid.values };
  return valid.note === undefined ? accepted : { ...accepted, note: valid.note };
}

/** `repeat`: this dismissalId was recorded before, at `seq`. */
export type DismissalDecision =
  | { decision: 'repeat'; seq: number }
  | { decision: 'refuse'; reason: 'not-open' | 'stale' | 'submission-pending' }
  | { decision: 'accept'; callId: CallId; surfaceId: TaskSurfaceId };

/** Decides a dismissal: a retry gets the first answer, then open, current and nothing pending. */
export function decideDismissal(
  fold: TaskSurfaceFold,
  asked: { surfaceId: TaskSurfaceId; dismissalId: TaskSurfaceDismissalId },
  reads: { pending?(callId: CallId): boolean } = {},
): DismissalDecision {
  const earlier = fold.dismissals.get(asked.dismissalId);
  if (earlier !== undefined) return { decision: 'repeat', seq: earlier };
  const active = fold.active;
  if (!active) return { decision: 'refuse', reason: 'not-open' };
  if (active.surfaceId !== asked.surfaceId) return { decision: 'refuse', reason: 'stale' };
  if (reads.pending?.(active.callId)) return { decision: 'refuse', reason: 'submission-pending' };
  return { decision: 'accept', callId: active.callId, surfaceId: active.surfaceId };
}
