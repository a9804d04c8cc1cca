/*
 * How a message (a `session.send`, a Task Surface submission) is admitted: its synchronous path (its
 * checks, the principal's limits, its enqueue) runs with no `await` in between, so the checks and the
 * enqueue see one state. With a shared rate (several processes serving one principal), taking the
 * principal's token is a round trip: the path runs once to see whether the message would be admitted,
 * the token is taken, and the path runs again from the top before anything is queued.
 */
import type { SessionId } from '../../protocol/index.js';
import { HostStoreError } from '../errors.js';
import type { MessageRefusal, PrincipalLimits } from './index.js';

/**
 * Each principal's messages per minute counted outside this process (`createHost({ messageRate })`):
 * a token bucket of `perMinute` (the Host's `quotas.messagesPerMinute`) refilled evenly, shared by
 * every process that serves the principal. `task-surface/host/postgres` has one in PostgreSQL
 * (`createPostgresMessageRate`). Without it the Host counts in its own memory.
 */
export interface SharedMessageRate {
  /** Takes one of the principal's tokens: 0 when one was taken, else the ms until one is there (nothing taken). Rejects when it cannot count. */
  take(principal: string, perMinute: number): Promise<number>;
  /** Gives back a token `take` took for a message that was then not admitted (a repeat, a full queue, a closed surface). */
  refund(principal: string, perMinute: number): Promise<void> | void;
}

/** What `admit` answers in a message's first run when a shared token must be taken first: the path returns it, having changed nothing. */
export const TAKE_TOKEN: unique symbol = Symbol('take a token first');

/**
 * Asked before a message is queued, after its retries were answered: null admits it (it counts), a
 * refusal says why not; TAKE_TOKEN (a shared rate's first run only): return it at once.
 */
export type AdmitMessage = (sessionId: SessionId, by: string | undefined) => MessageRefusal | null | typeof TAKE_TOKEN;

/** A message's synchronous path, from its first check to its enqueue: its answer, or TAKE_TOKEN as `admit` answered it. */
export type MessageAttempt<T> = (admit: AdmitMessage) => T | typeof TAKE_TOKEN;

export interface MessageAdmission {
  /**
   * Runs `attempt`, for `by` (again after a shared take); `operation` names a take that failed. The
   * answer is returned as it is when no take was needed (no extra turn of the event loop: the Host's
   * "answer once durable" then waits for what this message wrote, not for the turn it starts).
   */
  run<T>(operation: string, by: string | undefined, attempt: MessageAttempt<T>): T | Promise<T>;
}

export interface AdmissionDeps {
  limits: PrincipalLimits;
  /** The shared rate; without one, `limits` counts the rate in this process's memory. */
  rate?: SharedMessageRate;
  /** Told of a refund that failed (the token is lost: the principal waits a moment longer). */
  report(error: Error): void;
}

const answered = <T>(answer: T | typeof TAKE_TOKEN): T => {
  if (answer === TAKE_TOKEN) throw new Error('a message asked for a token when none was to be taken');
  return answer;
};

/** The Host's admission of messages (see the module's comment); host code (`by` undefined) is never limited. */
export function createAdmission(deps: AdmissionDeps): MessageAdmission {
  const { limits, rate } = deps;
  const perMinute = limits.quotas.messagesPerMinute;
  if (!rate || perMinute === Infinity) {
    const admit: AdmitMessage = (sessionId, by) => (by === undefined ? null : limits.admitMessage(by, sessionId));
    return { run: (_operation, _by, attempt) => answered(attempt(admit)) };
  }
  const refund = (principal: string) => {
    try {
      void Promise.resolve(rate.refund(principal, perMinute)).catch((error: unknown) => deps.report(error as Error));
    } catch (error) {
      deps.report(error as Error);
    }
  };
  /** The take and the second run, once the first run found the message would be admitted. */
  const afterTake = async <T>(operation: string, by: string, attempt: MessageAttempt<T>): Promise<T> => {
    let wait: number | Error;
    try {
      wait = await rate.take(by, perMinute);
    } catch (error) {
      wait = error instanceof Error ? error : new Error(String(error));
    }
    // Anything may have changed while the take waited (a repeat admitted, the queue full, the surface
    // closed): the whole path runs again from the top, and only this run queues anything.
    let admitted = false;
    let kept = false;
    try {
      const answer = answered(
        attempt((id, principal) => {
          if (principal === undefined) return null;
          const refused = limits.checkMessage(principal, id);
          if (refused) return refused;
          // Not counted, so not admitted: the sender may send it again (it is no repeat).
          if (wait instanceof Error) throw new HostStoreError(id, `${operation} (counting the principal's messages)`, wait);
          if (wait > 0) return limits.rateRefusal(wait);
          admitted = true;
          return null;
        }),
      );
      kept = admitted;
      return answer;
    } finally {
      if (wait === 0 && !kept) refund(by);
    }
  };
  return {
    run(operation, by, attempt) {
      const first = attempt((id, principal) => (principal === undefined ? null : (limits.checkMessage(principal, id) ?? TAKE_TOKEN)));
      if (first !== TAKE_TOKEN || by === undefined) return answered(first);
      return afterTake(operation, by, attempt);
    },
  };
}
