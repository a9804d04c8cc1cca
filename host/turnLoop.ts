import { assertEvent, assign, createActor, type Actor, type AnyActorRef } from 'xstate';
import { turnMachine, type TurnEndOutcome, type TurnEvent, type TurnRun } from '../machines/turnMachine.js';
import type { CallId, SessionId, TurnId } from '../protocol/index.js';
import { HostStoreError } from './errors.js';
import type { HostIds } from './ids.js';
import { liveTurnsOf } from './recovery.js';
import type { LoadedSession, Sessions } from './sessions.js';
import type { ToolRegistry } from './tools/registry.js';
import { createAgentTurn } from './turn.js';
import type { AgentDriver, InspectObserver, StepContext } from './types.js';

export interface TurnLoopDeps {
  sessionId: SessionId;
  sessions: Sessions;
  tools: ToolRegistry;
  ids: HostIds;
  driver: AgentDriver | undefined;
  beforeStep(ctx: StepContext): void;
  /** Claims and commits the session's steering rows into the running turn. */
  admitSteering(): void;
  mintCallId(): CallId;
  /** The running turn's reply as streamed so far (null: none). */
  onPartial(turnId: TurnId, text: string | null): void;
  onToolInput(turnId: TurnId, name: string, args: string | null): void;
  /** Sends an event to the session's turn actor (the driver's reports). */
  send(event: TurnEvent): void;
  report(error: Error): void;
  /** Settles when what the session wrote so far is durable (an asynchronous store); the driver waits for it. */
  whenDurable?(): Promise<void> | undefined;
}

/** The loop each turn actor serves (the machine below is shared by every session). */
const loops = new WeakMap<AnyActorRef, TurnLoop>();
function loopOf(self: AnyActorRef): TurnLoop {
  const loop = loops.get(self);
  if (!loop) throw new Error('a turn actor without its loop');
  return loop;
}

/**
 * `turnMachine` with the host's implementations, provided once for every session: xstate caches its
 * transitions per machine, so one machine per session would repeat that work and memory per session.
 */
const hostTurnMachine = turnMachine.provide({
  actions: {
    abortTurn: ({ event, self }) => {
      assertEvent(event, 'turn.cancel');
      loopOf(self).abort(event.reason);
    },
    beginTurn: assign(({ context, self }) => ({
      turn: { turnId: loopOf(self).mintTurnId(), input: context.admitted },
      admitted: [],
      turns: context.turns + 1,
    })),
    beginRecoveredTurn: assign(({ context, event, self }) => {
      assertEvent(event, 'turn.recovered');
      const turnId = loopOf(self).mintTurnId();
      const turn = event.rerunOf ? { turnId, input: event.input, rerunOf: event.rerunOf } : { turnId, input: event.input };
      return { turn, turns: context.turns + 1 };
    }),
    logTurnEnded: ({ context, event, self }) => loopOf(self).logTurnEnded(context.turn!.turnId, event),
  },
});

/**
 * The host's side of one session's `turnMachine`: the driver, started on the machine's `turn.started`
 * (no actor per turn), `abortTurn`, the `turn/ended` write as the effect of `turn.ended`, and the
 * host's turn id minter.
 */
export class TurnLoop {
  /** The running turn's end is being written (the machine leaves `turn` as the write's effect). */
  ending = false;
  #endStored = false;
  /** The running turn's abort controller (null between turns). */
  #running: { controller: AbortController } | null = null;

  constructor(private readonly deps: TurnLoopDeps) {}

  /** The session's turn actor, served by this loop (not started). */
  createActor(inspect: InspectObserver | undefined): Actor<typeof turnMachine> {
    const actor = createActor(hostTurnMachine, { input: { sessionId: this.deps.sessionId }, inspect });
    loops.set(actor, this);
    return actor;
  }

  mintTurnId(): TurnId {
    return this.deps.ids.turn();
  }

  /** `abortTurn`: aborts the running turn's driver; the turn still ends with its `turn.ended`. */
  abort(reason: string): void {
    this.#running?.controller.abort(new Error(reason));
  }

  /** Whether the last turn's `turn/ended` was stored (its append already published the idle view); resets. */
  takeEndStored(): boolean {
    const stored = this.#endStored;
    this.#endStored = false;
    return stored;
  }

