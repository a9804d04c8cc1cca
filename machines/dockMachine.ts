import { and, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { DismissTaskSurfaceResult, GetActiveTaskSurfaceResult, MessageId, SubmitTaskSurfaceResult } from '../protocol/index.js';
import { mintTaskSurfaceDismissalId, mintTaskSurfaceSubmissionId } from '../protocol/mint.js';
import {
  retryDelay,
  type DockActive,
  type DockRejectionReason,
  type DockMachineInput,
  type DockMachineContext,
  type DockMachineEvent,
  type DockMachineEmitted,
  type GetActiveInput,
  type SubmitInput,
  type DismissInput,
} from './dockTypes.js';

export * from './dockTypes.js';

/*
 * The Dock's UI state. `hidden` (no active surface); inside `open`: `loading` (getActive),
 * `retrying` (getActive failed: back-off, then again), `editing`, `submitting`, `pending` (queued or
 * claiming), `rejected` (reason shown, values kept, still editable), `dismissing`. Tags say what the
 * element needs: `locked` (every control disabled) and `busy` (a request is out). Collapse is local
 * context and sends nothing. The Host is reached only through the three actors, which the Dock
 * provides (`dockMachine.provide({ actors })`). While pending it follows the phase the pushed view
 * carries for its own submission (queued → claiming) without asking; while editable, a view that
 * carries a submission (from another tab) makes it re-read getActive and lock. The Dock never guesses: when
 * the view no longer carries its submission, or a submit or dismiss lost its answer, it re-reads
 * getActive (and keeps re-reading, with back-off, until it knows) before anything becomes editable.
 */
const unprovided = (name: string) => () => Promise.reject(new Error(`dockMachine: provide the ${name} actor`));

/** The open surface; every state under `open` has one (recordActive sets it on entry). */
function openSurface(context: DockMachineContext): DockActive {
  if (!context.active) throw new Error('dockMachine: no open surface');
  return context.active;
}

type Loaded = Extract<GetActiveTaskSurfaceResult, { active: true }>;
const loaded = (output: GetActiveTaskSurfaceResult): Loaded | null => (output.active ? output : null);

/** What the Dock knows of a surface before it has read it: the start, and every newly recorded one. */
const noSurfaceYet = {
  model: null,
  phase: null,
  submissionId: null,
  dismissalId: null,
  rejection: null,
  collapsed: false,
  failures: 0,
  deferredView: null,
} satisfies Partial<DockMachineContext>;

export const dockMachine = setup({
  types: {
    input: {} as DockMachineInput,
    context: {} as DockMachineContext,
    events: {} as DockMachineEvent,
    emitted: {} as DockMachineEmitted,
  },
  actors: {
    getActive: fromPromise<GetActiveTaskSurfaceResult, GetActiveInput>(unprovided('getActive')),
    submit: fromPromise<SubmitTaskSurfaceResult, SubmitInput>(unprovided('submit')),
    dismiss: fromPromise<DismissTaskSurfaceResult, DismissInput>(unprovided('dismiss')),
  },
  delays: {
    retryDelay: ({ context }) => retryDelay(context.failures),
  },
  guards: {
    isSameSurface: ({ context, event }) => {
      assertEvent(event, 'projection.changed');
      return (event.active?.surfaceId ?? null) === (context.active?.surfaceId ?? null);
    },
    hasActive: ({ event }) => {
      assertEvent(event, 'projection.changed');
      return event.active !== null;
    },
    /** The view carries a pending submission for the open surface (another tab's, say). */
    hasPendingInView: ({ event }) => {
      assertEvent(event, 'projection.changed');
      return event.pending !== null;
    },
    /** The view still carries this Dock's own submission (queued or claiming). */
    isOwnSubmissionInView: ({ context, event }) => {
      assertEvent(event, 'projection.changed');
      return context.submissionId !== null && event.pending?.submissionId === context.submissionId;
    },
    isClosed: (_, output: GetActiveTaskSurfaceResult) => !output.active,
    hasPending: (_, output: GetActiveTaskSurfaceResult) => loaded(output)?.pending != null,
    /** The Host holds the very submission whose answer was lost: it was accepted after all. */
    isOwnLostSubmission: ({ context }, output: GetActiveTaskSurfaceResult) =>
      context.rejection?.action === 'submit' &&
      context.rejection.reason === 'transport' &&
      context.submissionId !== null &&
      loaded(output)?.pending?.submissionId === context.submissionId,
    /** A submit or dismiss lost its answer and the Host holds nothing: it really was not sent. */
    wasLostRequest: ({ context }) => context.rejection?.reason === 'transport',
    isAccepted: (_, output: SubmitTaskSurfaceResult) => output.accepted,
    isDismissed: (_, output: DismissTaskSurfaceResult) => output.dismissed,
    isSubmissionPending: (_, output: SubmitTaskSurfaceResult | DismissTaskSurfaceResult) =>
      'reason' in output && output.reason === 'submission-pending',
  },
  actions: {
    recordActive: assign(({ event }) => {
      assertEvent(event, 'projection.changed');
      return { ...noSurfaceYet, active: event.active, viewPending: event.pending };
    }),
    recordViewPending: assign(({ event }) => {
      assertEvent(event, 'projection.changed');
      return { viewPending: event.pending };
    }),
    followViewPhase: assign(({ context, event }) => {
      assertEvent(event, 'projection.changed');
      return { phase: event.pending?.phase ?? context.phase };
    }),
    emitClosed: enqueueActions(({ context, enqueue }) => {
      if (context.active) enqueue.emit({ type: 'closed', surfaceId: context.active.surfaceId });
    }),
    forgetSurface: assign({
      active: null,
      model: null,
      phase: null,
      submissionId: null,
      dismissalId: null,
      rejection: null,
      failures: 0,
      viewPending: null,
      deferredView: null,
    }),
    mintSubmission: assign(({ context }) => ({ submissionId: context.submissionId ?? mintTaskSurfaceSubmissionId(), rejection: null })),
    mintDismissal: assign(({ context }) => ({ dismissalId: context.dismissalId ?? mintTaskSurfaceDismissalId(), rejection: null })),
    collapse: assign({ collapsed: true }),
    expand: assign({ collapsed: false }),
    countFailure: assign(({ context }) => ({ failures: context.failures + 1 })),
    deferView: assign(({ event }) => {
      assertEvent(event, 'projection.changed');
      return { deferredView: event };
    }),
    /** The view deferred while a request was out, handled now as if it had just arrived. */
    applyDeferredView: enqueueActions(({ context, enqueue }) => {
      if (!context.deferredView) return;
      enqueue.raise(context.deferredView);
      enqueue.assign({ deferredView: null });
    }),
    recordPending: assign((_, output: GetActiveTaskSurfaceResult) => {
      const out = loaded(output);
      return out?.pending
        ? { model: out.model, phase: out.pending.phase, submissionId: out.pending.submissionId, rejection: null, failures: 0 }
        : {};
    }),
    recordEditable: assign(({ context }, output: GetActiveTaskSurfaceResult) => ({
      model: loaded(output)?.model ?? context.model,
      phase: null,
      failures: 0,
      // A discarded submission (pending: null after queued/claiming) frees its id: the next attempt mints a new one.
      submissionId: context.phase === null ? context.submissionId : null,
    })),
    /** Accepted: the phase of the newest view if it already carries the submission (a claim may come first). */
    recordQueued: assign(({ context }) => ({
      phase:
        context.viewPending !== null && context.viewPending.submissionId === context.submissionId
          ? context.viewPending.phase
          : ('queued' as const),
      rejection: null,
    })),
    emitSubmitted: enqueueActions(({ context, enqueue }, messageId: MessageId | null) => {
      if (context.active && context.submissionId && messageId) {
        enqueue.emit({ type: 'submitted', surfaceId: context.active.surfaceId, submissionId: context.submissionId, messageId });
      }
    }),
    emitRejected: enqueueActions(({ context, enqueue }) => {
      if (context.active && context.rejection) {
        enqueue.emit({
          type: 'rejected',
          surfaceId: context.active.surfaceId,
          action: context.rejection.action,
          reason: context.rejection.reason,
        });
      }
    }),
    emitDismissed: enqueueActions(({ context, enqueue }) => {
      if (context.active) enqueue.emit({ type: 'dismissed', surfaceId: context.active.surfaceId });
    }),
    refuseSubmission: assign((_, reason: DockRejectionReason) => ({
      submissionId: null,
      rejection: { action: 'submit' as const, reason },
    })),
    refuseDismissal: assign((_, reason: DockRejectionReason) => ({ dismissalId: null, rejection: { action: 'dismiss' as const, reason } })),
    forgetDismissal: assign({ dismissalId: null }),
    loseSubmitAnswer: assign({ rejection: { action: 'submit', reason: 'transport' } }),
    loseDismissAnswer: assign({ rejection: { action: 'dismiss', reason: 'transport' } }),
  },
}).createMachine({
  id: 'dock',
  context: ({ input }) => ({ ...noSurfaceYet, sessionId: input.sessionId, active: null, viewPending: null }),
  initial: 'hidden',
  on: {
    'user.collapse': { actions: 'collapse' },
    'user.expand': { actions: 'expand' },
  },
  states: {
    hidden: {
      on: { 'projection.changed': { guard: 'hasActive', target: 'open', actions: 'recordActive' } },
    },
    open: {
      initial: 'loading',
      // Shared by every state below unless a state handles the view itself.
      on: {
        'projection.changed': [
          { guard: 'isSameSurface', actions: 'recordViewPending' },
          { guard: 'hasActive', target: '.loading', reenter: true, actions: 'recordActive' },
          { target: 'hidden', actions: ['emitClosed', 'forgetSurface'] },
        ],
      },
      states: {
        loading: {
          tags: ['locked', 'busy'],
          invoke: {
            src: 'getActive',
            input: ({ context }) => ({ sessionId: context.sessionId, surfaceId: openSurface(context).surfaceId }),
            onDone: [
              {
                guard: { type: 'isClosed', params: ({ event }) => event.output },
                target: '#dock.hidden',
                actions: ['emitClosed', 'forgetSurface'],
              },
              {
                guard: { type: 'isOwnLostSubmission', params: ({ event }) => event.output },
                target: 'pending',
                actions: [
                  { type: 'recordPending', params: ({ event }) => event.output },
                  { type: 'emitSubmitted', params: ({ event }) => loaded(event.output)?.pending?.messageId ?? null },
                ],
              },
              {
                guard: { type: 'hasPending', params: ({ event }) => event.output },
                target: 'pending',
                actions: { type: 'recordPending', params: ({ event }) => event.output },
              },
              {
                guard: 'wasLostRequest',
                target: 'rejected',
                actions: [{ type: 'recordEditable', params: ({ event }) => event.output }, 'emitRejected'],
              },
              { target: 'editing', actions: { type: 'recordEditable', params: ({ event }) => event.output } },
            ],
            onError: { target: 'retrying', actions: 'countFailure' },
          },
        },
        retrying: {
          tags: ['locked'],
          after: { retryDelay: { target: 'loading' } },
          // A view of the same surface means the connection is back: try at once.
          on: { 'projection.changed': { guard: 'isSameSurface', target: 'loading', actions: 'recordViewPending' } },
        },
        editing: {
          on: {
            'user.submit': { target: 'submitting', actions: 'mintSubmission' },
            'user.dismiss': { target: 'dismissing', actions: 'mintDismissal' },
            'projection.changed': { guard: and(['isSameSurface', 'hasPendingInView']), target: 'loading', actions: 'recordViewPending' },
          },
        },
        rejected: {
          on: {
            'user.submit': { target: 'submitting', actions: 'mintSubmission' },
            'user.dismiss': { target: 'dismissing', actions: 'mintDismissal' },
            'projection.changed': { guard: and(['isSameSurface', 'hasPendingInView']), target: 'loading', actions: 'recordViewPending' },
          },
        },
        submitting: {
          tags: ['locked', 'busy'],
          // The surface may close (its submission claimed) before the answer arrives, in-process above
          // all: that view waits for the answer, so `submitted` comes before `closed`.
          on: {
            'projection.changed': [{ guard: 'isSameSurface', actions: 'recordViewPending' }, { actions: 'deferView' }],
          },
          // A second click while the request is out sends nothing: the same attempt is in flight.
          invoke: {
            src: 'submit',
            input: ({ context, event }) => {
              assertEvent(event, 'user.submit');
              const { surfaceId } = openSurface(context);
              const submissionId = context.submissionId ?? mintTaskSurfaceSubmissionId();
              return {
                sessionId: context.sessionId,
                surfaceId,
                submissionId,
                values: event.values,
                ...(event.note === undefined ? {} : { note: event.note }),
                ...(event.locale === undefined ? {} : { locale: event.locale }),
              };
            },
            onDone: [
              {
                guard: { type: 'isAccepted', params: ({ event }) => event.output },
                target: 'pending',
                actions: [
                  'recordQueued',
                  { type: 'emitSubmitted', params: ({ event }) => (event.output.accepted ? event.output.messageId : null) },
                  'applyDeferredView',
                ],
              },
              {
                guard: { type: 'isSubmissionPending', params: ({ event }) => event.output },
                target: 'loading',
                actions: 'applyDeferredView',
              },
              {
                target: 'rejected',
                actions: [
                  { type: 'refuseSubmission', params: ({ event }) => (event.output.accepted ? 'transport' : event.output.reason) },
                  'emitRejected',
                  'applyDeferredView',
                ],
              },
            ],
            // The Host may have accepted it: stay locked and ask before anything is editable again.
            onError: { target: 'loading', actions: ['loseSubmitAnswer', 'applyDeferredView'] },
          },
        },
        pending: {
          tags: ['locked'],
          on: {
            'projection.changed': [
              { guard: and(['isSameSurface', 'isOwnSubmissionInView']), actions: ['recordViewPending', 'followViewPhase'] },
              { guard: 'isSameSurface', target: 'loading', actions: 'recordViewPending' },
            ],
          },
        },
        dismissing: {
          tags: ['locked', 'busy'],
          // As for a submit: a view that closes the surface waits for the answer (`dismissed` first).
          on: {
            'projection.changed': [{ guard: 'isSameSurface', actions: 'recordViewPending' }, { actions: 'deferView' }],
          },
          invoke: {
            src: 'dismiss',
            input: ({ context }) => {
              const { surfaceId } = openSurface(context);
              return { sessionId: context.sessionId, surfaceId, dismissalId: context.dismissalId ?? mintTaskSurfaceDismissalId() };
            },
            onDone: [
              {
                guard: { type: 'isDismissed', params: ({ event }) => event.output },
                target: '#dock.hidden',
                actions: ['emitDismissed', 'emitClosed', 'applyDeferredView', 'forgetSurface'],
              },
              {
                guard: { type: 'isSubmissionPending', params: ({ event }) => event.output },
                target: 'loading',
                actions: ['forgetDismissal', 'applyDeferredView'],
              },
              {
                target: 'rejected',
                actions: [
                  { type: 'refuseDismissal', params: ({ event }) => (event.output.dismissed ? 'transport' : event.output.reason) },
                  'emitRejected',
                  'applyDeferredView',
                ],
              },
            ],
            onError: { target: 'loading', actions: ['loseDismissAnswer', 'applyDeferredView'] },
          },
        },
      },
    },
  },
});
