import type { SessionId } from '../protocol/index.js';
import { HostStoreError } from './errors.js';
import type { Sessions } from './sessions.js';
import { isAsyncStore, type SessionLogStore } from './store/types.js';

export interface DurabilityDeps {
  store: SessionLogStore;
  sessions: Sessions;
  report(error: Error): void;
  /** Drops every in-memory part of a session (its actors stop). */
  unload(sessionId: SessionId): void;
  /** Someone watches the session: it is loaded again at once after a loss, and its view published. */
  watched(sessionId: SessionId): boolean;
  publish(sessionId: SessionId): void;
  disposed(): boolean;
}

export interface Durability {
  /** True for a store that keeps sessions elsewhere (PostgreSQL): see AsyncSessionLogStore. */
  readonly async: boolean;
  /** Settles when the session's writes so far are durable (undefined at once for a synchronous store). */
  whenDurable(sessionId: SessionId): Promise<void> | undefined;
  /** `call`, answered only once what it wrote is durable (its input named the session if it answered). */
  durably<I, R, A extends unknown[]>(call: (input: I, ...rest: A) => Promise<R>): (input: I, ...rest: A) => Promise<R>;
  /** Reads a session in from an asynchronous store and folds it (so residency counts and unloads it). */
  load(sessionId: SessionId): Promise<boolean>;
}

/**
 * The Host's durability rule for a store whose writes become durable later (PostgreSQL): every
 * answer that follows a write waits for it; a write that failed refuses the answer with a
 * HostStoreError and unloads the session (it is read again from what is durable). For memory and
 * SQLite every append is durable when it returns: nothing waits.
 */
export function createDurability(deps: DurabilityDeps): Durability {
  const { sessions } = deps;
  const store = isAsyncStore(deps.store) ? deps.store : undefined;

  const whenDurable = (sessionId: SessionId): Promise<void> | undefined =>
    store?.flush(sessionId).catch((error: unknown) => {
      throw new HostStoreError(sessionId, 'making the change durable', error);
    });

  const load = async (sessionId: SessionId): Promise<boolean> => {
    if (!store || sessions.isLoaded(sessionId)) return sessions.has(sessionId);
    try {
      if (!(await store.load(sessionId))) return false;
    } catch (error) {
      throw new HostStoreError(sessionId, 'loading the session', error);
    }
    return !deps.disposed() && sessions.find(sessionId) !== undefined;
  };

  // A failed write: this process's copy of the session is gone. Its actors stop (nothing more is
  // written from them) and watchers get the stored view once it is loaded again.
  store?.onLost((sessionId, error) => {
    deps.report(new HostStoreError(sessionId, 'a write to the store; the session is reloaded from what is durable', error));
    deps.unload(sessionId);
    if (!deps.watched(sessionId) || deps.disposed()) return;
    load(sessionId).then(
      (found) => found && deps.publish(sessionId),
      (loadError: unknown) => deps.report(new HostStoreError(sessionId, 'loading the session again after a failed write', loadError)),
    );
  });

  return {
    async: store !== undefined,
    whenDurable,
    load,
    // Synchronous stores: the call itself (no extra await on the hot path).
    durably: (call) =>
      store
        ? async (input, ...rest) => {
            const answer = await call(input, ...rest);
            await whenDurable((input as { sessionId: SessionId }).sessionId);
            return answer;
          }
        : call,
  };
}