  get #session(): LoadedSession {
    return this.deps.sessions.get(this.deps.sessionId);
  }

  /**
   * The session is still held by this process. Once it is unloaded (or lost to another process) its
   * turn writes nothing more and reports nothing: the driver is aborted, and whoever loads the session
   * next ends the turn as interrupted.
   */
  get #held(): boolean {
    return this.deps.sessions.isLoaded(this.deps.sessionId);
  }

  /** Aborts the running turn's driver (the machine is being stopped under it). */
  stop(): void {
    this.abort('stopped');
  }

  /**
   * Runs the turn the machine started (on its `turn.started`): logs `turn/started` (if the store refuses, the turn ends `failed`
   * at once and nothing more is written: the messages stay durable and the next start answers them),
   * runs the driver and sends `turn.ended` when it settles. Only the running turn's reports reach the
   * machine: a driver that outlives its turn can never end the next one.
   */
  start({ turnId, input, rerunOf }: TurnRun): void {
    const { sessionId, sessions } = this.deps;
    const live = liveTurnsOf(sessions);
    const controller = new AbortController();
    const running = { controller };
    this.#running = running;
    const sendBack = (event: TurnEvent) => {
      if (this.#running !== running) return;
      if (event.type === 'turn.ended') this.#running = null;
      this.deps.send(event);
    };
    try {
      sessions.append(sessionId, rerunOf ? { type: 'turn/started', turnId, rerunOf } : { type: 'turn/started', turnId });
    } catch (error) {
      this.deps.report(new HostStoreError(sessionId, `the start of turn ${turnId}`, error));
      sendBack({ type: 'turn.ended', outcome: 'failed', logged: false });
      return;
    }
    live.add(turnId);
    const turn = createAgentTurn({
      sessionId,
      turnId,
      input,
      signal: controller.signal,
      session: () => this.#session,
      append: (event) => {
        if (!this.#held) throw new Error(`session ${sessionId} was unloaded from this process; turn ${turnId} writes nothing more`);
        return sessions.append(sessionId, event);
      },
      tools: this.deps.tools,
      beforeStep: this.deps.beforeStep,
      admitSteering: this.deps.admitSteering,
      mintCallId: this.deps.mintCallId,
      mintMessageId: this.deps.ids.message,
      onConcluded: () => sendBack({ type: 'agent.concluded' }),
      onPartial: (text) => this.deps.onPartial(turnId, text),
      onToolInput: (name, args) => this.deps.onToolInput(turnId, name, args),
    });
    const end = (outcome: TurnEndOutcome, error?: string) => {
      turn.close();
      live.delete(turnId);
      sendBack(error === undefined ? { type: 'turn.ended', outcome, logged: true } : { type: 'turn.ended', outcome, error, logged: true });
    };
    const driver = this.deps.driver;
    if (!driver) {
      end('completed');
      return;
    }
    const outcomeOf = () => (controller.signal.aborted ? 'cancelled' : turn.concluded ? 'concluded' : 'completed');
    // The model sees only messages that are durable (an asynchronous store commits them a moment later).
    void Promise.resolve(this.deps.whenDurable?.())
      .then(() => driver.runTurn(turn))
      .then(
        () => end(outcomeOf()),
        (error: unknown) => end(controller.signal.aborted ? 'cancelled' : 'failed', String((error as Error)?.message ?? error)),
      )
      .catch((error: unknown) => this.deps.report(error instanceof Error ? error : new Error(String(error))));
  }

  /** The effect of `turn.ended`: `turn/ended` in the log (a store error is reported; the next start finds the turn interrupted). */
  logTurnEnded(turnId: TurnId, event: TurnEvent): void {
    assertEvent(event, 'turn.ended');
    if (!event.logged || !this.#held) return;
    const ended =
      event.error === undefined
        ? { type: 'turn/ended' as const, turnId, outcome: event.outcome }
        : { type: 'turn/ended' as const, turnId, outcome: event.outcome, error: event.error };
    this.ending = true;
    try {
      this.deps.sessions.append(this.deps.sessionId, ended);
      this.#endStored = true;
    } catch (error) {
      this.deps.report(new HostStoreError(this.deps.sessionId, `the end of turn ${turnId}`, error));
    } finally {
      this.ending = false;
    }
  }
}
