import { waitFor, type Actor } from 'xstate';
import type { turnMachine } from '../machines/turnMachine.js';
import { SHOW_TASK_SURFACE } from '../protocol/tool.js';
import type {
  InboxItemId,
  MessageId,
  NormalizedTaskSurfaceModel,
  MessageSource,
  QueuedMessage,
  SessionId,
  TurnId,
  UserMessageEvent,
} from '../protocol/index.js';
import { durableMessage, isKept, previewOf, restoreQueued, toStored } from './durableQueue.js';
import { HostStoreError, storeStep } from './errors.js';
import { freshId, type HostIds } from './ids.js';
import { liveTurnsOf, recoverUnfinished } from './recovery.js';
import type { LoadedSession, Sessions } from './sessions.js';
import type { ToolRegistry } from './tools/registry.js';
import { TurnLoop } from './turnLoop.js';
import type { AgentDriver, ClaimHandle, InspectObserver, StepContext } from './types.js';
import { inspectSession } from './inspect.js';

/**
 * Learns every row's fate without knowing what the row is for (the Task Surface service listens). A
 * committed row's fate is its logged user message, which listeners of the log already see.
 */
export interface InboxObserver {
  /** Synchronously, before the queue snapshot without the row is published. */
  claimed(sessionId: SessionId, row: QueuedMessage): void;
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
  /** A failure the inbox settled by itself (a store error while admitting or ending a turn). */
  report(error: Error): void;
  /** The preview of a streaming call (host/taskSurface/preview.ts): null clears it, undefined keeps it. */
  preview?(sessionId: SessionId, name: string, args: string): NormalizedTaskSurfaceModel | null | undefined;
  /** See TurnLoopDeps.whenDurable. */
  whenDurable?(): Promise<void> | undefined;
}

/**
 * One session's queue, in front of its turn loop (`turnMachine`, which owns claims, admission and
 * turns: the driver runs when it emits `turn.started`, `turn/ended` is written as its effect).
 * The inbox holds the rows themselves: ordinary rows are also saved in the store (until their
 * message is durable or they are discarded) and restored when the inbox is created again; Task
 * Surface rows are process-local. Every claimed row ends committed (durable user message) or
 * discarded.
 */
export class Inbox {
  readonly rows: QueuedMessage[] = [];
  readonly actor: Actor<typeof turnMachine>;
  readonly #claimed = new Map<InboxItemId, QueuedMessage>();
  /** The running turn's reply as streamed so far (transient, never logged). */
  #streaming: { turnId: TurnId; text: string } | null = null;
  /** The panel the running turn's show_task_surface call is writing (transient, never logged). */
  #preview: { turnId: TurnId; model: NormalizedTaskSurfaceModel; json: string } | null = null;
  #scheduled = false;
  readonly #loop: TurnLoop;
  #disposed = false;
  /** The next row's `order` in the store. */
  #order = 0;

