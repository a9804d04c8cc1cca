import { createActor, type Actor } from 'xstate';
import { turnMachine, type TurnEndOutcome } from '../machines/turnMachine.js';
import type {
  InboxItemId, MessageId, MessageSource, QueuedMessage, SessionEvent, SessionId, UserMessageEvent,
} from '../protocol/index.js';
import { isKept, previewOf, restoreQueued, toStored } from './durableQueue.js';
import type { HostIds } from './ids.js';
import type { LoadedSession, Sessions } from './sessions.js';
import type { ToolRegistry } from './tools.js';
import { createAgentTurn } from './turn.js';
import type { AgentDriver, ClaimHandle, InspectObserver, StepContext } from './types.js';

/** Learns every row's fate without knowing what the row is for (the Task Surface service listens). */
export interface InboxObserver {
  /** Synchronously, before the queue snapshot without the row is published. */
  claimed(sessionId: SessionId, row: QueuedMessage): void;
  committed(sessionId: SessionId, row: QueuedMessage, event: UserMessageEvent): void;
  /** A queued row was removed, or a claimed row was rejected, cancelled or disposed. */
  discarded(sessionId: SessionId, row: QueuedMessage, reason: string): void;
}

export interface InboxDeps {
  sessions: Sessions;
  tools: ToolRegistry;
  ids: HostIds;
  driver: AgentDriver | undefined;
  autoAdmit: boolean;
  inspect: InspectObserver | undefined;
  observer: InboxObserver;
  beforeStep(ctx: StepContext): void;
  publish(sessionId: SessionId): void;
  /** Called whenever the loop may have become idle (whenIdle waiters re-check). */
  onIdle(): void;
}

/**
 * One session's inbox and turn loop, driven through `turnMachine`. Ordinary rows are also saved in
 * the store (until their message is durable or they are discarded) and restored when the inbox is
 * created again; Task Surface rows are process-local. Every claimed row ends committed (durable user
 * message) or discarded.
 */
export class Inbox {
  readonly rows: QueuedMessage[] = [];
  readonly actor: Actor<typeof turnMachine>;
  readonly #claimed = new Map<InboxItemId, QueuedMessage>();
  #admitted: UserMessageEvent[] = [];
  #running: { controller: AbortController; done: Promise<void> } | null = null;
  #scheduled = false;
  #disposed = false;
  /** The next row's `order` in the store. */
  #order = 0;

