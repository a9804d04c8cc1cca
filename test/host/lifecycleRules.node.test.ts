// Where sessions begin and end, as a host developer reads it back: the stored session records, the
// reason a stopped turn's driver is given, and a store failing during a rewind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentDriver, CreateHostOptions, Host } from '../../host/types.js';
import type { MessageId, RpcId, SessionId } from '../../protocol/index.js';
import { counterIds } from './helpers.js';

function hostFor(t: { after(fn: () => unknown): void }, options: Partial<CreateHostOptions> = {}) {
  const store = createMemoryStore();
  const host = createHost({ store, ids: counterIds(), ...options });
  t.after(async () => {
    await host.dispose();
    store.close();
  });
  return { host, store };
}

/** A driver whose turns run until they are aborted, and which records why. */
function blockingDriver() {
  const reasons: string[] = [];
  let started = () => {};
  const driver: AgentDriver & { reasons: string[]; running: Promise<void> } = {
    reasons,
    running: new Promise<void>((resolve) => (started = resolve)),
    runTurn: (turn) =>
      new Promise<void>((resolve) => {
        started();
        turn.signal.addEventListener('abort', () => {
          reasons.push((turn.signal.reason as Error).message);
          resolve();
        });
      }),
  };
  return driver;
}

const send = (host: Host, sessionId: SessionId) =>
  host.session.send({ sessionId, messageId: 'm-1' as MessageId, rpcId: 'r-1' as RpcId, text: 'go' });

describe('session lifecycle as a host developer sees it', () => {
  it('stores the defaults, a creation time that always grows, and an owner only when there is one', async (t) => {
    const { host, store } = hostFor(t, { clock: () => 5 });
    const first = host.openSession();
    const second = host.as({ id: 'alice' }).openSession({ title: 'Mine', locale: 'de' });
    assert.deepEqual(store.listSessions(), [
      { sessionId: first, title: 'Untitled', createdAt: 5, toolMode: 'native', readOnly: false, locale: 'en' },
      { sessionId: second, title: 'Mine', createdAt: 6, toolMode: 'native', readOnly: false, locale: 'de', owner: 'alice' },
    ]);
  });

  it("tells a running turn's driver why it stopped: session-closed, unloaded", async (t) => {
    for (const [stop, reason] of [
      [(host: Host, sessionId: SessionId) => host.closeSession(sessionId), 'session-closed'],
      [(host: Host, sessionId: SessionId) => host.unload(sessionId), 'unloaded'],
    ] as const) {
      const driver = blockingDriver();
      const { host } = hostFor(t, { driver });
      const sessionId = host.openSession();
      await send(host, sessionId);
      await driver.running;
      const idle = host.whenIdle(sessionId);
      stop(host, sessionId);
      // The waiter settles once the stopped turn has wound down.
      await idle;
      assert.deepEqual(driver.reasons, [reason]);
    }
  });

  it('reports a store that fails to drop the rewound rows, and the rewind still holds', async (t) => {
    const errors: string[] = [];
    const { host, store } = hostFor(t, { onError: (error) => errors.push(`${error.name}: ${error.message}`) });
    const sessionId = host.openSession();
    await send(host, sessionId);
    await host.whenIdle(sessionId);
    store.listQueued = () => {
      throw new Error('disk gone');
    };
    host.rewind(sessionId, 0);
    assert.deepEqual(errors, [
      `HostStoreError: session ${sessionId}: the store failed during deleting the rows a rewind dropped: disk gone`,
    ]);
    assert.equal(store.read(sessionId).at(-1)?.type, 'session/rewound');
  });
});
