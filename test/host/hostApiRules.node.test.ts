// What a host developer sees at the edges of the public Host API: whole error messages for bad
// session ids, answers for sessions that are not live, and options outside their range.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { InboxItemId, MessageId, RpcId, SessionId } from '../../protocol/index.js';
import { counterIds } from './helpers.js';

function hostFor(t: { after(fn: () => unknown): void }, options: Partial<CreateHostOptions> = {}): Host {
  const store = createMemoryStore();
  const host = createHost({ store, clock: () => 1_000, ids: counterIds(), ...options });
  t.after(async () => {
    await host.dispose();
    store.close();
  });
  return host;
}

const message = (sessionId: SessionId, n: number) => ({
  sessionId,
  messageId: `m-${n}` as MessageId,
  rpcId: `r-${n}` as RpcId,
  text: `message ${n}`,
});

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  return 'no error';
};

describe('the Host API with inputs a host developer gets wrong', () => {
  it('names the call in the error for a session id that is not a string', async (t) => {
    const host = hostFor(t);
    assert.equal(
      refusal(() => host.load(42 as never)),
      'HostInputError: load: invalid input: expected string',
    );
    assert.equal(
      refusal(() => host.closeSession(42 as never)),
      'HostInputError: closeSession: invalid input: expected string',
    );
    assert.equal(
      refusal(() => host.unload(42 as never)),
      'HostInputError: unload: invalid input: expected string',
    );
    await assert.rejects(host.session.updateQueue({ sessionId: 'x', itemId: 'y', op: 'nope' } as never), {
      name: 'HostInputError',
      message: 'session.updateQueue: invalid input: op: matches none of the allowed shapes',
    });
  });

  it('answers for a session with no live inbox without starting one', async (t) => {
    const host = hostFor(t);
    const sessionId = host.openSession({ title: 'closed' });
    host.closeSession(sessionId);
    // Closing twice (or a session never live) is a no-op, not a crash.
    host.closeSession(sessionId);
    assert.deepEqual(host.inbox.claimed(sessionId), []);
    assert.deepEqual(host.inbox.claimed('never-opened' as SessionId), []);
    assert.deepEqual(await host.session.updateQueue({ sessionId, itemId: 'item-1' as InboxItemId, op: 'remove' }), {
      ok: false,
      reason: 'queue-item-not-found',
    });
    // whenIdle on a session that is not live settles at once (nothing of it can run).
    await host.whenIdle(sessionId);
    await host.whenIdle('never-opened' as SessionId);
  });

  it('still answers getView after dispose, and a second dispose is harmless', async (t) => {
    const host = hostFor(t);
    const sessionId = host.openSession({ title: 'kept' });
    const before = host.getView(sessionId);
    await host.dispose();
    assert.deepEqual(host.getView(sessionId), before);
    assert.throws(() => host.getView('nobody' as SessionId), { name: 'UnknownSessionError', message: 'unknown session nobody' });
    await host.dispose();
    assert.equal(
      refusal(() => host.openSession()),
      'Error: the host is disposed',
    );
  });

  it('falls back to 100 queued messages when maxQueuedMessages is 0 or negative', async (t) => {
    for (const maxQueuedMessages of [0, -1]) {
      const host = hostFor(t, { maxQueuedMessages, autoAdmit: false });
      const sessionId = host.openSession();
      const answers = [];
      for (let n = 1; n <= 101; n++) answers.push(await host.session.send(message(sessionId, n)));
      assert.deepEqual(answers[0], { accepted: true, messageId: 'm-1', itemId: 'item-1' });
      assert.deepEqual(answers[99], { accepted: true, messageId: 'm-100', itemId: 'item-100' });
      assert.deepEqual(answers[100], { accepted: false, reason: 'queue-full' });
    }
  });

  it('a refusal by a quota with no retry time carries its sentence and no retryAfterMs', async (t) => {
    const host = hostFor(t, { quotas: { bytesPerSession: 1 } });
    const alice = host.as({ id: 'alice' });
    const sessionId = alice.openSession();
    assert.deepEqual(await alice.session.send(message(sessionId, 1)), {
      accepted: false,
      reason: 'quota-exceeded',
      // The log holds a few hundred bytes (the session's opening), past a limit of one byte.
      message: "this session's log holds 0.0 MiB (at most 0.0 MiB): it takes no more input; start a new session",
    });
  });

  it('forgets the answers of an unloaded session: a retry after it gets a fresh item id', async (t) => {
    const host = hostFor(t);
    const sessionId = host.openSession();
    const first = await host.session.send(message(sessionId, 1));
    await host.whenIdle(sessionId);
    assert.deepEqual(await host.session.send(message(sessionId, 1)), first);
    host.unload(sessionId);
    assert.equal(await host.load(sessionId), true);
    // Still admitted once (the log answers for it), under an item id minted anew.
    assert.deepEqual(first, { accepted: true, messageId: 'm-1', itemId: 'item-1' });
    assert.deepEqual(await host.session.send(message(sessionId, 1)), { accepted: true, messageId: 'm-1', itemId: 'item-2' });
    assert.deepEqual((await host.readLog(sessionId, { limit: 50 })).events.filter((e) => e.type === 'user/message').length, 1);
  });
});
