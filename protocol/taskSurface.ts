import * as z from 'zod/mini';
import { LocaleTagSchema } from './localeSchema.js';
import {
  CallIdSchema,
  SessionIdSchema,
  TaskSurfaceDismissalIdSchema,
  TaskSurfaceIdSchema,
  TaskSurfaceSubmissionIdSchema,
  type CallId,
  type MessageId,
  type TaskSurfaceId,
  type TaskSurfaceSubmissionId,
} from './ids.js';
import { JsonValueSchema, type JsonValue } from './json.js';
import type { PrincipalLimitRefusal } from './limitErrors.js';
import type { TaskSurfaceLimits } from './limits.js';
import type { TaskSurfaceModelV1 } from './model.js';

export { SHOW_TASK_SURFACE } from './tool.js';

/** Persisted on the `show_task_surface` `tool/result` as `meta`; the model in it is normalised. */
export interface TaskSurfacePresentationMeta {
  kind: 'task-surface';
  version: 1;
  surfaceId: TaskSurfaceId;
  model: TaskSurfaceModelV1;
  /**
   * The limits the Host parsed the model with, present only when they differ from the defaults,
   * so a transcript row can show exactly what the Host accepted (a 400-row table, say).
   */
  limits?: Partial<TaskSurfaceLimits>;
}

/** The shape of the meta envelope; the model inside is checked by `parseTaskSurfaceModel`. */
export const TaskSurfacePresentationMetaEnvelopeSchema = z.looseObject({
  kind: z.literal('task-surface'),
  version: z.literal(1),
  surfaceId: TaskSurfaceIdSchema,
  model: z.unknown(),
});

/** Carried on the user message's `source`: which occurrence the submission answers, and its values. */
export const TaskSurfaceCorrelationSchema = z.strictObject({
  version: z.literal(1),
  submissionId: TaskSurfaceSubmissionIdSchema,
  callId: CallIdSchema,
  surfaceId: TaskSurfaceIdSchema,
  values: z.record(z.string(), JsonValueSchema),
});
export type TaskSurfaceCorrelation = z.infer<typeof TaskSurfaceCorrelationSchema>;

export type TaskSurfaceSubmissionPhase = 'queued' | 'claiming';

export interface TaskSurfacePendingSubmission {
  submissionId: TaskSurfaceSubmissionId;
  messageId: MessageId;
  phase: TaskSurfaceSubmissionPhase;
}

export interface TaskSurfaceProjection {
  /**
   * The open surface, if any, with the process-local phase of its accepted submission (null when
   * none is queued or claiming), so a client follows queued → claiming without asking getActive.
   */
  active: { callId: CallId; surfaceId: TaskSurfaceId; pending: TaskSurfacePendingSubmission | null } | null;
}

export const GetActiveTaskSurfaceRequestSchema = z.strictObject({
  sessionId: SessionIdSchema,
  surfaceId: TaskSurfaceIdSchema,
});
export type GetActiveTaskSurfaceRequest = z.infer<typeof GetActiveTaskSurfaceRequestSchema>;

export type GetActiveTaskSurfaceResult =
  | {
      active: true;
      callId: CallId;
      surfaceId: TaskSurfaceId;
      model: TaskSurfaceModelV1;
      pending: TaskSurfacePendingSubmission | null;
    }
  | { active: false; reason: 'not-open' };

export const SubmitTaskSurfaceRequestSchema = z.strictObject({
  sessionId: SessionIdSchema,
  surfaceId: TaskSurfaceIdSchema,
  submissionId: TaskSurfaceSubmissionIdSchema,
  values: z.record(z.string(), JsonValueSchema),
  note: z.optional(z.string()),
  /** The person's language: the submitted text is written in it (default: the session's locale). */
  locale: z.optional(LocaleTagSchema),
});
export type SubmitTaskSurfaceRequest = z.infer<typeof SubmitTaskSurfaceRequestSchema>;

/** `quota-exceeded` / `too-busy`: a limit of the principal (docs/security.md); the surface stays open. */
export type SubmitTaskSurfaceRejection = 'not-open' | 'stale' | 'invalid-submission' | 'submission-pending' | 'quota-exceeded' | 'too-busy';
export type SubmitTaskSurfaceResult =
  | { accepted: true; messageId: MessageId; phase: 'queued' }
  | { accepted: false; reason: Exclude<SubmitTaskSurfaceRejection, PrincipalLimitRefusal['reason']> }
  | PrincipalLimitRefusal;

export const DismissTaskSurfaceRequestSchema = z.strictObject({
  sessionId: SessionIdSchema,
  surfaceId: TaskSurfaceIdSchema,
  dismissalId: TaskSurfaceDismissalIdSchema,
});
export type DismissTaskSurfaceRequest = z.infer<typeof DismissTaskSurfaceRequestSchema>;

export type DismissTaskSurfaceResult =
  { dismissed: true; eventSeq: number } | { dismissed: false; reason: 'not-open' | 'stale' | 'submission-pending' };

export const GetTaskSurfaceOutcomeRequestSchema = z.strictObject({
  sessionId: SessionIdSchema,
  surfaceId: TaskSurfaceIdSchema,
});
export type GetTaskSurfaceOutcomeRequest = z.infer<typeof GetTaskSurfaceOutcomeRequestSchema>;

/**
 * What became of one surface, as the fold of the session's effective log records it: `open` (with
 * the pending phase), closed by its `submitted` message (the values it carried), `dismissed`, or
 * `bypassed` by an ordinary message; `seq` is the closing event's. `unknown`: the session's
 * effective log never opened this surface (another session's, a rewound one, an unknown session).
 */
export type TaskSurfaceOutcome =
  | { status: 'open'; callId: CallId; pending: TaskSurfacePendingSubmission | null }
  | { status: 'submitted'; callId: CallId; seq: number; messageId: MessageId; values: Record<string, JsonValue> }
  | { status: 'dismissed'; callId: CallId; seq: number }
  | { status: 'bypassed'; callId: CallId; seq: number }
  | { status: 'unknown' };

/** The Task Surface half of the Host, as the transport exposes it. */
export interface TaskSurfaceService {
  getActive(input: GetActiveTaskSurfaceRequest): Promise<GetActiveTaskSurfaceResult>;
  /** A read for transcript rows: the outcome the fold recorded, never a log scan. */
  getOutcome(input: GetTaskSurfaceOutcomeRequest): Promise<TaskSurfaceOutcome>;
  submit(input: SubmitTaskSurfaceRequest): Promise<SubmitTaskSurfaceResult>;
  dismiss(input: DismissTaskSurfaceRequest): Promise<DismissTaskSurfaceResult>;
}

export type { JsonValue };
