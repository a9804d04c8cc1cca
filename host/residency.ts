import type { SessionId } from '../protocol/index.js';
import type { Sessions } from './sessions.js';

export interface ResidencyOptions {
  sessions: Sessions;
  /** At most this many sessions stay in memory (idle ones beyond it are unloaded, oldest use first). */
  maxLoadedSessions: number;
  /** A session unused this long is unloaded when idle. */
  idleMs: number;
  /** Nothing in flight: no watcher, no running turn, no claim, no process-local row. */
  idle(sessionId: SessionId): boolean;
  /** Drops every in-memory part of the session (it comes back from the store on next use). */
  unload(sessionId: SessionId): void;
}

/**
 * Keeps the number of sessions in memory bounded: after a session is loaded past
 * `maxLoadedSessions`, and every `idleMs` (at most a minute), idle sessions are unloaded, least
 * recently used first. Unloading never touches the store, so the next use folds the same log.
 */
export class Residency {
  #sweepQueued = false;
  #disposed = false;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(private readonly options: ResidencyOptions) {
    this.#timer = setInterval(() => this.sweep(), Math.min(options.idleMs, 60_000));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** A session was loaded: past the bound, sweep once the current work is done (never inside a load). */
  loaded(): void {
    if (this.#sweepQueued || this.options.sessions.loadedCount <= this.options.maxLoadedSessions) return;
    this.#sweepQueued = true;
    setTimeout(() => {
      this.#sweepQueued = false;
      this.sweep();
    }, 0);
  }

  /** Unloads idle sessions unused for `idleMs`, and more (oldest use first) while over the bound. */
  sweep(): void {
    if (this.#disposed) return;
    const { sessions, maxLoadedSessions, idleMs } = this.options;
    const now = Date.now();
    for (const session of sessions.leastRecentlyUsed()) {
      if (sessions.loadedCount <= maxLoadedSessions && now - session.usedAt < idleMs) break;
      const sessionId = session.record.sessionId;
      if (this.options.idle(sessionId)) this.options.unload(sessionId);
    }
  }

  dispose(): void {
    this.#disposed = true;
    clearInterval(this.#timer);
  }
}
