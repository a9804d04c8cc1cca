import type { NewSessionEvent, SessionId } from '../protocol/index.js';
import { storeStep } from './errors.js';
import type { Sessions } from './sessions.js';
import type { SessionLogStore } from './store/types.js';

function checkSeq(name: string, value: number, lastSeq: number): void {
  if (!Number.isInteger(value) || value < 0 || value > lastSeq) {
    throw new RangeError(`${name} must be an integer from 0 to ${lastSeq} (the session's last seq), not ${value}`);
  }
}

/**
 * A new session whose log is the source's raw prefix through `throughSeq` (seqs and times kept),
 * followed by `session/forked` (naming `owner`, who forked it, also in the copied opening event). Its state is a fold of that log: what the source was at that seq.
 * Nothing process-local (queue rows, pending submissions) is copied.
 */
export function forkSession(
  sessions: Sessions,
  newId: SessionId,
  from: SessionId,
  options: { throughSeq?: number; title?: string },
  now: number,
  owner?: string,
): SessionId {
  const source = sessions.get(from);
  const throughSeq = options.throughSeq ?? source.lastSeq;
  checkSeq('fork throughSeq', throughSeq, source.lastSeq);
  const { store } = sessions;
  // Owned by whoever forked it (host code keeps the source's owner), in the store's owner index too.
  const { owner: _sourceOwner, ...record } = source.record;
  const forkOwner = owner ?? source.owner;
  store.createSession({
    ...record,
    sessionId: newId,
    title: options.title ?? `${source.record.title} (fork)`,
    createdAt: now,
    ...(forkOwner === null ? {} : { owner: forkOwner }),
  });
  // One batch (one SQLite transaction): the copy and its marker land together or not at all.
  storeStep(newId, 'the copy of a fork', () => store.appendMany(newId, forkEntries(store, from, throughSeq, now, owner)));
  sessions.get(newId);
  return newId;
}

/** Appends `session/rewound`: every later event after `toSeq` stops counting; the state refolds. */
export function rewindSession(sessions: Sessions, sessionId: SessionId, toSeq: number): void {
  const session = sessions.get(sessionId);
  checkSeq('rewind toSeq', toSeq, session.lastSeq);
  sessions.append(sessionId, { type: 'session/rewound', toSeq });
}

/** The source's events through `throughSeq`, read a page at a time, then the `session/forked` marker. */
function* forkEntries(
  store: SessionLogStore,
  from: SessionId,
  throughSeq: number,
  now: number,
  owner: string | undefined,
): Generator<{ event: NewSessionEvent; at: number }> {
  const pageSize = 1000;
  for (let after = 0; after < throughSeq; after += pageSize) {
    for (const event of store.read(from, { afterSeq: after, beforeSeq: Math.min(throughSeq, after + pageSize) + 1 })) {
      const { seq: _seq, at, ...rest } = event;
      // The fork's opening event names its own owner (whoever forked it; host code keeps the source's).
      yield { event: rest.type === 'session/opened' && owner !== undefined ? { ...rest, owner } : (rest as NewSessionEvent), at };
    }
  }
  yield { event: { type: 'session/forked', from, throughSeq, ...(owner === undefined ? {} : { owner }) }, at: now };
}
