import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ActResult, JsonValue } from '../protocol/index.js';

/*
 * One action card. `proposed` is unstarted; `acting` runs the card's one shared operation
 * (the kind's reconcile, then its handler); `decided` holds a recorded phase; `dismissed` is Not now;
 * `replaced` is derived from the log (a newer card arrived while this one was unstarted).
 * The log is the authority: `log.*` events mirror what the fold saw, in any state.
 */

export interface CardOperationInput {
  verb: string;
  payload: JsonValue | undefined;
}

export interface CardMachineInput {
  callId: string;
  action: string;
  /** The card's phase as the log says it (`proposed`, `dismissed`, `replaced` or a recorded phase). */
  phase: string;
}

export interface CardMachineContext {
  callId: string;
  action: string;
  phase: string;
  /** The result of the last finished operation. */
  lastResult: ActResult | undefined;
}

export type CardMachineEvent =
  { type: 'user.acted'; verb: string; payload?: JsonValue } | { type: 'log.decided'; phase: string } | { type: 'log.replaced' };

const phaseTargets = [
  { target: 'dismissed', guard: 'isDismissed' },
  { target: 'replaced', guard: 'isReplaced' },
  { target: 'proposed', guard: 'isUnstarted' },
  { target: 'decided' },
] as const;

export const cardMachine = setup({
  types: {
    input: {} as CardMachineInput,
    context: {} as CardMachineContext,
    events: {} as CardMachineEvent,
  },
  actors: {
    /** The shared operation; the action-cards service provides the real one. */
    operation: fromPromise<ActResult, CardOperationInput>(async () => ({ status: 'refused', reason: 'unavailable' })),
  },
  guards: {
    isDismissed: ({ context }) => context.phase === 'dismissed',
    isReplaced: ({ context }) => context.phase === 'replaced',
    isUnstarted: ({ context }) => context.phase === 'proposed',
  },
  actions: {
    recordPhase: assign({
      phase: ({ event }) => {
        assertEvent(event, 'log.decided');
        return event.phase;
      },
    }),
    markReplaced: assign({ phase: 'replaced' }),
  },
}).createMachine({
  id: 'card',
  context: ({ input }) => ({ callId: input.callId, action: input.action, phase: input.phase, lastResult: undefined }),
  initial: 'settled',
  on: {
    'log.decided': { target: '.settled', actions: 'recordPhase' },
    'log.replaced': { target: '.settled', actions: 'markReplaced' },
  },
  states: {
    /** Routes to the state that matches the logged phase. */
    settled: { always: [...phaseTargets] },
    proposed: { on: { 'user.acted': 'acting' } },
    decided: { on: { 'user.acted': 'acting' } },
    dismissed: { on: { 'user.acted': 'acting' } },
    replaced: { on: { 'user.acted': 'acting' } },
    acting: {
      on: {
        // While the operation runs the log may move on; remember it without leaving `acting`.
        'log.decided': { actions: 'recordPhase' },
        'log.replaced': { actions: 'markReplaced' },
      },
      invoke: {
        src: 'operation',
        input: ({ event }) => {
          assertEvent(event, 'user.acted');
          return { verb: event.verb, payload: event.payload };
        },
        onDone: { target: 'settled', actions: assign({ lastResult: ({ event }) => event.output }) },
        onError: { target: 'settled', actions: assign({ lastResult: { status: 'unconfirmed' } as ActResult }) },
      },
    },
  },
});
