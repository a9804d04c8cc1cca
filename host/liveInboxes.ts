import type { SessionId } from '../protocol/index.js';
import { Inbox, type InboxDeps } from './inbox.js';

export interface LiveInboxesDeps extends Omit<InboxDeps, 'onIdle' | 'whenDurable'> {
  /** Present for a store whose writes become durable later: a turn's end waits for them. */
  whenDurable?(sessionId: SessionId): Promise<void> | undefined;
  /** The session's live agent went away (closed, or the host disposed): plugins hear it. */
  agentDisposed(sessionId: SessionId): void;
}

/**
 * The Host's live sessions: one inbox and turn loop per session in use, started on first use,
 * closed on `closeSession`, and the `whenIdle` waiters that watch them. After `dispose` no inbox
 * starts again.
 */
export class LiveInboxes {
  readonly #inboxes = new Map<SessionId, Inbox>();
  readonly #idleWaiters = new Set<{ ids: () => SessionId[]; resolve: () => void }>();
  readonly #closing = new Set<Promise<void>>();
  #disposed = false;

  constructor(private readonly deps: LiveInboxesDeps) {}

  get disposed(): boolean {
    return this.#disposed;
  }

  assertOpen(): void {
    if (this.#disposed) throw new Error('the host is disposed');
  }

  /** The session's inbox when it is live (never starts one). */
  get(sessionId: SessionId): Inbox | undefined {
    return this.#inboxes.get(sessionId);
  }

  has(sessionId: SessionId): boolean {
    return this.#inboxes.has(sessionId);
  }

  /** The session's live inbox and turn loop, started on first use (a live root agent). */
  for(sessionId: SessionId): Inbox {
    this.assertOpen();
    let inbox = this.#inboxes.get(sessionId);
    if (!inbox) {
      const { deps } = this;
      deps.sessions.get(sessionId);
      const { whenDurable, agentDisposed: _, ...inboxDeps } = deps;
      inbox = new Inbox(sessionId, {
        ...inboxDeps,
        onIdle: () => this.#checkIdle(),
        ...(whenDurable ? { whenDurable: () => whenDurable(sessionId) } : {}),
      });
      this.#inboxes.set(sessionId, inbox);
    }
    return inbox;
  }

  /** Stops the session's inbox quietly (unloading: its stored rows come back on the next use). */
  drop(sessionId: SessionId): void {
    const inbox = this.#inboxes.get(sessionId);
    if (!inbox) return;
    this.#inboxes.delete(sessionId);
    void inbox.dispose('unloaded');
  }

  /** Ends the session's live agent: its rows are discarded with `reason`, and plugins hear it. */
  close(sessionId: SessionId, reason: string): void {
    const inbox = this.#inboxes.get(sessionId);
    if (!inbox) return;
    this.#inboxes.delete(sessionId);
    const done = inbox.dispose(reason).finally(() => {
      this.#closing.delete(done);
      this.#checkIdle();
    });
    this.#closing.add(done);
    this.deps.agentDisposed(sessionId);
    this.deps.publish(sessionId);
  }

  /** Settles when the session (or every live session) has nothing running or waiting. */
  whenIdle(sessionId?: SessionId): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#idleWaiters.add({ ids: () => (sessionId ? [sessionId] : [...this.#inboxes.keys()]), resolve });
      this.#checkIdle();
    });
  }

  /** Closes every inbox and waits until each has stopped; later uses are refused. */
  async dispose(): Promise<void> {
    for (const sessionId of [...this.#inboxes.keys()]) this.close(sessionId, 'host-disposed');
    this.#disposed = true;
    await Promise.all([...this.#closing]);
  }

  /** Lets every `whenIdle` waiter go (the host is gone). */
  releaseWaiters(): void {
    for (const waiter of this.#idleWaiters) waiter.resolve();
    this.#idleWaiters.clear();
  }

  #checkIdle(): void {
    for (const waiter of [...this.#idleWaiters]) {
      if (waiter.ids().every((id) => this.#inboxes.get(id)?.isIdle ?? true)) {
        this.#idleWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
