/*
 * The effective log (rewinds applied): a pure fold the host keeps incrementally; a fresh fold of the
 * stored log gives the same. The Task Surface unit folds it further (taskSurface/projection.ts).
 */
import type { SessionEvent, TurnId } from '../protocol/index.js';

/** What one raw event did to an effective log. */
export type EffectiveChange = 'appended' | 'ignored' | 'cut';

/**
 * Applies one raw event to an effective log in place. A `session/rewound` marker drops every
 * effective event after its `toSeq` (a fork's `session/forked` marker always stays) and is not
 * itself part of the effective log. It also ends the turn that was running at that point: the host
 * cancels that turn, and the events it still writes afterwards (a tool result in flight, its
 * `turn/ended`) are `ignored`, so they can never bring back what the rewind removed.
 * `rewoundTurns` holds those turns' ids for the log's lifetime.
 */
export function applyToEffectiveLog(effective: SessionEvent[], rewoundTurns: Set<TurnId>, event: SessionEvent): EffectiveChange {
  if (event.type === 'turn/started')
    rewoundTurns.delete(event.turnId); // an id minted again is a new turn
  else if ('turnId' in event && rewoundTurns.has(event.turnId)) return 'ignored';
  if (event.type !== 'session/rewound') {
    effective.push(event);
    return 'appended';
  }
  const running = runningTurn(effective);
  if (running !== null) rewoundTurns.add(running);
  let keep = effective.length;
  while (keep > 0 && effective[keep - 1]!.seq > event.toSeq) keep--;
  const forked = effective.slice(keep).filter((e) => e.type === 'session/forked');
  effective.length = keep;
  effective.push(...forked);
  return 'cut';
}

/** The turn started and not yet ended at the end of an effective log (turns never overlap). */
function runningTurn(effective: readonly SessionEvent[]): TurnId | null {
  for (let i = effective.length - 1; i >= 0; i--) {
    const event = effective[i]!;
    if (event.type === 'turn/ended') return null;
    if (event.type === 'turn/started') return event.turnId;
  }
  return null;
}

/** The effective log of a raw log, oldest first, and the turns its rewinds ended. */
export function effectiveLog(raw: Iterable<SessionEvent>, rewoundTurns = new Set<TurnId>()): SessionEvent[] {
  const effective: SessionEvent[] = [];
  for (const event of raw) applyToEffectiveLog(effective, rewoundTurns, event);
  return effective;
}
