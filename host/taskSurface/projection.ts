/*
 * The `taskSurface` unit: a pure fold of the effective log. It decides, once, whether and how each
 * surface closed; the live actors (index.ts) only hold what the log cannot (a pending submission).
 */
import { initialTransition, transition, type EventFrom, type SnapshotFrom } from 'xstate';
import { surfaceMachine } from '../../machines/surfaceMachine.js';
import {
  SHOW_TASK_SURFACE,
  TaskSurfacePresentationMetaEnvelopeSchema,
  type CallId,
  type JsonValue,
  type MessageId,
  type SessionEvent,
  type TaskSurfaceDismissalId,
  type TaskSurfaceId,
  type TaskSurfacePendingSubmission,
  type TaskSurfaceProjection,
  type TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import { builtMeta } from './tools.js';

type SurfaceSnapshot = SnapshotFrom<typeof surfaceMachine>;
type DurableEvent = Extract<EventFrom<typeof surfaceMachine>, { type: `log.${string}` }>;

/**
 * The durable transitions of `surfaceMachine`, taken with `transition()` and memoised by event
 * type: from `open` they have no guards and do not read context, so one replay per type serves
 * every occurrence and the fold stays a cheap table lookup on long logs.
 */
const durableTargets = new Map<DurableEvent['type'], SurfaceSnapshot['value']>();
function durableTransition(event: DurableEvent): SurfaceSnapshot['value'] {
  let target = durableTargets.get(event.type);
  if (target === undefined) {
    const [open] = initialTransition(surfaceMachine, { callId: '_' as CallId, surfaceId: '_' as TaskSurfaceId });
    target = transition(surfaceMachine, open, event)[0].value;
    durableTargets.set(event.type, target);
  }
  return target;
}

/** How a closed surface closed, as the fold recorded it (`seq`: the closing event's). */
export type ClosedSurface =
  | { status: 'submitted'; callId: CallId; seq: number; messageId: MessageId; values: Record<string, JsonValue> }
  | { status: 'dismissed'; callId: CallId; seq: number }
  | { status: 'bypassed'; callId: CallId; seq: number };

/** The taskSurface unit's state: the client-visible projection plus the indexes the service needs. */
export interface TaskSurfaceFold {
  active: { callId: CallId; surfaceId: TaskSurfaceId } | null;
  /** Durable state of the active occurrence in `surfaceMachine` (null when none is open). */
  state: SurfaceSnapshot['value'] | null;
  /** Durable task-surface user messages by submissionId (idempotent retries after a restart). */
  submissions: Map<TaskSurfaceSubmissionId, MessageId>;
  /** Dismissal events by dismissalId. */
  dismissals: Map<TaskSurfaceDismissalId, number>;
  /** Every surfaceId the log has opened (a new surface never reuses one). */
  surfaceIds: Set<TaskSurfaceId>;
  /** The outcome of every surface the log closed, by surfaceId. */
  outcomes: Map<TaskSurfaceId, ClosedSurface>;
}

/** The unit's state before any event: nothing open, no indexes. */
export function emptyTaskSurfaceFold(): TaskSurfaceFold {
  return { active: null, state: null, submissions: new Map(), dismissals: new Map(), surfaceIds: new Set(), outcomes: new Map() };
}

/**
 * Opens the surface of a successful show_task_surface result whose meta envelope is well formed. A
 * meta this process's tool built is typed and is not parsed again; one read from a store is.
 */
function openedBy(event: SessionEvent): { callId: CallId; surfaceId: TaskSurfaceId } | null {
  if (event.type !== 'tool/result' || event.name !== SHOW_TASK_SURFACE || !event.ok) return null;
  const built = builtMeta(event.meta);
  if (built) return { callId: event.callId, surfaceId: built.surfaceId };
  const meta = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(event.meta);
  return meta.success ? { callId: event.callId, surfaceId: meta.data.surfaceId } : null;
}

/** The outcome an event gives the active surface, with the machine event that says so; null when none. */
function closingOf(event: SessionEvent, active: { callId: CallId; surfaceId: TaskSurfaceId }): [DurableEvent, ClosedSurface] | null {
  const { callId } = active;
  if (event.type === 'user/message') {
    const correlation = event.source.taskSurface;
    if (correlation === undefined) return [{ type: 'log.bypassed' }, { status: 'bypassed', callId, seq: event.seq }];
    if (correlation.callId !== callId || correlation.surfaceId !== active.surfaceId) return null;
    return [
      { type: 'log.submitted', submissionId: correlation.submissionId },
      { status: 'submitted', callId, seq: event.seq, messageId: event.messageId, values: correlation.values },
    ];
  }
  if (event.type === 'task-surface/dismissed' && event.callId === callId && event.surfaceId === active.surfaceId) {
    return [{ type: 'log.dismissed' }, { status: 'dismissed', callId, seq: event.seq }];
  }
  return null;
}

/** Folds one effective-log event into the unit (mutates `fold`). */
export function foldTaskSurfaceEvent(fold: TaskSurfaceFold, event: SessionEvent): void {
  if (event.type === 'user/message' && event.source.taskSurface) {
    fold.submissions.set(event.source.taskSurface.submissionId, event.messageId);
  } else if (event.type === 'task-surface/dismissed') {
    if (!fold.dismissals.has(event.dismissalId)) fold.dismissals.set(event.dismissalId, event.seq);
  }
  const active = fold.active;
  if (active === null || fold.state === null) {
    const opened = openedBy(event);
    if (opened === null) return;
    fold.surfaceIds.add(opened.surfaceId);
    fold.active = opened;
    fold.state = 'open';
    return;
  }
  const closing = closingOf(event, active);
  if (closing === null) return;
  const next = durableTransition(closing[0]);
  if (typeof next === 'string') {
    fold.state = next;
    return;
  }
  // A closed.* state: the occurrence is over, and this is how.
  fold.outcomes.set(active.surfaceId, closing[1]);
  fold.active = null;
  fold.state = null;
}

/** A fresh fold of an effective log. */
export function foldTaskSurface(events: Iterable<SessionEvent>): TaskSurfaceFold {
  const fold = emptyTaskSurfaceFold();
  for (const event of events) foldTaskSurfaceEvent(fold, event);
  return fold;
}

/** The client-visible projection of the unit, joined with the active surface's pending submission. */
export function taskSurfaceProjection(fold: TaskSurfaceFold, pending: TaskSurfacePendingSubmission | null = null): TaskSurfaceProjection {
  return { active: fold.active && { ...fold.active, pending } };
}
