import { assertEvent, assign, emit, setup } from 'xstate';
import type { InboxItemId, SessionId, TurnId, UserMessageEvent } from '../protocol/index.js';

/*
 * A session's turn loop. Rows are claimed from the queue, each claim ends in exactly one generic
 * terminal outcome (`committed`: its user message is durable; `discarded`), and a turn starts as soon
 * as every claim settled and at least one was committed. Entering `turn` emits `turn.started` once
 * the snapshot says `running`: the host runs the turn's work then (it logs `turn/started` and runs
 * the agent driver, which reports back with `agent.concluded` and one `turn.ended`); `turn.cancel`
 * runs `abortTurn` (host-provided); `logTurnEnded` (host-provided) writes `turn/ended` as the
 * transition's effect. The driver is not an actor of its own: one long-lived actor per session,
 * nothing spawned per turn. The machine knows nothing of Task Surface: observers learn outcomes from
 * the emitted events. Tag `claimable`: a `queue.claimed` of a new row is taken now.
 */

export type TurnEndOutcome = 'completed' | 'concluded' | 'failed' | 'cancelled' | 'interrupted';

/** The turn the machine runs: its id, the messages it answers and the interrupted turn it reruns. */
export interface TurnRun {
  turnId: TurnId;
  input: UserMessageEvent[];
  rerunOf?: TurnId;
}

export interface TurnContext {
  sessionId: SessionId;
  /** Rows claimed and not yet committed or discarded. */
  claims: InboxItemId[];
  /** Messages committed since the last turn started: the next turn's input. */
  admitted: UserMessageEvent[];
  /** The running turn (null between turns). */
  turn: TurnRun | null;
  /** Turns started so far (the default turn id minter numbers them). */
  turns: number;
}

export type TurnEvent =
  /** The inbox dequeued a row for admission (placement `queued`, or `steering` into a running turn). */
  | { type: 'queue.claimed'; itemId: InboxItemId }
  /** The claimed row's user message is durable. */
  | { type: 'admission.committed'; itemId: InboxItemId; message: UserMessageEvent }
  /** The claimed row was rejected, cancelled or disposed before it became durable. */
  | { type: 'admission.discarded'; itemId: InboxItemId; reason: string }
  /** On load, the host answers durable messages no turn answered (an interrupted turn's rerun). */
  | { type: 'turn.recovered'; input: UserMessageEvent[]; rerunOf?: TurnId }
  /** Stop the running turn (a rewind, a closed session): the driver is aborted and ends `cancelled`. */
  | { type: 'turn.cancel'; reason: string }
  /** From the driver: a tool concluded the turn (a human checkpoint); the agent does not continue. */
  | { type: 'agent.concluded' }
  /** From the driver: the turn is over. `logged` false: its start was never stored (nothing to end). */
  | { type: 'turn.ended'; outcome: TurnEndOutcome; error?: string; logged: boolean };

export type TurnEmitted =
  | { type: 'claim.started'; itemId: InboxItemId }
  | { type: 'claim.committed'; itemId: InboxItemId }
  | { type: 'claim.discarded'; itemId: InboxItemId; reason: string }
  | { type: 'turn.started'; turnId: TurnId }
  | { type: 'turn.concluded'; turnId: TurnId }
  | { type: 'turn.finished'; turnId: TurnId; outcome: TurnEndOutcome };

/** Whether `itemId` is the only open claim. */
const isLastClaim = (context: TurnContext, itemId: InboxItemId) => context.claims.length === 1 && context.claims[0] === itemId;

const settleHandlers = {
  'admission.committed': { guard: 'isClaimed', actions: ['removeClaim', 'reportCommitted'] },
  'admission.discarded': { guard: 'isClaimed', actions: ['removeClaim', 'reportDiscarded'] },
} as const;

const endHandlers = [
  { guard: 'hasOpenClaims', target: '#turn.admitting', actions: ['logTurnEnded', 'reportEnded', 'endTurn'] },
  { target: '#turn.idle', actions: ['logTurnEnded', 'reportEnded', 'endTurn'] },
] as const;

