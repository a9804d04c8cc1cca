import type { SessionEvent, SessionId, TaskSurfaceId, TaskSurfaceValues } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';

/** What became of a surface, as the log says. `closed`: it is not open and its closing event was not found. */
export type SurfaceStatus = 'open' | 'submitted' | 'dismissed' | 'bypassed' | 'closed';

export interface SurfaceOutcome {
  status: SurfaceStatus;
  /** The submitted values, when `submitted`. */
  values?: TaskSurfaceValues;
}

/** Log pages read (newest first) before giving up on finding a closed surface's closing event. */
export const STATUS_PAGE_LIMIT = 20;
const PAGE_SIZE = 100;

/**
 * Derives a closed surface's outcome by reading the log backwards from the newest event until its
 * `tool/result`: a user message correlated to the surface means submitted, its dismissal event
 * dismissed, any other user message after the result bypassed. Bounded by `STATUS_PAGE_LIMIT` pages.
 */
export async function findClosedOutcome(transport: HostTransport, sessionId: SessionId, surfaceId: TaskSurfaceId): Promise<SurfaceOutcome> {
  let before: number | undefined;
  let outcome: SurfaceOutcome | undefined;
  let bypassed = false;
  for (let page = 0; page < STATUS_PAGE_LIMIT; page++) {
    const { events, hasMore } = await transport.readLog(sessionId, before === undefined ? { limit: PAGE_SIZE } : { before, limit: PAGE_SIZE });
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]!;
      const found = closingOf(event, surfaceId);
      if (found) outcome = found; // keep the earliest closing event after the result
      else if (event.type === 'user/message') bypassed = true;
      if (event.type === 'tool/result' && isResultOf(event, surfaceId)) {
        return outcome ?? { status: bypassed ? 'bypassed' : 'closed' };
      }
    }
    if (!hasMore || events.length === 0) break;
    before = events[0]!.seq;
  }
  return outcome ?? { status: 'closed' };
}

function closingOf(event: SessionEvent, surfaceId: TaskSurfaceId): SurfaceOutcome | undefined {
  if (event.type === 'user/message' && event.source.taskSurface?.surfaceId === surfaceId) {
    return { status: 'submitted', values: event.source.taskSurface.values as TaskSurfaceValues };
  }
  if (event.type === 'task-surface/dismissed' && event.surfaceId === surfaceId) return { status: 'dismissed' };
  return undefined;
}

function isResultOf(event: SessionEvent & { type: 'tool/result' }, surfaceId: TaskSurfaceId): boolean {
  const meta = event.meta as { surfaceId?: unknown } | null | undefined;
  return typeof meta === 'object' && meta !== null && meta.surfaceId === surfaceId;
}
