import { assertEvent, assign, emit, setup } from 'xstate';
import type { InboxItemId, SessionId, TurnId } from '../protocol/index.js';

/*
 * A session's inbox and turn loop. Rows are claimed from the queue, each claim ends in exactly one
 * generic terminal outcome (`committed`: its user message is durable; `discarded`), and a turn runs
 * once at least one claimed row was committed. The machine knows nothing of Task Surface: observers
 * learn outcomes from the emitted `claim.*` events.
 */

export type TurnEndOutcome = 'completed' | 'concluded' | 'failed' | 'cancelled' | 'interrupted';

export interface TurnContext {
  sessionId: SessionId;
  /** Rows claimed and not yet committed or discarded. */
  claims: InboxItemId[];
  /** Rows committed since the last turn started: the next turn's input. */
  admitted: number;
  turnId: TurnId | null;
}

export type TurnEvent =
  /** The inbox dequeued a row for admission (placement `queued`, or `steering` into a running turn). */
  | { type: 'queue.claimed'; itemId: InboxItemId }
  /** The claimed row's user message is durable. */
  | { type: 'admission.committed'; itemId: InboxItemId }
  /** The claimed row was rejected, cancelled or disposed before it became durable. */
  | { type: 'admission.discarded'; itemId: InboxItemId; reason: string }
  /** The host started a turn for the admitted rows. */
  | { type: 'turn.started'; turnId: TurnId }
  /** On load, the host answers durable messages no turn answered (an interrupted turn's rerun). */
  | { type: 'turn.recovered'; turnId: TurnId }
  /** A tool concluded the turn (a human checkpoint): the agent does not continue. */
  | { type: 'agent.concluded' }
  | { type: 'turn.ended'; outcome: TurnEndOutcome };

export type TurnEmitted =
  | { type: 'claim.started'; itemId: InboxItemId }
  | { type: 'claim.committed'; itemId: InboxItemId }
  | { type: 'claim.discarded'; itemId: InboxItemId; reason: string };

const claimHandlers = {
  'queue.claimed': { guard: 'isUnclaimed', actions: ['addClaim', 'reportClaim'] },
  'admission.committed': { guard: 'isClaimed', actions: ['removeClaim', 'reportCommitted'] },
  'admission.discarded': { guard: 'isClaimed', actions: ['removeClaim', 'reportDiscarded'] },
} as const;

/** A session's inbox and turn loop: idle, admitting, running, concluded (see the file comment). */
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
    canStartTurn: ({ context }) => context.claims.length === 0 && context.admitted > 0,
    hasSettledWithoutInput: ({ context }) => context.claims.length === 0 && context.admitted === 0,
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
    countAdmitted: assign({ admitted: ({ context }) => context.admitted + 1 }),
    startTurn: assign(({ event }) => {
      assertEvent(event, ['turn.started', 'turn.recovered']);
      return { turnId: event.turnId, admitted: 0 };
    }),
    endTurn: assign({ turnId: null }),
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
  },
}).createMachine({
  id: 'turn',
  context: ({ input }) => ({ sessionId: input.sessionId, claims: [], admitted: 0, turnId: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'queue.claimed': { target: 'admitting', actions: ['addClaim', 'reportClaim'] },
        'turn.recovered': { target: 'running', actions: 'startTurn' },
      },
    },
    admitting: {
      always: { guard: 'hasSettledWithoutInput', target: 'idle' },
      on: {
        'queue.claimed': claimHandlers['queue.claimed'],
        'admission.committed': { guard: 'isClaimed', actions: ['removeClaim', 'countAdmitted', 'reportCommitted'] },
        'admission.discarded': claimHandlers['admission.discarded'],
        'turn.started': { guard: 'canStartTurn', target: 'running', actions: 'startTurn' },
      },
    },
    running: {
      // Rows claimed while a turn runs steer into it: their messages join the running turn's log.
      on: {
        ...claimHandlers,
        'agent.concluded': 'concluded',
        'turn.ended': [
          { guard: 'hasOpenClaims', target: 'admitting', actions: 'endTurn' },
          { target: 'idle', actions: 'endTurn' },
        ],
      },
    },
    concluded: {
      // Past a human checkpoint nothing more is claimed into this turn; late outcomes still land.
      on: {
        'admission.committed': claimHandlers['admission.committed'],
        'admission.discarded': claimHandlers['admission.discarded'],
        'turn.ended': [
          { guard: 'hasOpenClaims', target: 'admitting', actions: 'endTurn' },
          { target: 'idle', actions: 'endTurn' },
        ],
      },
    },
  },
});
