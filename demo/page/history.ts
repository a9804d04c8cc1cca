import type { SessionEvent, SessionId } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';

/** The newest-first gap above which catching up reloads the newest page instead of filling it. */
const MAX_GAP = 200;

/**
 * The transcript's loaded history window of one session: the newest page at first, older pages on
 * demand (`loadOlder`), new events as the session's `lastSeq` grows (`catchUp`). Operations run one
 * at a time so pages never interleave.
 */
export class HistoryWindow {
  events: SessionEvent[] = [];
  hasMore = false;
  loaded = false;
  /**
   * The newest seq of the first page: events after it arrived while the person watched (a screen
   * reader announces new agent text only, never the history it loads).
   */
  liveAfter = Infinity;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly transport: HostTransport,
    readonly sessionId: SessionId,
    private readonly pageSize: number,
    private readonly changed: () => void,
  ) {}

  /** Loads the newest page (replacing the window). */
  loadLatest(): Promise<void> {
    return this.run(async () => {
      const page = await this.transport.readLog(this.sessionId, { limit: this.pageSize });
      this.events = page.events;
      this.hasMore = page.hasMore;
      this.liveAfter = page.events.at(-1)?.seq ?? 0;
      this.loaded = true;
    });
  }

  /** Prepends the page before the oldest loaded event. */
  loadOlder(): Promise<void> {
    return this.run(async () => {
      const first = this.events[0]?.seq;
      if (!this.hasMore || first === undefined) return;
      const page = await this.transport.readLog(this.sessionId, { before: first, limit: this.pageSize });
      this.events = mergeEvents(page.events, this.events);
      this.hasMore = page.hasMore;
    });
  }

  /** Appends events up to `lastSeq` (the view says the log grew). */
  catchUp(lastSeq: number): Promise<void> {
    return this.run(async () => {
      const newest = this.events.at(-1)?.seq ?? 0;
      if (!this.loaded || lastSeq <= newest) return;
      const gap = lastSeq - newest;
      // Exactly the events newest < seq ≤ lastSeq, even if the log grew again meanwhile.
      const page = await this.transport.readLog(this.sessionId, { before: lastSeq + 1, limit: Math.min(gap, MAX_GAP) });
      if (gap > MAX_GAP) {
        this.events = page.events;
        this.hasMore = page.hasMore;
      } else {
        this.events = mergeEvents(this.events, page.events);
      }
    });
  }

  private run(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).then(this.changed, (error: unknown) => console.warn('[demo] history', error));
    return this.queue;
  }
}

/** Both lists merged by seq, each event once, oldest first. */
export function mergeEvents(a: readonly SessionEvent[], b: readonly SessionEvent[]): SessionEvent[] {
  const bySeq = new Map<number, SessionEvent>();
  for (const event of a) bySeq.set(event.seq, event);
  for (const event of b) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq);
}
