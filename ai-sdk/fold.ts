/*
 * `foldTaskSurface`: the Host's fold (host/taskSurface/projection.ts) over an app's messages, mapped
 * onto the log's events (messages.ts). What is open, and how each surface closed, is decided there.
 */
import type { UIMessage } from 'ai';
import { parseToolResultMeta } from '../components/toolview/toolviewParse.js';
import { foldTaskSurface as foldLog, type ClosedSurface, type TaskSurfaceFold } from '../host/taskSurface/projection.js';
import type { CallId, JsonValue, NormalizedTaskSurfaceModel, TaskSurfaceId, TaskSurfaceOutcome } from '../protocol/index.js';
import { effectiveLimits, type TaskSurfaceLimitValues } from '../protocol/limitDefaults.js';
import { taskSurfaceEvents } from './messages.js';

/** The open surface: its call, its id, its model (normalised) and the assistant message that holds it. */
export interface OpenTaskSurface {
  callId: string;
  surfaceId: TaskSurfaceId;
  model: NormalizedTaskSurfaceModel;
  messageId: string;
  /** The limits the tool parsed the model with (its output names them when they are not the defaults). */
  limits: TaskSurfaceLimitValues;
}

/** A surface that closed, how, and by which message (the submission, the ordinary message, or the one holding the dismissal). */
export type ClosedTaskSurface =
  | { status: 'submitted'; callId: string; surfaceId: TaskSurfaceId; messageId: string; values: Record<string, JsonValue> }
  | { status: 'dismissed' | 'bypassed'; callId: string; surfaceId: TaskSurfaceId; messageId: string };

/** What the fold of an app's messages gives: what the Host's projection gives for its log. */
export interface TaskSurfaceState {
  /** The one open surface, or null. */
  open: OpenTaskSurface | null;
  /** Every closed surface, oldest first. */
  closed: ClosedTaskSurface[];
  /** The Host's fold itself (indexes by submissionId and dismissalId), for the decisions. */
  fold: TaskSurfaceFold;
  /** What became of one surface, in the Host's `TaskSurfaceOutcome` shape. */
  outcome(surfaceId: string): TaskSurfaceOutcome;
}

const cache = new WeakMap<readonly UIMessage[], TaskSurfaceState>();

/**
 * Folds an AI SDK app's `UIMessage[]` as the Host folds its session log: a successful
 * `show_task_surface` output opens a surface; a user message whose `metadata.taskSurface` answers it
 * submits it; a dismissal data part dismisses it; any other user message bypasses it. Pure, never
 * throws, and memoised per array (a new array is folded again).
 */
export function foldTaskSurface(messages: readonly UIMessage[]): TaskSurfaceState {
  const cached = cache.get(messages);
  if (cached) return cached;
  const { events, messageOf } = taskSurfaceEvents(messages);
  const fold = foldLog(events);
  const at = (seq: number) => messageOf[seq] ?? '';
  const closed = [...fold.outcomes].map(([surfaceId, outcome]) => closedOf(surfaceId, outcome, at(outcome.seq)));
  let open: OpenTaskSurface | null = null;
  if (fold.active) {
    const opening = events.find((e) => e.type === 'tool/result' && e.callId === fold.active!.callId && e.ok && e.meta !== undefined);
    // The model is read as the transcript row reads it (with the limits the tool wrote beside it);
    // one that does not parse is not open (the Host's getActive answers not-open for it too).
    const parsed = opening?.type === 'tool/result' ? parseToolResultMeta(opening.meta) : null;
    if (opening && parsed) {
      const limits = effectiveLimits(limitsOf(opening.type === 'tool/result' ? opening.meta : undefined));
      open = { callId: fold.active.callId, surfaceId: fold.active.surfaceId, model: parsed.model, messageId: at(opening.seq), limits };
    }
  }
  const state: TaskSurfaceState = {
    open,
    closed,
    fold,
    outcome(surfaceId) {
      if (fold.active?.surfaceId === surfaceId) return { status: 'open', callId: fold.active.callId, pending: null };
      const outcome = fold.outcomes.get(surfaceId as TaskSurfaceId);
      return outcome ? structuredClone(outcome) : { status: 'unknown' };
    },
  };
  if (Array.isArray(messages)) cache.set(messages, state);
  return state;
}

/** The `limits` a show's output wrote beside its model (positive integers only; the rest default). */
function limitsOf(meta: unknown): Partial<TaskSurfaceLimitValues> | undefined {
  const limits = typeof meta === 'object' && meta !== null ? (meta as { limits?: unknown }).limits : undefined;
  return typeof limits === 'object' && limits !== null && !Array.isArray(limits) ? (limits as Partial<TaskSurfaceLimitValues>) : undefined;
}

function closedOf(surfaceId: TaskSurfaceId, outcome: ClosedSurface, messageId: string): ClosedTaskSurface {
  const callId: CallId = outcome.callId;
  return outcome.status === 'submitted'
    ? { status: 'submitted', callId, surfaceId, messageId, values: outcome.values }
    : { status: outcome.status, callId, surfaceId, messageId };
}
