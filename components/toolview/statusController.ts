import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionId, TaskSurfaceId } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { findClosedOutcome, type SurfaceOutcome } from './surfaceStatus.js';

export interface StatusTarget {
  transport: HostTransport | undefined;
  sessionId: SessionId | undefined;
  surfaceId: TaskSurfaceId | undefined;
  /** false when the page set the status itself: nothing is watched or read. */
  enabled: boolean;
}

/**
 * Bridges a transcript row to its session: one watch while connected; `open` while the projection
 * names the surface, otherwise the outcome read from the log. Re-derives only when the active
 * identity changes; a stale log read is dropped.
 */
export class StatusController implements ReactiveController {
  outcome: SurfaceOutcome | undefined;
  private unwatch: (() => void) | undefined;
  private watching: unknown[] = [];
  private generation = 0;
  private activeId: string | null | undefined;

  constructor(private readonly host: ReactiveControllerHost & { isConnected: boolean }, private readonly target: () => StatusTarget) {
    host.addController(this);
  }

  hostConnected(): void { this.sync(); }
  hostDisconnected(): void { this.stop(); }

  /** Starts, restarts or keeps the watch for the current transport, session and surface. */
  sync(): void {
    const { transport, sessionId, surfaceId, enabled } = this.target();
    const key = [transport, sessionId, surfaceId, enabled];
    if (this.unwatch && key.every((k, i) => k === this.watching[i])) return;
    this.stop();
    this.watching = key;
    if (!transport || !sessionId || !surfaceId || !enabled || !this.host.isConnected) return;
    try {
      this.unwatch = transport.watchSession(sessionId, (view) => {
        const active = view.taskSurface.active?.surfaceId ?? null;
        if (active === this.activeId) return;
        this.activeId = active;
        const generation = ++this.generation;
        if (active === surfaceId) return this.set({ status: 'open' });
        findClosedOutcome(transport, sessionId, surfaceId).then(
          (outcome) => { if (generation === this.generation) this.set(outcome); },
          () => { if (generation === this.generation) this.set({ status: 'closed' }); },
        );
      });
    } catch {
      this.unwatch = undefined; // a disposed transport: no status
    }
  }

  private set(outcome: SurfaceOutcome): void {
    this.outcome = outcome;
    this.host.requestUpdate();
  }

  private stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    this.watching = [];
    this.activeId = undefined;
    this.outcome = undefined;
    this.generation++;
  }
}
