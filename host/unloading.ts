import type { SessionId } from '../protocol/index.js';
import { isKept } from './durableQueue.js';
import type { LiveInboxes } from './liveInboxes.js';
import { Residency } from './residency.js';
import type { Sessions } from './sessions.js';
import { isAsyncStore } from './store/types.js';
import type { Watchers } from './views.js';

export interface UnloadingDeps {
  sessions: Sessions;
  inboxes: LiveInboxes;
  watchers: Watchers;
  /** Each part that keeps per-session memory forgets the session (answers, surfaces, signals). */
  forget: readonly ((sessionId: SessionId) => void)[];
  maxLoadedSessions: number;
  idleMs: number;
}

/** How a Host lets sessions go from memory: one unload, and the residency that calls it for idle ones. */
export interface Unloading {
  /**
   * Drops the session from memory without touching the store: its inbox (stored rows stay and are
   * restored), projections and card state come back from the log on the next use. The live agent's
   * card-skill activation is kept (no agent-disposed signal): unloading is invisible to the agent.
   */
  unload(sessionId: SessionId): void;
  readonly residency: Residency;
}

/** Creates the unloading part of a Host. */
export function createUnloading(deps: UnloadingDeps): Unloading {
  const { sessions, inboxes } = deps;
  /** Nothing in flight: no watcher, no running or scheduled turn, no claim, only stored (ordinary) rows. */
  const idle = (sessionId: SessionId): boolean => {
    if (deps.watchers.has(sessionId)) return false;
    const inbox = inboxes.get(sessionId);
    return !inbox || (inbox.turnState === 'idle' && inbox.isIdle && inbox.claimedRows().length === 0 && inbox.rows.every(isKept));
  };
  const unload = (sessionId: SessionId) => {
    inboxes.drop(sessionId);
    for (const forget of deps.forget) forget(sessionId);
    sessions.unload(sessionId);
    if (isAsyncStore(sessions.store)) sessions.store.unload(sessionId);
  };
  const residency = new Residency({ sessions, idle, unload, maxLoadedSessions: deps.maxLoadedSessions, idleMs: deps.idleMs });
  return { unload, residency };
}
