// The Host over an asynchronous store (as PostgreSQL is), with a stand-in that keeps its rules: a
// session is read only once loaded, an unload drops the store's copy too, a failed write makes the
// session lost. What host code and watchers see then.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AsyncSessionLogStore } from '../../host/store/types.js';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { SessionId, SessionView } from '../../protocol/index.js';
import { counterIds, heldDriver, say } from './helpers.js';

/** A memory store behind the asynchronous store's rules; `lose` plays a failed write. */
function asyncStore() {
  const memory = createMemoryStore();
  const resident = new Set<string>();
  const unloads: string[] = [];
  const lost = new Set<(sessionId: SessionId, error: Error) => void>();
  // Reads in wait while a test holds them (a slow database).
  const reads = { wait: Promise.resolve() };
  const held = (sessionId: string) => {
    if (!resident.has(sessionId)) throw new Error(`session ${sessionId} is stored but not loaded`);
  };
  const store: AsyncSessionLogStore = Object.assign(Object.create(memory) as typeof memory, {
    createSession: ((record) => {
      memory.createSession(record);
      resident.add(record.sessionId);
    }) satisfies AsyncSessionLogStore['createSession'],
    read: ((sessionId, range) => {
      held(sessionId);
      return memory.read(sessionId, range);
    }) satisfies AsyncSessionLogStore['read'],
    append: ((sessionId, event, at) => {
      held(sessionId);
      return memory.append(sessionId, event, at);
    }) satisfies AsyncSessionLogStore['append'],
    load: async (sessionId: SessionId) => {
      await reads.wait;
      if (memory.getSession(sessionId) === undefined) return false;
      resident.add(sessionId);
      return true;
    },
    unload: (sessionId: SessionId) => {
      unloads.push(sessionId);
      resident.delete(sessionId);
    },
    flush: async () => undefined,
    onLost: (listener: (sessionId: SessionId, error: Error) => void) => {
      lost.add(listener);
      return () => void lost.delete(listener);
    },
  });
  const lose = (sessionId: SessionId) => {
    resident.delete(sessionId);
    for (const listener of [...lost]) listener(sessionId, new Error('connection reset'));
  };
  return { store, memory, resident, unloads, lose, reads };
}

function hostOver(t: { after(fn: () => unknown): void }, options: Partial<CreateHostOptions> = {}) {
  const s = asyncStore();
  const errors: Error[] = [];
  const host: Host = createHost({ store: s.store, ids: counterIds(), onError: (e) => errors.push(e), ...options });
  t.after(async () => {
    await host.dispose();
    s.memory.close();
  });
  return { ...s, host, errors };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Host over an asynchronous store', () => {
  it('residency unloads an idle session from the store too, and it is read in again on use', async (t) => {
    const { host, unloads, resident } = hostOver(t, { maxLoadedSessions: 1 });
    const first = host.openSession({ title: 'first' });
    const lastSeq = host.getView(first).lastSeq;
    const second = host.openSession({ title: 'second' });
    await tick(30);
    assert.equal(host.loadedSessionCount(), 1);
    assert.deepEqual(unloads, [first], "the store's copy of the session residency unloaded is dropped");
    assert.ok(!resident.has(first) && resident.has(second));
    assert.equal(await host.load(first), true);
    assert.equal(host.getView(first).lastSeq, lastSeq);
  });

  it('a lost session with a turn running: its watcher gets the reloaded view, and nothing is logged as broken', async (t) => {
    const { driver, running } = heldDriver();
    const { host, lose, errors, reads } = hostOver(t, { driver });
    const consoleError = mock.method(console, 'error', () => {});
    t.after(() => consoleError.mock.restore());
    const sessionId = host.openSession({ title: 'T' });
    const views: SessionView[] = [];
    const stop = host.watchSession(sessionId, (view) => views.push(view));
    t.after(stop);
    await say(host, sessionId, 'work on it');
    await running;
    const before = views.length;

    let readIn = () => {};
    reads.wait = new Promise<void>((resolve) => (readIn = resolve));
    lose(sessionId);
    await tick(50); // the cancelled turn ends while the session is being read in again
    readIn();
    await tick(20);

    assert.deepEqual(
      consoleError.mock.calls.map((c) => String(c.arguments[0])),
      [],
      'no view is built while the session is not loaded',
    );
    assert.ok(
      errors.some((e) => /reloaded from what is durable/.test(e.message)),
      'the loss itself is reported',
    );
    const after = views.slice(before);
    assert.ok(after.length > 0, 'the watcher hears of the session again');
    const last = after.at(-1)!;
    assert.equal(last.sessionId, sessionId);
    // The stopped turn could not write its end while the session was lost: what is durable shows.
    assert.equal(last.turn, 'idle');
    assert.equal(last.lastSeq, views[before - 1]!.lastSeq);
  });

  it('over a synchronous store, a watched session unloaded mid-turn: the watcher sees the turn end', async (t) => {
    const { driver, running } = heldDriver();
    const store = createMemoryStore();
    const host = createHost({ store, driver, ids: counterIds() });
    t.after(async () => {
      await host.dispose();
      store.close();
    });
    const sessionId = host.openSession({ title: 'T' });
    const views: SessionView[] = [];
    t.after(host.watchSession(sessionId, (view) => views.push(view)));
    await say(host, sessionId, 'work on it');
    await running;
    assert.equal(views.at(-1)!.turn, 'running');
    host.unload(sessionId);
    await tick(30);
    assert.equal(views.at(-1)!.turn, 'idle', 'read from the store again, the view is current');
  });
});
