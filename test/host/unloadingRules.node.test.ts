// What residency never unloads (a running turn, an open claim), and how long `session.send`
// remembers its answers for retries: between 1 000 and 2 000 per session, newest kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { InboxItemId, MessageId, RpcId, SessionId } from '../../protocol/index.js';
import { counterIds, heldDriver } from './helpers.js';

function hostFor(t: { after(fn: () => unknown): void }, options: Partial<CreateHostOptions> = {}): Host {
  const store = createMemoryStore();
  const host = createHost({ store, ids: counterIds(), ...options });
  t.after(async () => {
    await host.dispose();
    store.close();
  });
  return host;
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const send = (host: Host, sessionId: SessionId, n: number) =>
  host.session.send({ sessionId, messageId: `m-${n}` as MessageId, rpcId: `r-${n}` as RpcId, text: `message ${n}` });

describe('residency keeps sessions with work in flight', () => {
  it('never unloads a session whose turn is running; unloads it once the turn ended', async (t) => {
    const { driver, running, release } = heldDriver();
    const host = hostFor(t, { driver, maxLoadedSessions: 1 });
    const busy = host.openSession();
    await send(host, busy, 1);
    await running;
    // The other session is watched (kept too), so only the busy one could go.
    const stop = host.watchSession(host.openSession(), () => {});
    await tick(30);
    assert.equal(host.loadedSessionCount(), 2);
    release();
    await host.whenIdle(busy);
    stop();
    host.watchSession(host.openSession(), () => {});
    await tick(30);
    assert.equal(host.loadedSessionCount(), 1);
  });

  it('never unloads a session with a claimed row; the claim still commits', async (t) => {
    const host = hostFor(t, { autoAdmit: false, maxLoadedSessions: 1 });
    const claiming = host.openSession();
    await send(host, claiming, 1);
    const claim = host.inbox.claimNext(claiming)!;
    host.watchSession(host.openSession(), () => {});
    await tick(30);
    assert.equal(host.loadedSessionCount(), 2);
    assert.equal(claim.commit().messageId, 'm-1');
  });
});

describe('session.send remembers its answers for retries', () => {
  it('keeps at least the newest 1 000 and at most 2 000, dropping the oldest past that', async (t) => {
    const host = hostFor(t, { autoAdmit: false, maxQueuedMessages: 3_000 });
    const sessionId = host.openSession();
    const answers = new Map<number, unknown>();
    const sendUpTo = async (last: number) => {
      for (let n = answers.size + 1; n <= last; n++) answers.set(n, await send(host, sessionId, n));
    };
    // A removed row is no longer live, so only the remembered answer tells a retry it was sent.
    const removeAndRetry = async (n: number) => {
      const itemId = `item-${n}` as InboxItemId;
      assert.deepEqual(await host.session.updateQueue({ sessionId, itemId, op: 'remove' }), { ok: true });
      return send(host, sessionId, n);
    };
    await sendUpTo(1_001);
    assert.deepEqual(answers.get(1), { accepted: true, messageId: 'm-1', itemId: 'item-1' });
    assert.deepEqual(await removeAndRetry(1), answers.get(1));
    await sendUpTo(2_000);
    assert.deepEqual(await send(host, sessionId, 1), answers.get(1));
    // The 2 001st answer trims to the newest 1 000: 1 002 … 2 001.
    await sendUpTo(2_001);
    assert.deepEqual(await removeAndRetry(2_001), answers.get(2_001));
    assert.deepEqual(await removeAndRetry(1_002), answers.get(1_002));
    assert.deepEqual(await removeAndRetry(1_001), { accepted: true, messageId: 'm-1001', itemId: 'item-2002' });
  });
});
