import type {
  CallId,
  MessageId,
  SessionId,
  SubmissionLocale,
  SubmitTaskSurfaceRejection,
  TaskSurfaceDismissalId,
  TaskSurfaceId,
  TaskSurfaceModelV1,
  TaskSurfacePendingSubmission,
  TaskSurfaceSubmissionId,
  TaskSurfaceSubmissionPhase,
  TaskSurfaceValues,
} from '../protocol/index.js';

/** Types of the Dock's statechart (`dockMachine.ts`, which explains its states) and its back-off. */

export interface DockActive {
  callId: CallId;
  surfaceId: TaskSurfaceId;
}
export type DockRejectionReason = SubmitTaskSurfaceRejection | 'transport';

export interface DockMachineInput {
  sessionId: SessionId;
}

export interface DockMachineContext {
  sessionId: SessionId;
  active: DockActive | null;
  model: TaskSurfaceModelV1 | null;
  phase: TaskSurfaceSubmissionPhase | null;
  /** The current submission attempt's id: reused by a double click and by a retry after a transport error. */
  submissionId: TaskSurfaceSubmissionId | null;
  /** Reused by a dismiss retry after a transport error. */
  dismissalId: TaskSurfaceDismissalId | null;
  /** `transport` while re-reading after a lost answer means: not yet known whether the Host has it. */
  rejection: { action: 'submit' | 'dismiss'; reason: DockRejectionReason } | null;
  collapsed: boolean;
  /** getActive failures in a row (the back-off grows with it). */
  failures: number;
  /** The pending submission the newest view carries for the open surface. */
  viewPending: TaskSurfacePendingSubmission | null;
  /**
   * A view that closed or replaced the surface while a submit or dismiss was out: applied once its
   * answer is in, so `submitted` or `dismissed` is emitted before `closed`.
   */
  deferredView: Extract<DockMachineEvent, { type: 'projection.changed' }> | null;
}

export type DockMachineEvent =
  /** A pushed view: the open surface and the pending submission the Host holds for it. */
  | { type: 'projection.changed'; active: DockActive | null; pending: TaskSurfacePendingSubmission | null }
  | { type: 'user.submit'; values: TaskSurfaceValues; note?: string; locale?: SubmissionLocale }
  | { type: 'user.dismiss' }
  | { type: 'user.collapse' }
  | { type: 'user.expand' };

export type DockMachineEmitted =
  | { type: 'submitted'; surfaceId: TaskSurfaceId; submissionId: TaskSurfaceSubmissionId; messageId: MessageId }
  | { type: 'rejected'; surfaceId: TaskSurfaceId; action: 'submit' | 'dismiss'; reason: DockRejectionReason }
  | { type: 'dismissed'; surfaceId: TaskSurfaceId }
  | { type: 'closed'; surfaceId: TaskSurfaceId };

export interface GetActiveInput {
  sessionId: SessionId;
  surfaceId: TaskSurfaceId;
}
export interface SubmitInput extends GetActiveInput {
  submissionId: TaskSurfaceSubmissionId;
  values: TaskSurfaceValues;
  note?: string;
  locale?: SubmissionLocale;
}
export interface DismissInput extends GetActiveInput {
  dismissalId: TaskSurfaceDismissalId;
}

/** Back-off between getActive attempts: 250 ms doubling to 8 s, with ±20 % jitter. */
export function retryDelay(failures: number): number {
  const base = Math.min(8000, 250 * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** Leaf state name of a Dock snapshot value (`hidden`, `loading`, `editing`, …). */
export function dockStateName(value: string | Record<string, unknown>): string {
  return typeof value === 'string'
    ? value
    : (Object.values(value).map((v) => dockStateName(v as string | Record<string, unknown>))[0] ?? 'hidden');
}
