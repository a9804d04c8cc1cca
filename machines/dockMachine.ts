import { and, assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import type {
  CallId, DismissTaskSurfaceResult, GetActiveTaskSurfaceResult, MessageId, SessionId,
  SubmitTaskSurfaceRejection, SubmitTaskSurfaceResult, TaskSurfaceDismissalId, TaskSurfaceId,
  TaskSurfaceModelV1, TaskSurfaceSubmissionId, TaskSurfaceSubmissionPhase, TaskSurfaceValues,
} from '../protocol/index.js';
import { mintTaskSurfaceDismissalId, mintTaskSurfaceSubmissionId } from '../protocol/ids.js';

/*
 * The Dock's UI state. `hidden` (no active surface), `loading` (getActive), `editing`, `submitting`,
 * `pending` (queued or claiming: every control disabled), `rejected` (reason shown, values kept,
 * still editable), `dismissing`. Collapse is local context and sends nothing. The Host is reached
 * only through the three actors, which the Dock provides (`dockMachine.provide({ actors })`).
 * The Dock never guesses: when the queue row of its submission disappears it re-reads getActive.
 */

export interface DockActive { callId: CallId; surfaceId: TaskSurfaceId }
export type DockRejectionReason = SubmitTaskSurfaceRejection | 'transport';

export interface DockMachineInput { sessionId: SessionId }

export interface DockMachineContext {
  sessionId: SessionId;
  active: DockActive | null;
  model: TaskSurfaceModelV1 | null;
  phase: TaskSurfaceSubmissionPhase | null;
  /** The current submission attempt's id: reused by a double click and by a retry after a transport error. */
  submissionId: TaskSurfaceSubmissionId | null;
  /** Reused by a dismiss retry after a transport error. */
  dismissalId: TaskSurfaceDismissalId | null;
  rejection: { action: 'submit' | 'dismiss' | 'load'; reason: DockRejectionReason } | null;
  collapsed: boolean;
}

export type DockMachineEvent =
  | { type: 'projection.changed'; active: DockActive | null; queuedSubmissionIds: readonly string[] }
  | { type: 'user.submit'; values: TaskSurfaceValues }
  | { type: 'user.dismiss' }
  | { type: 'user.collapse' }
  | { type: 'user.expand' };

export type DockMachineEmitted =
  | { type: 'submitted'; surfaceId: TaskSurfaceId; submissionId: TaskSurfaceSubmissionId; messageId: MessageId }
  | { type: 'rejected'; surfaceId: TaskSurfaceId; action: 'submit' | 'dismiss'; reason: DockRejectionReason }
  | { type: 'dismissed'; surfaceId: TaskSurfaceId }
  | { type: 'closed'; surfaceId: TaskSurfaceId };

export interface GetActiveInput { sessionId: SessionId; surfaceId: TaskSurfaceId }
export interface SubmitInput extends GetActiveInput { submissionId: TaskSurfaceSubmissionId; values: TaskSurfaceValues }
export interface DismissInput extends GetActiveInput { dismissalId: TaskSurfaceDismissalId }

const unprovided = (name: string) => () => Promise.reject(new Error(`dockMachine: provide the ${name} actor`));

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
  guards: {
    isSameSurface: ({ context, event }) => {
      assertEvent(event, 'projection.changed');
      return (event.active?.surfaceId ?? null) === (context.active?.surfaceId ?? null);
    },
    hasActive: ({ event }) => {
      assertEvent(event, 'projection.changed');
      return event.active !== null;
    },
    isQueueRowGone: ({ context, event }) => {
      assertEvent(event, 'projection.changed');
      return context.submissionId === null || !event.queuedSubmissionIds.includes(context.submissionId);
    },
  },
  actions: {
    recordActive: assign(({ event }) => {
      assertEvent(event, 'projection.changed');
      return { active: event.active, model: null, phase: null, submissionId: null, dismissalId: null, rejection: null, collapsed: false };
    }),
    emitClosed: emit(({ context }) => ({ type: 'closed' as const, surfaceId: context.active!.surfaceId })),
    forgetSurface: assign({ active: null, model: null, phase: null, submissionId: null, dismissalId: null, rejection: null }),
    mintSubmission: assign(({ context }) => ({ submissionId: context.submissionId ?? mintTaskSurfaceSubmissionId(), rejection: null })),
    mintDismissal: assign(({ context }) => ({ dismissalId: context.dismissalId ?? mintTaskSurfaceDismissalId(), rejection: null })),
  },
}).createMachine({
  id: 'dock',
  context: ({ input }) => ({
    sessionId: input.sessionId, active: null, model: null, phase: null, submissionId: null, dismissalId: null, rejection: null, collapsed: false,
  }),
  initial: 'hidden',
  on: {
    'projection.changed': [
      { guard: 'isSameSurface' },
      { guard: 'hasActive', target: '.loading', reenter: true, actions: 'recordActive' },
      { target: '.hidden', actions: ['emitClosed', 'forgetSurface'] },
    ],
    'user.collapse': { actions: assign({ collapsed: true }) },
    'user.expand': { actions: assign({ collapsed: false }) },
  },
  states: {
    hidden: {},
    loading: {
      invoke: {
        src: 'getActive',
        input: ({ context }) => ({ sessionId: context.sessionId, surfaceId: context.active!.surfaceId }),
        onDone: [
          { guard: ({ event }) => !event.output.active, target: 'hidden', actions: ['emitClosed', 'forgetSurface'] },
          {
            guard: ({ event }) => event.output.active && event.output.pending !== null,
            target: 'pending',
            actions: assign(({ event }) => {
              const out = event.output as Extract<GetActiveTaskSurfaceResult, { active: true }>;
              return { model: out.model, phase: out.pending!.phase, submissionId: out.pending!.submissionId, rejection: null };
            }),
          },
          {
            target: 'editing',
            // A discarded submission (pending: null) frees its id: the next attempt mints a new one.
            actions: assign(({ event, context }) => ({
              model: event.output.active ? event.output.model : context.model, phase: null,
              submissionId: context.phase === null ? context.submissionId : null,
            })),
          },
        ],
        onError: { target: 'hidden', actions: assign({ rejection: { action: 'load', reason: 'transport' } }) },
      },
    },
    editing: {
      on: {
        'user.submit': { target: 'submitting', actions: 'mintSubmission' },
        'user.dismiss': { target: 'dismissing', actions: 'mintDismissal' },
      },
    },
    rejected: {
      on: {
        'user.submit': { target: 'submitting', actions: 'mintSubmission' },
        'user.dismiss': { target: 'dismissing', actions: 'mintDismissal' },
      },
    },
    submitting: {
      // A second click while the request is out sends nothing: the same attempt is in flight.
      invoke: {
        src: 'submit',
        input: ({ context, event }) => {
          assertEvent(event, 'user.submit');
          return { sessionId: context.sessionId, surfaceId: context.active!.surfaceId, submissionId: context.submissionId!, values: event.values };
        },
        onDone: [
          {
            guard: ({ event }) => event.output.accepted,
            target: 'pending',
            actions: [
              assign({ phase: 'queued' }),
              emit(({ context, event }) => ({
                type: 'submitted' as const, surfaceId: context.active!.surfaceId, submissionId: context.submissionId!,
                messageId: (event.output as Extract<SubmitTaskSurfaceResult, { accepted: true }>).messageId,
              })),
            ],
          },
          { guard: ({ event }) => !event.output.accepted && event.output.reason === 'submission-pending', target: 'loading' },
          {
            target: 'rejected',
            actions: [
              assign(({ event }) => ({ submissionId: null, rejection: { action: 'submit' as const, reason: (event.output as { reason: SubmitTaskSurfaceRejection }).reason } })),
              emit(({ context }) => ({ type: 'rejected' as const, surfaceId: context.active!.surfaceId, action: 'submit' as const, reason: context.rejection!.reason })),
            ],
          },
        ],
        onError: {
          target: 'rejected',
          actions: [
            assign({ rejection: { action: 'submit', reason: 'transport' } }),
            emit(({ context }) => ({ type: 'rejected' as const, surfaceId: context.active!.surfaceId, action: 'submit' as const, reason: 'transport' as const })),
          ],
        },
      },
    },
    pending: {
      on: {
        'projection.changed': [
          { guard: and(['isSameSurface', 'isQueueRowGone']), target: 'loading' },
          { guard: 'isSameSurface' },
          { guard: 'hasActive', target: 'loading', actions: 'recordActive' },
          { target: 'hidden', actions: ['emitClosed', 'forgetSurface'] },
        ],
      },
    },
    dismissing: {
      invoke: {
        src: 'dismiss',
        input: ({ context }) => ({ sessionId: context.sessionId, surfaceId: context.active!.surfaceId, dismissalId: context.dismissalId! }),
        onDone: [
          {
            guard: ({ event }) => event.output.dismissed,
            target: 'hidden',
            actions: [emit(({ context }) => ({ type: 'dismissed' as const, surfaceId: context.active!.surfaceId })), 'emitClosed', 'forgetSurface'],
          },
          { guard: ({ event }) => !event.output.dismissed && event.output.reason === 'submission-pending', target: 'loading', actions: assign({ dismissalId: null }) },
          {
            target: 'rejected',
            actions: [
              assign(({ event }) => ({ dismissalId: null, rejection: { action: 'dismiss' as const, reason: (event.output as { reason: SubmitTaskSurfaceRejection }).reason } })),
              emit(({ context }) => ({ type: 'rejected' as const, surfaceId: context.active!.surfaceId, action: 'dismiss' as const, reason: context.rejection!.reason })),
            ],
          },
        ],
        onError: {
          target: 'rejected',
          actions: [
            assign({ rejection: { action: 'dismiss', reason: 'transport' } }),
            emit(({ context }) => ({ type: 'rejected' as const, surfaceId: context.active!.surfaceId, action: 'dismiss' as const, reason: 'transport' as const })),
          ],
        },
      },
    },
  },
});
