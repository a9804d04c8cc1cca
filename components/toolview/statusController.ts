import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionId, TaskSurfaceId } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { surfaceOutcomeOf, type SurfaceOutcome } from './surfaceStatus.js';

export interface StatusTarget {
  transport: HostTransport | undefined;
  sessionId: SessionId | undefined;
  surfaceId: TaskSurfaceId | undefined;
  /** false when the page set the status itself: nothing is watched or read. */
  enabled: boolean;
}

/**
 * Bridges a transcript row to its session: one watch while connected; `open` while the projection
 * names the surface, otherwise the outcome the Host recorded (`taskSurface.getOutcome`, one read,
 * never a log scan). Re-reads only when the active identity changes, or on the next view after a
 * failed read (no status is shown meanwhile); a stale answer is dropped.
 */
export class StatusController implements ReactiveController {
  outcome: SurfaceOutcome | undefined;
  private unwatch: (() => void) | undefined;
  private watching: unknown[] = [];
  private generation = 0;
  private activeId: string | null | undefined;
  private failed = false;

  constructor(
    private readonly host: ReactiveControllerHost & { isConnected: boolean },
    private readonly target: () => StatusTarget,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }
  hostDisconnected(): void {
    this.stop();
  }

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
        if (active === this.activeId && !this.failed) return;
        this.activeId = active;
        this.failed = false;
        const generation = ++this.generation;
        if (active === surfaceId) return this.set({ status: 'open' });
        transport.taskSurface.getOutcome({ sessionId, surfaceId }).then(
          (outcome) => {
            if (generation === this.generation) this.set(surfaceOutcomeOf(outcome));
          },
          () => {
            if (generation !== this.generation) return;
            this.failed = true;
            this.set(undefined);
          },
        );
      });
    } catch {
      this.unwatch = undefined; // a disposed transport: no status
    }
  }

  private set(outcome: SurfaceOutcome | undefined): void {
    this.outcome = outcome;
    this.host.requestUpdate();
  }

  private stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    this.watching = [];
    this.activeId = undefined;
    this.failed = false;
    this.outcome = undefined;
    this.generation++;
  }
}
