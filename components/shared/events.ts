import type {
  ActResult,
  MessageId,
  SubmitTaskSurfaceRejection,
  TaskSurfaceFieldValue,
  TaskSurfaceId,
  TaskSurfaceSubmissionId,
  TaskSurfaceValues,
} from '../../protocol/index.js';

/** Where focus went after a submit or dismiss, and why the Dock moved it. */
export type FocusReturnReason = 'submit' | 'dismiss' | 'close';

export interface TaskSurfaceEventDetails {
  /** A field's value changed (the renderer). */
  'task-surface-value-change': { fieldId: string; value: TaskSurfaceFieldValue; values: TaskSurfaceValues };
  /** The person asked the renderer to submit and every required field is filled (the renderer). */
  'task-surface-submit': { values: TaskSurfaceValues };
  /** Cancelable: the Dock is about to send a submission; cancel to veto. */
  'task-surface-submit-request': { surfaceId: TaskSurfaceId; values: TaskSurfaceValues };
  /** The Host accepted a submission; the Dock stays disabled until the message is durable. */
  'task-surface-submitted': { surfaceId: TaskSurfaceId; submissionId: TaskSurfaceSubmissionId; messageId: MessageId };
  /** The Host refused a submission or a dismissal, or the transport failed. */
  'task-surface-rejected': { surfaceId: TaskSurfaceId; action: 'submit' | 'dismiss'; reason: SubmitTaskSurfaceRejection | 'transport' };
  /** Cancelable: the Dock is about to dismiss the surface; cancel to veto. */
  'task-surface-dismiss-request': { surfaceId: TaskSurfaceId };
  /** The Host recorded the dismissal. */
  'task-surface-dismissed': { surfaceId: TaskSurfaceId };
  /** The active surface closed (submitted, dismissed or bypassed) and the Dock hid itself. */
  'task-surface-closed': { surfaceId: TaskSurfaceId };
  /** Cancelable: the Dock is about to move focus after a submit or dismiss; cancel and focus yourself. */
  'task-surface-focus-return': { reason: FocusReturnReason; target: HTMLElement | null };
  /** The Dock was collapsed or expanded (local only; nothing is sent). */
  'task-surface-collapse-change': { collapsed: boolean };
  /** Cancelable: an action card is about to send a verb; cancel to veto. */
  'task-surface-card-act-request': { callId: string; verb: string };
  /** An action card's act answered (or the transport failed: `status: 'failed'`). */
  'task-surface-card-acted': { callId: string; verb: string; result: ActResult | { status: 'failed'; error: string } };
}

export type TaskSurfaceEventName = keyof TaskSurfaceEventDetails;

/** Every event as `HTMLElementEventMap` declares it, derived from the detail table above. */
export type TaskSurfaceEventMap = { [K in TaskSurfaceEventName]: CustomEvent<TaskSurfaceEventDetails[K]> };

declare global {
  // one declaration per event, derived from TaskSurfaceEventDetails
  interface HTMLElementEventMap extends TaskSurfaceEventMap {}
}

/**
 * Dispatches a typed, bubbling, composed event from `target`. Returns false when a listener called
 * `preventDefault()` on a cancelable event.
 */
export function emit<K extends TaskSurfaceEventName>(
  target: EventTarget,
  name: K,
  detail: TaskSurfaceEventDetails[K],
  options: { cancelable?: boolean } = {},
): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }));
}
