import type { MessageId, NewSessionEvent, SessionEvent, SessionId, TurnId } from '../protocol/index.js';
import { UnknownSessionError } from './errors.js';
import { applyToEffectiveLog, effectiveLog, type EffectiveChange } from './projection.js';
import { emptyTaskSurfaceFold, foldTaskSurface, foldTaskSurfaceEvent, type TaskSurfaceFold } from './taskSurface/projection.js';
import type { SessionLogStore, SessionRecord } from './store/types.js';

/** A session's log-derived state in this process: the effective log and the projection. */
export interface LoadedSession {
  readonly record: SessionRecord;
  /** The effective log (rewinds applied), oldest first. */
  effective: SessionEvent[];
  /** Turns a rewind ended while they ran: their late events are stored but do not count. */
  rewoundTurns: Set<TurnId>;
  lastSeq: number;
  surface: TaskSurfaceFold;
  /** messageIds of durable user messages: a retried send never doubles a message. */
  userMessages: Set<MessageId>;
  /**
   * The principal id that owns it: the opening event's owner, or the newest `session/forked` owner
   * (a fork belongs to whoever forked it). null: opened by host code, or a log from before owners.
   */
  owner: string | null;
  /** When host code last used it (`Date.now()`): idle sessions are unloaded, least recently used first. */
  usedAt: number;
}

export interface AppendListener {
  /**
   * After an event is durable and folded. `cut`: the effective log was cut (a rewind); `ignored`:
   * the event is stored but not effective (a late event of a turn a rewind ended).
   */
  (session: LoadedSession, event: SessionEvent, change: EffectiveChange): void;
}

/**
 * The sessions of one host over one store. State is loaded from the log on first use and kept
 * incrementally by `append`; it always equals a fresh fold of the stored log.
 */
export class Sessions {
  readonly #loaded = new Map<SessionId, LoadedSession>();
  readonly #onLoad: (session: LoadedSession) => void;

  constructor(
    readonly store: SessionLogStore,
    readonly clock: () => number,
    readonly onAppend: AppendListener,
    onLoad: (session: LoadedSession) => void,
  ) {
    this.#onLoad = onLoad;
  }

  has(sessionId: SessionId): boolean {
    return this.#loaded.has(sessionId) || this.store.getSession(sessionId) !== undefined;
  }

  /** The loaded session, loading it from the store on first use; undefined when unknown. */
  find(sessionId: SessionId): LoadedSession | undefined {
    const loaded = this.#loaded.get(sessionId);
    if (loaded) {
      // Most recently used last: the map's order is the order in which to unload.
      const now = Date.now();
      if (loaded.usedAt !== now) {
        loaded.usedAt = now;
        this.#loaded.delete(sessionId);
        this.#loaded.set(sessionId, loaded);
      }
      return loaded;
    }
    const record = this.store.getSession(sessionId);
    if (!record) return undefined;
    const session = load(this.store, record);
    this.#loaded.set(sessionId, session);
    this.#onLoad(session);
    return session;
  }

  /**
   * The session's owner (see `LoadedSession.owner`); undefined when there is no such session. Asks
   * the store's owner index; without an owner there, reads only the first event of a session not in memory: it names the owner of every session opened by a
   * principal and of every fork of one (a fork's copied opening event is rewritten to its own owner).
   */
  ownerOf(sessionId: SessionId): string | null | undefined {
    const loaded = this.#loaded.get(sessionId);
    if (loaded) return loaded.owner;
    const record = this.store.getSession(sessionId);
    if (!record) return undefined;
    // The owner index names it (a store from before owners, or host code's session, does not).
    if (typeof record.owner === 'string') return record.owner;
    const [first] = this.store.read(sessionId, { limit: 1 });
    if (first === undefined) return null;
    if (first.type === 'session/opened') return first.owner;
    if (first.type === 'session/forked' && first.owner !== undefined) return first.owner;
    return this.find(sessionId)?.owner ?? null;
  }

  get(sessionId: SessionId): LoadedSession {
    const session = this.find(sessionId);
    if (!session) throw new UnknownSessionError(sessionId);
    return session;
  }

  isLoaded(sessionId: SessionId): boolean {
    return this.#loaded.has(sessionId);
  }

  /** How many sessions are in memory. */
  get loadedCount(): number {
    return this.#loaded.size;
  }

  /** The loaded sessions, least recently used first. */
  leastRecentlyUsed(): LoadedSession[] {
    return [...this.#loaded.values()];
  }

  /** Drops a session's fold from memory; the next use loads it from the store again. */
  unload(sessionId: SessionId): void {
    this.#loaded.delete(sessionId);
  }

  create(record: SessionRecord): LoadedSession {
    this.store.createSession(record);
    return this.get(record.sessionId);
  }

  /** Makes one event durable, folds it, then tells the listener. */
  append(sessionId: SessionId, event: NewSessionEvent): SessionEvent {
    const session = this.get(sessionId);
    const stored = this.store.append(sessionId, event, this.clock());
    session.lastSeq = stored.seq;
    if (stored.type === 'session/opened' && session.owner === null) session.owner = stored.owner;
    else if (stored.type === 'session/forked' && stored.owner !== undefined) session.owner = stored.owner;
    const change = applyToEffectiveLog(session.effective, session.rewoundTurns, stored);
    if (change === 'cut') {
      session.surface = foldTaskSurface(session.effective);
      session.userMessages = userMessageIds(session.effective);
    } else if (change === 'appended') {
      foldTaskSurfaceEvent(session.surface, stored);
      if (stored.type === 'user/message') session.userMessages.add(stored.messageId);
    }
    this.onAppend(session, stored, change);
    return stored;
  }
}

function userMessageIds(events: readonly SessionEvent[]): Set<MessageId> {
  const ids = new Set<MessageId>();
  for (const e of events) if (e.type === 'user/message') ids.add(e.messageId);
  return ids;
}

/** Folds a session's stored log (every stored event is validated on the way). */
export function load(store: SessionLogStore, record: SessionRecord): LoadedSession {
  const rewoundTurns = new Set<TurnId>();
  const raw = store.read(record.sessionId);
  const effective = effectiveLog(raw, rewoundTurns);
  return {
    record,
    effective,
    rewoundTurns,
    lastSeq: store.lastSeq(record.sessionId),
    surface: effective.length ? foldTaskSurface(effective) : emptyTaskSurfaceFold(),
    userMessages: userMessageIds(effective),
    owner: ownerIn(raw),
    usedAt: Date.now(),
  };
}

/** From the stored log (a rewind never changes who owns a session). */
function ownerIn(events: readonly SessionEvent[]): string | null {
  let owner: string | null = null;
  for (const e of events) {
    if (e.type === 'session/opened' && owner === null) owner = e.owner;
    else if (e.type === 'session/forked' && e.owner !== undefined) owner = e.owner;
  }
  return owner;
}
