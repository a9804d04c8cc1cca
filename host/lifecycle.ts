import type { SessionId } from '../protocol/index.js';
import { HostStoreError } from './errors.js';
import { forkSession, rewindSession } from './history.js';
import { freshId, type HostIds } from './ids.js';
import { forkInput, openSessionInput, sessionIdInput } from './inputs.js';
import type { LiveInboxes } from './liveInboxes.js';
import type { Sessions } from './sessions.js';
import type { Host, OpenSessionOptions } from './types.js';

export interface LifecycleDeps {
  sessions: Sessions;
  inboxes: LiveInboxes;
  ids: HostIds;
  clock(): number;
  report(error: Error): void;
}

/** Where sessions begin and branch: open, fork, rewind. */
export interface Lifecycle {
  /** `owner`: the principal id the opening event names (none for host code). */
  open(options: OpenSessionOptions | undefined, owner?: string): SessionId;
  fork(sessionId: SessionId, options: Parameters<Host['fork']>[1], owner?: string): SessionId;
  rewind(sessionId: unknown, toSeq: number): void;
}

/** Creates the session lifecycle part of a Host. */
export function createLifecycle(deps: LifecycleDeps): Lifecycle {
  const { sessions, inboxes, ids, clock } = deps;
  // Sessions list in creation order, which stores keep by createdAt: two sessions opened in the
  // same millisecond must not come back in another order after a restart.
  let lastCreatedAt = 0;
  const creationTime = () => (lastCreatedAt = Math.max(clock(), lastCreatedAt + 1));
  /** A minted id never reopens an existing session (deterministic minters restart from 1). */
  const freshSessionId = (): SessionId => freshId('session', ids.session, (id) => sessions.has(id));

  return {
    open(options, owner) {
      inboxes.assertOpen();
      const opts = openSessionInput(options);
      const sessionId = opts.sessionId ?? freshSessionId();
      if (!sessions.has(sessionId)) {
        sessions.create({
          sessionId,
          title: opts.title ?? 'Untitled',
          createdAt: creationTime(),
          toolMode: opts.toolMode ?? 'native',
          readOnly: opts.readOnly ?? false,
          locale: opts.locale ?? 'en',
          ...(owner === undefined ? {} : { owner }),
        });
        if (owner !== undefined) sessions.append(sessionId, { type: 'session/opened', owner });
      }
      inboxes.for(sessionId);
      return sessionId;
    },

    fork(sessionId, options, owner) {
      inboxes.assertOpen();
      const forked = forkSession(sessions, freshSessionId(), sessionIdInput('fork', sessionId), forkInput(options), creationTime(), owner);
      inboxes.for(forked);
      return forked;
    },

    rewind(input, toSeq) {
      inboxes.assertOpen();
      const sessionId = sessionIdInput('rewind', input);
      // The marker first: a bad toSeq or a store error refuses the rewind before anything is dropped.
      rewindSession(sessions, sessionId, toSeq);
      inboxes.get(sessionId)?.cancel('rewound');
      // Also when the session is not live (closed): a rewind drops every message that was waiting.
      try {
        for (const row of sessions.store.listQueued(sessionId)) sessions.store.deleteQueued(sessionId, row.itemId);
      } catch (error) {
        deps.report(new HostStoreError(sessionId, 'deleting the rows a rewind dropped', error));
      }
    },
  };
}
