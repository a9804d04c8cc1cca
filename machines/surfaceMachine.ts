import { assertEvent, assign, setup } from 'xstate';
import type { CallId, MessageId, TaskSurfaceId, TaskSurfaceSubmissionId } from '../protocol/index.js';

/*
 * One Task Surface occurrence. `open` and the `closed.*` states are durable: the host reaches them by
 * folding log events (`log.*`) through `transition()`. `queued` and `claiming` are process-local
 * coordination of one accepted submission and vanish on restart. `submission.accepted` may name its
 * occurrence (`callId`, `surfaceId`): an actor that holds no pending record then takes the submission
 * of another occurrence too (and follows that one from then on), so the host keeps one long-lived
 * actor per session instead of creating one per submission.
 */

export interface SurfaceInput {
  callId: CallId;
  surfaceId: TaskSurfaceId;
}

export interface SurfacePending {
  submissionId: TaskSurfaceSubmissionId;
  messageId: MessageId;
}

export interface SurfaceContext extends SurfaceInput {
  pending: SurfacePending | null;
}

export type SurfaceEvent =
  /**
   * The service accepted a submission (its row is queued next): of the occurrence it names, or of
   * the actor's own occurrence when it names none.
   */
  | ({ type: 'submission.accepted' } & Partial<SurfaceInput> & SurfacePending)
  /** The turn loop dequeued the row for admission. */
  | { type: 'queue.claimed' }
  /** The row was removed, its admission rejected, cancelled or disposed: the surface stays open. */
  | { type: 'submission.discarded'; reason: string }
  /** Durable: the matching task-surface user message. */
  | { type: 'log.submitted'; submissionId: TaskSurfaceSubmissionId }
  /** Durable: a `task-surface/dismissed` event of this occurrence. */
  | { type: 'log.dismissed' }
  /** Durable: an ordinary user message (the bypass). */
  | { type: 'log.bypassed' };

/** One Task Surface occurrence, from `open` to a `closed.*` state (see the file comment). */
export const surfaceMachine = setup({
  types: {
    input: {} as SurfaceInput,
    context: {} as SurfaceContext,
    events: {} as SurfaceEvent,
  },
  guards: {
    /** Holds no record and the submission names the occurrence to follow. */
    takesAnotherOccurrence: ({ context, event }) => {
      assertEvent(event, 'submission.accepted');
      return context.pending === null && event.callId !== undefined && event.surfaceId !== undefined;
    },
  },
  actions: {
    recordPending: assign(({ context, event }) => {
      assertEvent(event, 'submission.accepted');
      return {
        callId: event.callId ?? context.callId,
        surfaceId: event.surfaceId ?? context.surfaceId,
        pending: { submissionId: event.submissionId, messageId: event.messageId },
      };
    }),
    clearPending: assign({ pending: null }),
  },
}).createMachine({
  id: 'taskSurface',
  context: ({ input }) => ({ callId: input.callId, surfaceId: input.surfaceId, pending: null }),
  initial: 'open',
  on: {
    // A closed occurrence's actor takes the next occurrence's submission; never while a record is held
    // (queued, claiming, or a bypassed occurrence awaiting its row's outcome).
    'submission.accepted': { guard: 'takesAnotherOccurrence', target: '.queued', actions: 'recordPending' },
  },
  states: {
    open: {
      on: {
        'submission.accepted': { target: 'queued', actions: 'recordPending' },
        'log.submitted': 'closed.submitted',
        'log.dismissed': 'closed.dismissed',
        'log.bypassed': 'closed.bypassed',
      },
    },
    queued: {
      on: {
        'queue.claimed': 'claiming',
        'submission.discarded': { target: 'open', actions: 'clearPending' },
        'log.submitted': { target: 'closed.submitted', actions: 'clearPending' },
        'log.bypassed': 'closed.bypassed',
      },
    },
    claiming: {
      on: {
        'submission.discarded': { target: 'open', actions: 'clearPending' },
        'log.submitted': { target: 'closed.submitted', actions: 'clearPending' },
        'log.bypassed': 'closed.bypassed',
      },
    },
    closed: {
      initial: 'submitted',
      states: {
        submitted: { type: 'final' },
        dismissed: { type: 'final' },
        // A bypass can overtake an accepted submission whose row is still queued or claimed: the
        // record stays until the turn loop reports that row's outcome.
        bypassed: {
          type: 'final',
          on: {
            'submission.discarded': { actions: 'clearPending' },
            'log.submitted': { actions: 'clearPending' },
          },
        },
      },
    },
  },
});
