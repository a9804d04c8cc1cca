import {
  SHOW_TASK_SURFACE,
  type NewSessionEvent,
  type SessionEvent,
  type ToolCallEvent,
  type TurnId,
  type UserMessageEvent,
} from '../protocol/index.js';
import type { LoadedSession } from './sessions.js';

const liveTurns = new WeakMap<object, Set<TurnId>>();

/** Turns running in this host (keyed by its Sessions): a session closed and reopened while one runs is not a crash. */
export function liveTurnsOf(host: object): Set<TurnId> {
  let turns = liveTurns.get(host);
  if (!turns) liveTurns.set(host, (turns = new Set()));
  return turns;
}

/** The `tool/result` content of a call a crash interrupted (the tool may or may not have acted). */
export const INTERRUPTED_CALL_TEXT = 'The call was interrupted when the host stopped; whether it took effect is unknown.';

/** The developer message the prompt shows after a turn that ended `interrupted`. */
export const INTERRUPTED_TURN_TEXT =
  'The previous turn was interrupted when the host stopped; what it did above is incomplete. Check before repeating any action.';

/** Work a stopped process left unfinished in a session's log, found when the session's inbox starts. */
export interface UnfinishedWork {
  /** A turn that started and never ended; its calls without a result; the messages it answered. */
  interrupted: {
    turnId: TurnId;
    rerunOf: TurnId | undefined;
    calls: ToolCallEvent[];
    input: UserMessageEvent[];
    /** It showed a Task Surface (a human checkpoint): the agent must not continue past it. */
    concluded: boolean;
  } | null;
  /** Durable user messages after the last turn, which no turn started for (a stop between the two). */
  unanswered: UserMessageEvent[];
}

/**
 * Scans the log's tail since the last fork, rewind or ended turn (an inherited prefix starts nothing,
 * and a rewind ends the turn it cut): a turn started without `turn/ended` was interrupted; user messages
 * after the last turn with no `turn/started` after them were never answered. A log that ends in a
 * rewind (or the late events it ignores) has nothing unfinished.
 */
export function unfinishedWork(session: LoadedSession): UnfinishedWork {
  const none: UnfinishedWork = { interrupted: null, unanswered: [] };
  const events = session.effective;
  if (events.length === 0 || events[events.length - 1]!.seq !== session.lastSeq) return none;
  let start = events.length;
  // A gap in seq is a rewind marker (with what it cut or ignored); a fork marker starts the log anew;
  // everything up to the last `turn/ended` was answered (so a long log costs only its last turn).
  while (
    start > 0 &&
    events[start - 1]!.type !== 'session/forked' &&
    events[start - 1]!.type !== 'turn/ended' &&
    (start === events.length || events[start]!.seq === events[start - 1]!.seq + 1)
  )
    start--;
  let running: UnfinishedWork['interrupted'] = null;
  let pending: UserMessageEvent[] = [];
  for (const event of events.slice(start)) {
    if (event.type === 'user/message') {
      // While a turn runs, a message steers into it and that turn answers it.
      if (!running) pending.push(event);
    } else if (event.type === 'turn/started') {
      running = { turnId: event.turnId, rerunOf: event.rerunOf, calls: [], input: pending, concluded: false };
      pending = [];
    } else if (event.type === 'turn/ended') {
      if (running?.turnId === event.turnId) running = null;
    } else if (event.type === 'tool/call' && running?.turnId === event.turnId) {
      running.calls.push(event);
    } else if (event.type === 'tool/result' && running) {
      running.calls = running.calls.filter((c) => c.callId !== event.callId);
      if (event.ok && event.name === SHOW_TASK_SURFACE && event.turnId === running.turnId) running.concluded = true;
    }
  }
  return { interrupted: running, unanswered: pending };
}

/** The events that close an interrupted turn: a result for each unfinished call, then `turn/ended`. */
export function interruptedEnding(interrupted: NonNullable<UnfinishedWork['interrupted']>): NewSessionEvent[] {
  const results: NewSessionEvent[] = interrupted.calls.map((call) => ({
    type: 'tool/result',
    callId: call.callId,
    turnId: call.turnId,
    name: call.name,
    ok: false,
    content: INTERRUPTED_CALL_TEXT,
  }));
  return [...results, { type: 'turn/ended', turnId: interrupted.turnId, outcome: 'interrupted' }];
}

/**
 * Answers what a stopped process left unanswered, when the session's inbox starts: an interrupted
 * turn is ended `interrupted` (each unfinished call first gets a failed result) and run again once
 * (`rerunOf`), unless it was itself a rerun or had shown a Task Surface (the user answers next); user messages no turn started for get a turn. A store
 * error is reported and the inbox starts anyway (the next start tries again). A turn `running` in
 * this process is not interrupted.
 */
export function recoverUnfinished(
  session: LoadedSession,
  running: ReadonlySet<TurnId>,
  o: {
    append(event: NewSessionEvent): SessionEvent;
    rerun(input: UserMessageEvent[], rerunOf?: TurnId): void;
    report(error: unknown): void;
  },
): void {
  if (session.record.readOnly) return;
  const { interrupted, unanswered } = unfinishedWork(session);
  // Still running in this process (its session was closed and opened again): it logs its own end.
  if (interrupted && running.has(interrupted.turnId)) return;
  try {
    if (interrupted) {
      for (const event of interruptedEnding(interrupted)) o.append(event);
      if (interrupted.rerunOf === undefined && !interrupted.concluded) o.rerun(interrupted.input, interrupted.turnId);
    } else if (unanswered.length) {
      o.rerun(unanswered);
    }
  } catch (error) {
    o.report(error);
  }
}
