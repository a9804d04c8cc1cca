import {
  pageStartWithin,
  type LogPage,
  type QueuedMessage,
  type SessionId,
  type SessionListener,
  type SessionView,
  type TaskSurfacePendingSubmission,
} from '../protocol/index.js';
import { taskSurfaceProjection } from './taskSurface/projection.js';
import type { LoadedSession } from './sessions.js';
import type { ActionCardsService } from './types.js';
import type { Inbox } from './inbox.js';

/**
 * Each queue row's copy for views, made once per row object (the inbox replaces a row object when
 * it changes): a view costs a shallow array copy per publish instead of a deep clone of every row.
 */
const rowCopies = new WeakMap<QueuedMessage, QueuedMessage>();
function rowCopy(row: QueuedMessage): QueuedMessage {
  let copy = rowCopies.get(row);
  if (!copy) rowCopies.set(row, (copy = { ...row, source: copyJson(row.source) }));
  return copy;
}

/** A deep copy of plain JSON data (a row's source: strings and submitted values), without structuredClone's cost. */
function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = copyJson(item);
  return copy as T;
}

/**
 * The client view of one session: projection (with the open surface's pending phase), queue rows with
 * their full source, card view.
 */
export function sessionView(
  session: LoadedSession,
  inbox: Inbox | undefined,
  cards: ActionCardsService,
  pending: TaskSurfacePendingSubmission | null,
): SessionView {
  const sessionId = session.record.sessionId;
  return {
    sessionId,
    lastSeq: session.lastSeq,
    readOnly: session.record.readOnly,
    turn: inbox?.turnState ?? 'idle',
    taskSurface: taskSurfaceProjection(session.surface, pending),
    queue: inbox ? inbox.rows.map(rowCopy) : [],
    actionCards: cards.view(sessionId),
    ...(inbox?.streaming ? { streaming: { ...inbox.streaming } } : {}),
    ...(inbox?.preview ? { preview: inbox.preview } : {}),
  };
}

/**
 * A page of the effective log: events with seq < before (newest page without it), oldest first, at
 * most `limit` of them and, with `maxBytes`, no more than fit in that many bytes of JSON (the newest
 * always; `hasMore` then tells the client to go on with `before`). The events are the Host's own
 * objects, never copied: a stored event never changes, and a reader must not change it either.
 */
export function logPage(session: LoadedSession, options: { before?: number; limit: number; maxBytes?: number }): LogPage {
  const events = session.effective;
  // Binary search: the first index whose seq is >= before.
  let end = events.length;
  if (options.before !== undefined) {
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid]!.seq < options.before) lo = mid + 1;
      else hi = mid;
    }
    end = lo;
  }
  const from = Math.max(0, end - options.limit);
  const start = options.maxBytes === undefined ? from : pageStartWithin(events, from, end, options.maxBytes);
  return { events: events.slice(start, end), hasMore: start > 0, lastSeq: session.lastSeq };
}

/** Watchers per session; a throwing listener is reported and never breaks the host. */
export class Watchers {
  readonly #listeners = new Map<SessionId, Set<SessionListener>>();

  constructor(private readonly view: (sessionId: SessionId) => SessionView) {}

  add(sessionId: SessionId, listener: SessionListener): () => void {
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(sessionId) === set) this.#listeners.delete(sessionId);
    };
  }

  /** Whether anyone watches the session. */
  has(sessionId: SessionId): boolean {
    return (this.#listeners.get(sessionId)?.size ?? 0) > 0;
  }

  /** Delivers the session's view now (synchronously: host code may rely on the order of changes). */
  publish(sessionId: SessionId): void {
    const set = this.#listeners.get(sessionId);
    if (!set || set.size === 0) return;
    let view: SessionView;
    try {
      view = this.view(sessionId);
    } catch (error) {
      console.error(`task-surface host: the view of session ${sessionId} could not be built`, error);
      return;
    }
    for (const listener of [...set]) {
      try {
        listener(view);
      } catch (error) {
        console.error(`task-surface host: a watcher of session ${sessionId} threw`, error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
