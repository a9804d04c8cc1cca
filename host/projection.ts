/*
 * The session projection: the effective log (rewinds applied) and the `taskSurface` unit. Both are
 * pure folds; the host keeps them incrementally and a fresh fold of the stored log gives the same.
 */
import { initialTransition, transition, type EventFrom, type SnapshotFrom } from 'xstate';
import { surfaceMachine } from '../machines/surfaceMachine.js';
import {
  SHOW_TASK_SURFACE, TaskSurfacePresentationMetaEnvelopeSchema,
  type CallId, type MessageId, type SessionEvent, type TaskSurfaceDismissalId, type TaskSurfaceId,
  type TaskSurfaceProjection, type TaskSurfaceSubmissionId, type TurnId,
} from '../protocol/index.js';

/** What one raw event did to an effective log. */
export type EffectiveChange = 'appended' | 'ignored' | 'cut';

/**
 * Applies one raw event to an effective log in place. A `session/rewound` marker drops every
 * effective event after its `toSeq` (a fork's `session/forked` marker always stays) and is not
 * itself part of the effective log. It also ends the turn that was running at that point: the host
 * cancels that turn, and the events it still writes afterwards (a tool result in flight, its
 * `turn/ended`) are `ignored`, so they can never bring back what the rewind removed.
 * `rewoundTurns` holds those turns' ids for the log's lifetime.
 */
export function applyToEffectiveLog(
  effective: SessionEvent[], rewoundTurns: Set<TurnId>, event: SessionEvent,
): EffectiveChange {
  if (event.type === 'turn/started') rewoundTurns.delete(event.turnId); // an id minted again is a new turn
  else if ('turnId' in event && rewoundTurns.has(event.turnId)) return 'ignored';
  if (event.type !== 'session/rewound') {
    effective.push(event);
    return 'appended';
  }
  const running = runningTurn(effective);
  if (running !== null) rewoundTurns.add(running);
  let keep = effective.length;
  while (keep > 0 && effective[keep - 1]!.seq > event.toSeq) keep--;
  const forked = effective.slice(keep).filter((e) => e.type === 'session/forked');
  effective.length = keep;
  effective.push(...forked);
  return 'cut';
}

/** The turn started and not yet ended at the end of an effective log (turns never overlap). */
function runningTurn(effective: readonly SessionEvent[]): TurnId | null {
  for (let i = effective.length - 1; i >= 0; i--) {
    const event = effective[i]!;
    if (event.type === 'turn/ended') return null;
    if (event.type === 'turn/started') return event.turnId;
  }
  return null;
}

/** The effective log of a raw log, oldest first, and the turns its rewinds ended. */
export function effectiveLog(raw: Iterable<SessionEvent>, rewoundTurns = new Set<TurnId>()): SessionEvent[] {
  const effective: SessionEvent[] = [];
  for (const event of raw) applyToEffectiveLog(effective, rewoundTurns, event);
  return effective;
}

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
}

/** The unit's state before any event: nothing open, no indexes. */
export function emptyTaskSurfaceFold(): TaskSurfaceFold {
  return { active: null, state: null, submissions: new Map(), dismissals: new Map(), surfaceIds: new Set() };
}

/** Opens the surface of a successful show_task_surface result whose meta envelope is well formed. */
function openedBy(event: SessionEvent): { callId: CallId; surfaceId: TaskSurfaceId } | null {
  if (event.type !== 'tool/result' || event.name !== SHOW_TASK_SURFACE || !event.ok) return null;
  const meta = TaskSurfacePresentationMetaEnvelopeSchema.safeParse(event.meta);
  return meta.success ? { callId: event.callId, surfaceId: meta.data.surfaceId } : null;
}

/** Folds one effective-log event into the unit (mutates `fold`). Returns whether `active` changed. */
export function foldTaskSurfaceEvent(fold: TaskSurfaceFold, event: SessionEvent): boolean {
  if (event.type === 'user/message' && event.source.taskSurface) {
    fold.submissions.set(event.source.taskSurface.submissionId, event.messageId);
  } else if (event.type === 'task-surface/dismissed') {
    if (!fold.dismissals.has(event.dismissalId)) fold.dismissals.set(event.dismissalId, event.seq);
  }
  const active = fold.active;
  if (active === null || fold.state === null) {
    const opened = openedBy(event);
    if (opened === null) return false;
    fold.surfaceIds.add(opened.surfaceId);
    fold.active = opened;
    fold.state = 'open';
    return true;
  }
  let surfaceEvent: DurableEvent | null = null;
  if (event.type === 'user/message') {
    const correlation = event.source.taskSurface;
    if (correlation === undefined) surfaceEvent = { type: 'log.bypassed' };
    else if (correlation.callId === active.callId && correlation.surfaceId === active.surfaceId) {
      surfaceEvent = { type: 'log.submitted', submissionId: correlation.submissionId };
    }
  } else if (event.type === 'task-surface/dismissed') {
    if (event.callId === active.callId && event.surfaceId === active.surfaceId) surfaceEvent = { type: 'log.dismissed' };
  }
  if (surfaceEvent === null) return false;
  const next = durableTransition(surfaceEvent);
  if (typeof next === 'string') {
    fold.state = next;
    return false;
  }
  // A closed.* state: the occurrence is over.
  fold.active = null;
  fold.state = null;
  return true;
}

/** A fresh fold of an effective log. */
export function foldTaskSurface(events: Iterable<SessionEvent>): TaskSurfaceFold {
  const fold = emptyTaskSurfaceFold();
  for (const event of events) foldTaskSurfaceEvent(fold, event);
  return fold;
}

/** The client-visible projection of the unit. */
export function taskSurfaceProjection(fold: TaskSurfaceFold): TaskSurfaceProjection {
  return { active: fold.active && { ...fold.active } };
}