  constructor(
    readonly sessionId: SessionId,
    private readonly deps: InboxDeps,
  ) {
    // Read first: a store that fails here fails the start, before any actor exists.
    const restored = restoreQueued(this.#store, sessionId, this.session.userMessages);
    this.rows.push(...restored.rows);
    this.#order = restored.nextOrder;
    this.#loop = new TurnLoop({
      sessionId,
      sessions: deps.sessions,
      tools: deps.tools,
      ids: deps.ids,
      driver: deps.driver,
      beforeStep: deps.beforeStep,
      report: deps.report,
      ...(deps.whenDurable ? { whenDurable: deps.whenDurable } : {}),
      admitSteering: () => this.admitSteering(),
      mintCallId: () => this.#freshCallId(),
      onPartial: (turnId, text) => {
        if (text === null && this.#streaming === null) return;
        this.#streaming = text === null ? null : { turnId, text };
        deps.publish(sessionId);
      },
      onToolInput: (turnId, name, args) => {
        // Another tool's result leaves the panel's preview be ('' is the turn's reply or end).
        if (args === null && name !== '' && name !== SHOW_TASK_SURFACE) return;
        const model = args === null ? null : deps.preview?.(sessionId, name, args);
        if (model === undefined) return;
        const json = model === null ? '' : JSON.stringify(model);
        if (json === (this.#preview?.json ?? '')) return;
        this.#preview = model === null ? null : { turnId, model, json };
        deps.publish(sessionId);
      },
      send: (event) => this.actor.send(event),
    });
    this.actor = this.#loop.createActor(inspectSession(deps.inspect, sessionId));
    this.actor.on('turn.started', () => this.#loop.start(this.actor.getSnapshot().context.turn!));
    this.actor.on('claim.started', ({ itemId }) => deps.observer.claimed(sessionId, this.#claimed.get(itemId)!));
    this.actor.on('turn.finished', () => {
      // The appended `turn/ended` already published the idle view; publish only if it was not stored.
      if (!this.#loop.takeEndStored()) deps.publish(sessionId);
      this.#schedule();
      deps.onIdle();
    });
    this.actor.start();
    recoverUnfinished(this.session, liveTurnsOf(deps.sessions), {
      append: (event) => this.deps.sessions.append(sessionId, event),
      rerun: (input, rerunOf) => this.actor.send(rerunOf ? { type: 'turn.recovered', input, rerunOf } : { type: 'turn.recovered', input }),
      report: (error) => deps.report(new HostStoreError(sessionId, 'the recovery of unfinished work', error)),
    });
    if (this.rows.length) this.#schedule();
  }

  /** Runs a store call; its failure is reported and the caller goes on (the step can be redone later). */
  #tolerate(operation: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.deps.report(new HostStoreError(this.sessionId, operation, error));
    }
  }

  get #store() {
    return this.deps.sessions.store;
  }

  /** An item id no live row or claim uses (restored rows keep ids a restarted minter may mint again). */
  #freshItemId(): InboxItemId {
    return freshId('item', this.deps.ids.item, (id) => this.find(id) !== undefined || this.#claimed.has(id));
  }

  get session(): LoadedSession {
    return this.deps.sessions.get(this.sessionId);
  }

  get streaming(): { turnId: TurnId; text: string } | null {
    return this.#streaming;
  }

  get preview(): { turnId: TurnId; model: NormalizedTaskSurfaceModel } | null {
    return this.#preview && { turnId: this.#preview.turnId, model: this.#preview.model };
  }

  /** 'running' while a turn runs (admitting rows alone is not the agent working). */
  get turnState(): 'idle' | 'running' {
    return this.actor.getSnapshot().hasTag('running') && !this.#loop.ending ? 'running' : 'idle';
  }

  /**
   * Nothing will happen without outside input: no turn runs and nothing is scheduled. With
   * `autoAdmit` the loop must also have no queued row and no claim; without it, rows and claims wait
   * for host code and do not count.
   */
  get isIdle(): boolean {
    const snapshot = this.actor.getSnapshot();
    if (this.#scheduled || snapshot.hasTag('running')) return false;
    return this.deps.autoAdmit ? snapshot.hasTag('waiting') && this.rows.length === 0 : true;
  }

  /** Rows placed `queued` (waiting for a later turn). */
  get queuedCount(): number {
    return this.rows.filter((r) => r.placement === 'queued').length;
  }

  enqueue(input: { messageId: QueuedMessage['messageId']; text: string; source: MessageSource }): QueuedMessage {
    const row: QueuedMessage = {
      id: this.#freshItemId(),
      messageId: input.messageId,
      placement: 'queued',
      source: input.source,
      text: input.text,
      preview: previewOf(input.text),
    };
    // Saved before it is accepted: a store failure refuses the message instead of losing it later.
    if (isKept(row))
      storeStep(this.sessionId, 'saving a queued message', () => this.#store.saveQueued(this.sessionId, toStored(row, this.#order++)));
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
    const queued = this.rows.find((r) => r.messageId === messageId);
    if (queued) return queued;
    for (const row of this.#claimed.values()) if (row.messageId === messageId) return row;
    return undefined;
  }

  /**
   * Removes a queued (unclaimed) row and reports its discard. `keepStored`: the row stays in the
   * store (the process-local inbox closes; the row comes back when the session is opened again).
   */
  remove(itemId: InboxItemId, reason = 'removed', keepStored = false): boolean {
    const index = this.rows.findIndex((r) => r.id === itemId);
    if (index < 0) return false;
    const row = this.rows[index]!;
    // The store first: if it fails the row stays queued and the caller gets the error.
    if (!keepStored && isKept(row))
      storeStep(this.sessionId, 'removing a queued message', () => this.#store.deleteQueued(this.sessionId, row.id));
    this.rows.splice(index, 1);
    this.deps.observer.discarded(this.sessionId, row, reason);
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
    if (isKept(row)) storeStep(this.sessionId, 'changing a queued message', () => this.#store.updateQueued(this.sessionId, itemId, change));
    this.rows[index] = next;
    this.deps.publish(this.sessionId);
  }

  /** Claims the next row (steering rows first); null when none is queued or the loop takes none now. */
  claimNext(): ClaimHandle | null {
    const row = this.rows.find((r) => r.placement === 'steering') ?? this.rows[0];
    return row ? this.#claim(row) : null;
  }

  #claim(row: QueuedMessage): ClaimHandle | null {
    // The machine's tag says whether it takes a claim now (the row is not claimed yet: it is in `rows`).
    if (this.#disposed || !this.actor.getSnapshot().hasTag('claimable')) return null;
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

  /**
   * Appends the row's user message. If the store refuses it, the claim ends as an explicit discard
   * (`store-error`; an ordinary row stays stored and comes back on the next start) and the error is
   * reported and thrown: the loop goes on with the next row.
   */
  #commit(itemId: InboxItemId): UserMessageEvent {
    const row = this.#settle(itemId);
    let event: UserMessageEvent;
    try {
      event = this.deps.sessions.append(this.sessionId, {
        type: 'user/message',
        messageId: row.messageId,
        text: row.text,
        source: row.source,
      }) as UserMessageEvent;
    } catch (cause) {
      const durable = durableMessage(this.session, row.messageId);
      if (!durable) {
        const error = new HostStoreError(this.sessionId, `admission of message ${row.messageId}`, cause);
        this.#discarded(row, 'store-error', true);
        this.deps.report(error);
        throw error;
      }
      // Stored, and a listener threw afterwards: the message is durable, so the commit stands.
      this.deps.report(cause instanceof Error ? cause : new Error(String(cause)));
      event = durable;
    }
    // After the append: a stop (or a store error) here leaves a stored row the next start drops as durable.
    if (isKept(row)) this.#tolerate("deleting an admitted message's queue row", () => this.#store.deleteQueued(this.sessionId, row.id));
    // Starts a turn once every claim has settled (the machine decides; a running turn takes it as steering).
    const wasRunning = this.actor.getSnapshot().hasTag('running');
    this.actor.send({ type: 'admission.committed', itemId, message: event });
    // A turn that started here already published its view with `turn/started`; else publish the settled claim.
    if (wasRunning || !this.actor.getSnapshot().hasTag('running')) this.deps.publish(this.sessionId);
    this.deps.onIdle();
    return event;
  }

  /** Commits without throwing (auto-admission, steering): a failure is already discarded and reported. */
  #commitQuietly(claim: ClaimHandle): void {
    try {
      claim.commit();
    } catch (error) {
      if (!(error instanceof HostStoreError)) this.deps.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #discard(itemId: InboxItemId, reason: string, keepStored = false): void {
    this.#discarded(this.#settle(itemId), reason, keepStored);
  }

  /** A settled claim's discard: the store row (unless kept), the machine, observers, the loop. */
  #discarded(row: QueuedMessage, reason: string, keepStored: boolean): void {
    const itemId = row.id;
    if (!keepStored && isKept(row))
      this.#tolerate('deleting a discarded queue row', () => this.#store.deleteQueued(this.sessionId, row.id));
    this.deps.observer.discarded(this.sessionId, row, reason);
    this.actor.send({ type: 'admission.discarded', itemId, reason });
    this.deps.publish(this.sessionId);
    this.#schedule();
    this.deps.onIdle();
  }

  /** Claims and commits every steering row into the running turn (called at each model step). */
  admitSteering(): void {
    for (const row of this.rows.filter((r) => r.placement === 'steering')) {
      const claim = this.#claim(row);
      if (claim) this.#commitQuietly(claim);
    }
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
    if (this.#disposed || !this.actor.getSnapshot().hasTag('waiting') || this.rows.length === 0) {
      this.deps.onIdle();
      return;
    }
    const order = [...this.rows.filter((r) => r.placement === 'steering'), ...this.rows.filter((r) => r.placement === 'queued')];
    const claims = order.map((row) => this.#claim(row)).filter((c): c is ClaimHandle => c !== null);
    // Admission is asynchronous: clients see the claim (queued → claiming) before durability.
    queueMicrotask(() => {
      for (const claim of claims) if (this.#claimed.has(claim.itemId)) this.#commitQuietly(claim);
    });
  }

  /** A call id not used in this session's log (deterministic minters restart with the process). */
  #freshCallId() {
    return freshId('call', this.deps.ids.call, (callId) => this.deps.sessions.store.findCall(this.sessionId, callId).call !== undefined);
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
    for (const row of [...this.rows]) {
      try {
        this.remove(row.id, reason, keepStored);
      } catch (error) {
        // The store kept the row: it still leaves the live queue (and comes back on the next start).
        this.deps.report(error as Error);
        this.remove(row.id, reason, true);
      }
    }
    for (const itemId of [...this.#claimed.keys()]) this.#discard(itemId, reason, keepStored);
    if (!this.actor.getSnapshot().hasTag('running')) return Promise.resolve();
    this.actor.send({ type: 'turn.cancel', reason });
    return waitFor(this.actor, (snapshot) => !snapshot.hasTag('running'), { timeout: Infinity }).then(() => undefined);
  }

  /** Closes the live inbox; stored ordinary rows stay for the next time the session is opened. */
  async dispose(reason: string): Promise<void> {
    this.#disposed = true;
    await this.cancel(reason, true);
    this.#loop.stop();
    this.actor.stop();
  }
}