  constructor(readonly sessionId: SessionId, private readonly deps: InboxDeps) {
    this.actor = createActor(turnMachine, { input: { sessionId }, inspect: deps.inspect });
    this.actor.on('claim.started', ({ itemId }) => deps.observer.claimed(sessionId, this.#claimed.get(itemId)!));
    this.actor.start();
    const restored = restoreQueued(this.#store, sessionId, this.session.userMessages);
    this.rows.push(...restored.rows);
    this.#order = restored.nextOrder;
    if (this.rows.length) this.#schedule();
  }

  get #store() {
    return this.deps.sessions.store;
  }

  /** An item id no live row or claim uses (restored rows keep ids a restarted minter may mint again). */
  #freshItemId(): InboxItemId {
    let id = this.deps.ids.item();
    while (this.find(id) || this.#claimed.has(id)) id = this.deps.ids.item();
    return id;
  }

  get session(): LoadedSession {
    return this.deps.sessions.get(this.sessionId);
  }

  /** 'running' while a turn runs (admitting rows alone is not the agent working). */
  get turnState(): 'idle' | 'running' {
    const snapshot = this.actor.getSnapshot();
    return snapshot.matches('running') || snapshot.matches('concluded') ? 'running' : 'idle';
  }

  /**
   * Nothing will happen without outside input: no turn runs and nothing is scheduled. With
   * `autoAdmit` the loop must also have no queued row and no claim; without it, rows and claims wait
   * for host code and do not count.
   */
  get isIdle(): boolean {
    const snapshot = this.actor.getSnapshot();
    if (this.#scheduled || this.#running || snapshot.matches('running') || snapshot.matches('concluded')) return false;
    return this.deps.autoAdmit ? snapshot.matches('idle') && this.rows.length === 0 : true;
  }

  /** Rows placed `queued` (waiting for a later turn). */
  get queuedCount(): number {
    return this.rows.filter((r) => r.placement === 'queued').length;
  }

  enqueue(input: { messageId: QueuedMessage['messageId']; text: string; source: MessageSource }): QueuedMessage {
    const row: QueuedMessage = {
      id: this.#freshItemId(), messageId: input.messageId, placement: 'queued', source: input.source,
      text: input.text, preview: previewOf(input.text),
    };
    // Saved before it is accepted: a store failure refuses the message instead of losing it later.
    if (isKept(row)) this.#store.saveQueued(this.sessionId, toStored(row, this.#order++));
    this.rows.push(row);
    this.deps.publish(this.sessionId);
    this.#schedule();
    return row;
  }

  find(itemId: InboxItemId): QueuedMessage | undefined {
    return this.rows.find((r) => r.id === itemId);
  }

  /** The queued or claimed (not yet durable) row carrying `messageId`. */
  findMessage(messageId: MessageId): QueuedMessage | undefined {
    return this.rows.find((r) => r.messageId === messageId)
      ?? [...this.#claimed.values()].find((r) => r.messageId === messageId);
  }

  /**
   * Removes a queued (unclaimed) row and reports its discard. `keepStored`: the row stays in the
   * store (the process-local inbox closes; the row comes back when the session is opened again).
   */
  remove(itemId: InboxItemId, reason = 'removed', keepStored = false): boolean {
    const index = this.rows.findIndex((r) => r.id === itemId);
    if (index < 0) return false;
    const [row] = this.rows.splice(index, 1);
    if (!keepStored && isKept(row!)) this.#store.deleteQueued(this.sessionId, row!.id);
    this.deps.observer.discarded(this.sessionId, row!, reason);
    this.deps.publish(this.sessionId);
    this.deps.onIdle();
    return true;
  }

  update(itemId: InboxItemId, change: { text?: string; placement?: 'steering' }): void {
    const index = this.rows.findIndex((r) => r.id === itemId);
    const row = this.rows[index];
    if (!row) return;
    const next = { ...row, ...change };
    if (change.text !== undefined) next.preview = previewOf(change.text);
    if (isKept(row)) this.#store.updateQueued(this.sessionId, itemId, change);
    this.rows[index] = next;
    this.deps.publish(this.sessionId);
  }

  /** Claims the next row (steering rows first); null when none is queued or the loop takes none now. */
  claimNext(): ClaimHandle | null {
    const row = this.rows.find((r) => r.placement === 'steering') ?? this.rows[0];
    return row ? this.#claim(row) : null;
  }

  #claim(row: QueuedMessage): ClaimHandle | null {
    if (this.#disposed || !this.actor.getSnapshot().can({ type: 'queue.claimed', itemId: row.id })) return null;
    this.rows.splice(this.rows.indexOf(row), 1);
    this.#claimed.set(row.id, row);
    this.actor.send({ type: 'queue.claimed', itemId: row.id });
    this.deps.publish(this.sessionId);
    return {
      itemId: row.id,
      row,
      commit: () => this.#commit(row.id),
      discard: (reason = 'rejected') => this.#discard(row.id, reason),
    };
  }

  #settle(itemId: InboxItemId): QueuedMessage {
    const row = this.#claimed.get(itemId);
    if (!row) throw new Error(`claim ${itemId} is already settled`);
    this.#claimed.delete(itemId);
    return row;
  }

  #commit(itemId: InboxItemId): UserMessageEvent {
    const row = this.#settle(itemId);
    const event = this.deps.sessions.append(this.sessionId, {
      type: 'user/message', messageId: row.messageId, text: row.text, source: row.source,
    }) as UserMessageEvent;
    // After the append: a stop in between leaves a stored row that #restore drops as durable.
    if (isKept(row)) this.#store.deleteQueued(this.sessionId, row.id);
    if (!this.actor.getSnapshot().matches('running')) this.#admitted.push(event);
    this.actor.send({ type: 'admission.committed', itemId });
    this.deps.observer.committed(this.sessionId, row, event);
    this.#maybeStartTurn();
    this.deps.publish(this.sessionId);
    this.deps.onIdle();
    return event;
  }

  #discard(itemId: InboxItemId, reason: string, keepStored = false): void {
    const row = this.#settle(itemId);
    if (!keepStored && isKept(row)) this.#store.deleteQueued(this.sessionId, row.id);
    this.actor.send({ type: 'admission.discarded', itemId, reason });
    this.deps.observer.discarded(this.sessionId, row, reason);
    this.#maybeStartTurn();
    this.deps.publish(this.sessionId);
    this.#schedule();
    this.deps.onIdle();
  }

  /** Claims and commits every steering row into the running turn (called at each model step). */
  admitSteering(): void {
    for (const row of this.rows.filter((r) => r.placement === 'steering')) this.#claim(row)?.commit();
  }

  #schedule(): void {
    if (!this.deps.autoAdmit || this.#scheduled || this.#disposed) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#drain();
    });
  }

  /** Auto-admission: claims every row at once (steering first), then commits them a tick later. */
  #drain(): void {
    if (this.#disposed || !this.actor.getSnapshot().matches('idle') || this.rows.length === 0) {
      this.deps.onIdle();
      return;
    }
    const order = [...this.rows.filter((r) => r.placement === 'steering'), ...this.rows.filter((r) => r.placement === 'queued')];
    const claims = order.map((row) => this.#claim(row)).filter((c): c is ClaimHandle => c !== null);
    // Admission is asynchronous: clients see the claim (queued → claiming) before durability.
    queueMicrotask(() => {
      for (const claim of claims) if (this.#claimed.has(claim.itemId)) claim.commit();
    });
  }

  /** A call id not used in this session's log (deterministic minters restart with the process). */
  #freshCallId() {
    let callId = this.deps.ids.call();
    while (this.deps.sessions.store.findCall(this.sessionId, callId).call) callId = this.deps.ids.call();
    return callId;
  }

  #maybeStartTurn(): void {
    const turnId = this.deps.ids.turn();
    if (!this.actor.getSnapshot().can({ type: 'turn.started', turnId })) return;
    const input = this.#admitted;
    this.#admitted = [];
    this.deps.sessions.append(this.sessionId, { type: 'turn/started', turnId });
    this.actor.send({ type: 'turn.started', turnId });
    const controller = new AbortController();
    const turn = createAgentTurn({
      sessionId: this.sessionId, turnId, input, signal: controller.signal,
      session: () => this.session,
      append: (event) => this.deps.sessions.append(this.sessionId, event),
      tools: this.deps.tools,
      beforeStep: this.deps.beforeStep,
      admitSteering: () => this.admitSteering(),
      mintCallId: () => this.#freshCallId(),
      mintMessageId: this.deps.ids.message,
      onConcluded: () => {
        this.actor.send({ type: 'agent.concluded' });
        this.deps.publish(this.sessionId);
      },
    });
    const finish = (outcome: TurnEndOutcome, error?: string) => {
      turn.close();
      this.#running = null;
      const ended = error === undefined ? { type: 'turn/ended' as const, turnId, outcome }
        : { type: 'turn/ended' as const, turnId, outcome, error };
      this.deps.sessions.append(this.sessionId, ended);
      this.actor.send({ type: 'turn.ended', outcome });
      this.deps.publish(this.sessionId);
      this.#schedule();
      this.deps.onIdle();
    };
    const driver = this.deps.driver;
    if (!driver) {
      finish('completed');
      return;
    }
    const outcomeOf = () => (controller.signal.aborted ? 'cancelled' : turn.concluded ? 'concluded' : 'completed');
    const done = Promise.resolve()
      .then(() => driver.runTurn(turn))
      .then(
        () => finish(outcomeOf()),
        (error: unknown) => finish(controller.signal.aborted ? 'cancelled' : 'failed', String((error as Error)?.message ?? error)),
      );
    this.#running = { controller, done };
  }

  claimedRows(): QueuedMessage[] {
    return [...this.#claimed.values()];
  }

  /**
   * Stops everything at once: queued rows and open claims are discarded (`reason`), also from the
   * store unless `keepStored`, and a running turn is aborted. The returned promise settles when that
   * turn has ended (`cancelled`). The durable log is otherwise untouched.
   */
  cancel(reason: string, keepStored = false): Promise<void> {
    for (const row of [...this.rows]) this.remove(row.id, reason, keepStored);
    for (const itemId of [...this.#claimed.keys()]) this.#discard(itemId, reason, keepStored);
    const running = this.#running;
    if (!running) return Promise.resolve();
    running.controller.abort(new Error(reason));
    return running.done;
  }

  /** Closes the live inbox; stored ordinary rows stay for the next time the session is opened. */
  async dispose(reason: string): Promise<void> {
    this.#disposed = true;
    await this.cancel(reason, true);
    this.actor.stop();
  }
}
