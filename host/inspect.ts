import type { InspectionEvent } from 'xstate';
import type { SessionId } from '../protocol/index.js';
import type { InspectObserver } from './types.js';

/** The session each inspected actor (and every actor it spawned) belongs to. */
const sessionOfActor = new WeakMap<InspectionEvent['actorRef'], SessionId>();

/**
 * The Host's `inspect` observer for one session's actors: every event it passes on can be traced
 * back to the session (`inspectedSession`), so a relay can show each person only their own.
 */
export function inspectSession(inspect: InspectObserver | undefined, sessionId: SessionId): InspectObserver | undefined {
  if (inspect === undefined) return undefined;
  const next = typeof inspect === 'function' ? inspect : (event: InspectionEvent) => inspect.next?.(event);
  return (event: InspectionEvent) => {
    sessionOfActor.set(event.actorRef, sessionId);
    next(event);
  };
}

/** The session whose actor sent this inspection event; undefined for an actor no session owns. */
export function inspectedSession(event: InspectionEvent): SessionId | undefined {
  return sessionOfActor.get(event.actorRef);
}
