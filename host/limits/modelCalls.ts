import type { SessionId } from '../../protocol/index.js';

interface Waiter {
  sessionId: SessionId;
  start(): void;
}

/**
 * Model calls in flight: at most `perOwner` for one owner and `total` for the whole Host. A call past
 * either waits (it is never refused); a freed slot goes to the waiting owner with the fewest calls
 * in flight, owners taking turns (round-robin) among equals, so one owner with many sessions cannot
 * starve the others. `onWaiting` says when a
 * session starts or stops waiting (its view shows the turn as pending).
 */
export class ModelCallGate {
  #inFlight = 0;
  readonly #byOwner = new Map<string, number>();
  /** Each owner's waiting calls, oldest first; the Map's order is the round-robin ring. */
  readonly #queues = new Map<string, Waiter[]>();
  readonly #waiting = new Map<SessionId, number>();

  constructor(
    private readonly perOwner: number,
    private readonly total: number,
    private readonly onWaiting: (sessionId: SessionId) => void = () => undefined,
  ) {}

  /** Calls in flight now (all owners). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Whether a call of this session is waiting for a slot. */
  isWaiting(sessionId: SessionId): boolean {
    return this.#waiting.has(sessionId);
  }

  /** Runs `call` once a slot is free; `signal` aborting while it waits rejects with its reason. */
  async run<T>(owner: string, sessionId: SessionId, signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    await this.#acquire(owner, sessionId, signal);
    try {
      return await call();
    } finally {
      this.#release(owner);
    }
  }

  #free(owner: string): boolean {
    return this.#inFlight < this.total && (this.#byOwner.get(owner) ?? 0) < this.perOwner;
  }

  #take(owner: string): void {
    this.#inFlight++;
    this.#byOwner.set(owner, (this.#byOwner.get(owner) ?? 0) + 1);
  }

  #acquire(owner: string, sessionId: SessionId, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (!this.#queues.has(owner) && this.#free(owner)) {
      this.#take(owner);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        sessionId,
        start: () => {
          signal.removeEventListener('abort', abort);
          this.#unmark(sessionId);
          resolve();
        },
      };
      const abort = () => {
        const queue = this.#queues.get(owner);
        const at = queue?.indexOf(waiter) ?? -1;
        if (at < 0) return;
        queue!.splice(at, 1);
        if (queue!.length === 0) this.#queues.delete(owner);
        this.#unmark(sessionId);
        reject(signal.reason);
      };
      signal.addEventListener('abort', abort, { once: true });
      const queue = this.#queues.get(owner);
      if (queue) queue.push(waiter);
      else this.#queues.set(owner, [waiter]);
      this.#waiting.set(sessionId, (this.#waiting.get(sessionId) ?? 0) + 1);
      if (this.#waiting.get(sessionId) === 1) this.onWaiting(sessionId);
    });
  }

  #release(owner: string): void {
    this.#inFlight--;
    const left = (this.#byOwner.get(owner) ?? 1) - 1;
    if (left === 0) this.#byOwner.delete(owner);
    else this.#byOwner.set(owner, left);
    this.#pump();
  }

  /**
   * Starts waiting calls while slots are free. Each slot goes to the waiting owner with the fewest
   * calls in flight (ties: the first in the ring), which then goes to the end of the ring.
   */
  #pump(): void {
    while (this.#inFlight < this.total) {
      let next: string | undefined;
      let least = Infinity;
      for (const owner of this.#queues.keys()) {
        const inFlight = this.#byOwner.get(owner) ?? 0;
        if (inFlight < least && this.#free(owner)) [next, least] = [owner, inFlight];
      }
      if (next === undefined) return;
      const queue = this.#queues.get(next)!;
      const waiter = queue.shift()!;
      this.#queues.delete(next);
      if (queue.length > 0) this.#queues.set(next, queue);
      this.#take(next);
      waiter.start();
    }
  }

  #unmark(sessionId: SessionId): void {
    const count = (this.#waiting.get(sessionId) ?? 1) - 1;
    if (count > 0) return void this.#waiting.set(sessionId, count);
    this.#waiting.delete(sessionId);
    this.onWaiting(sessionId);
  }
}