/** A session's turn loop: idle, admitting, turn (working, concluded); see the file comment. */
export const turnMachine = setup({
  types: {
    input: {} as { sessionId: SessionId },
    context: {} as TurnContext,
    events: {} as TurnEvent,
    emitted: {} as TurnEmitted,
  },
  guards: {
    isClaimed: ({ context, event }) => {
      assertEvent(event, ['admission.committed', 'admission.discarded']);
      return context.claims.includes(event.itemId);
    },
    isUnclaimed: ({ context, event }) => {
      assertEvent(event, 'queue.claimed');
      return !context.claims.includes(event.itemId);
    },
    /** The event settles the last open claim (and at least one message was admitted or is being committed). */
    settlesLastClaimWithInput: ({ context, event }) => {
      assertEvent(event, ['admission.committed', 'admission.discarded']);
      return isLastClaim(context, event.itemId) && (event.type === 'admission.committed' || context.admitted.length > 0);
    },
    /** The event settles the last open claim and nothing was admitted. */
    settlesLastClaimWithoutInput: ({ context, event }) => {
      assertEvent(event, 'admission.discarded');
      return isLastClaim(context, event.itemId) && context.admitted.length === 0;
    },
    hasOpenClaims: ({ context }) => context.claims.length > 0,
  },
  actions: {
    addClaim: assign({
      claims: ({ context, event }) => {
        assertEvent(event, 'queue.claimed');
        return [...context.claims, event.itemId];
      },
    }),
    removeClaim: assign({
      claims: ({ context, event }) => {
        assertEvent(event, ['admission.committed', 'admission.discarded']);
        return context.claims.filter((id) => id !== event.itemId);
      },
    }),
    addAdmitted: assign({
      admitted: ({ context, event }) => {
        assertEvent(event, 'admission.committed');
        return [...context.admitted, event.message];
      },
    }),
    /** Takes the admitted messages as the new turn's input. The host provides its own turn id minter. */
    beginTurn: assign(({ context }) => ({
      turn: { turnId: `turn-${context.turns + 1}` as TurnId, input: context.admitted },
      admitted: [],
      turns: context.turns + 1,
    })),
    beginRecoveredTurn: assign(({ context, event }) => {
      assertEvent(event, 'turn.recovered');
      const turnId = `turn-${context.turns + 1}` as TurnId;
      return {
        turn: event.rerunOf ? { turnId, input: event.input, rerunOf: event.rerunOf } : { turnId, input: event.input },
        turns: context.turns + 1,
      };
    }),
    /** The store write of `turn/ended` (host-provided; it must not throw). */
    logTurnEnded: () => undefined,
    endTurn: assign({ turn: null }),
    /** Aborts the running turn's work (host-provided); the work still ends with `turn.ended`. */
    abortTurn: () => undefined,
    reportClaim: emit(({ event }) => {
      assertEvent(event, 'queue.claimed');
      return { type: 'claim.started' as const, itemId: event.itemId };
    }),
    reportCommitted: emit(({ event }) => {
      assertEvent(event, 'admission.committed');
      return { type: 'claim.committed' as const, itemId: event.itemId };
    }),
    reportDiscarded: emit(({ event }) => {
      assertEvent(event, 'admission.discarded');
      return { type: 'claim.discarded' as const, itemId: event.itemId, reason: event.reason };
    }),
    reportStarted: emit(({ context }) => ({ type: 'turn.started' as const, turnId: context.turn!.turnId })),
    reportConcluded: emit(({ context }) => ({ type: 'turn.concluded' as const, turnId: context.turn!.turnId })),
    reportEnded: emit(({ context, event }) => {
      assertEvent(event, 'turn.ended');
      return { type: 'turn.finished' as const, turnId: context.turn!.turnId, outcome: event.outcome };
    }),
  },
}).createMachine({
  id: 'turn',
  context: ({ input }) => ({ sessionId: input.sessionId, claims: [], admitted: [], turn: null, turns: 0 }),
  initial: 'idle',
  states: {
    idle: {
      tags: ['waiting', 'claimable'],
      on: {
        'queue.claimed': { target: 'admitting', actions: ['addClaim', 'reportClaim'] },
        'turn.recovered': { target: 'turn', actions: 'beginRecoveredTurn' },
      },
    },
    admitting: {
      tags: ['admitting', 'claimable'],
      // When the last open claim settles: a turn starts if anything was committed, else back to idle.
      // (Decided on the settling event itself rather than by eventless transitions: one step, not two.)
      on: {
        'queue.claimed': { guard: 'isUnclaimed', actions: ['addClaim', 'reportClaim'] },
        'admission.committed': [
          {
            guard: 'settlesLastClaimWithInput',
            target: 'turn',
            actions: ['removeClaim', 'addAdmitted', 'reportCommitted', 'beginTurn'],
          },
          { guard: 'isClaimed', actions: ['removeClaim', 'addAdmitted', 'reportCommitted'] },
        ],
        'admission.discarded': [
          { guard: 'settlesLastClaimWithInput', target: 'turn', actions: ['removeClaim', 'reportDiscarded', 'beginTurn'] },
          { guard: 'settlesLastClaimWithoutInput', target: 'idle', actions: ['removeClaim', 'reportDiscarded'] },
          settleHandlers['admission.discarded'],
        ],
      },
    },
    turn: {
      tags: 'running',
      // The host starts the turn's work on `turn.started` (emitted after the snapshot is committed).
      entry: 'reportStarted',
      on: {
        'turn.cancel': { actions: 'abortTurn' },
        'turn.ended': endHandlers,
      },
      initial: 'working',
      states: {
        working: {
          tags: 'claimable',
          // Rows claimed while a turn works steer into it: their messages join the running turn's log.
          on: {
            'queue.claimed': { guard: 'isUnclaimed', actions: ['addClaim', 'reportClaim'] },
            ...settleHandlers,
            'agent.concluded': { target: 'concluded', actions: 'reportConcluded' },
          },
        },
        concluded: {
          // Past a human checkpoint nothing more is claimed into this turn; late outcomes still land.
          tags: 'concluded',
          on: settleHandlers,
        },
      },
    },
  },
});
