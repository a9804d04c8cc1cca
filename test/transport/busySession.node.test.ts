import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { mintMessageId, mintRpcId, type InboxItemId, type SessionView } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient, until } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

describe('one busy session', () => {
  it('refuses session.send past maxQueuedMessages with queue-full, over the wire, and adds nothing', async (t) => {
    const host = createHost({ store: createMemoryStore(), autoAdmit: false, maxQueuedMessages: 3 });
    const sessionId = host.openSession({ title: 'busy' });
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
    const client = connectClient(server.port, { heartbeatMs: 0 });
    closeWhenDone(t, { close: () => (client.dispose(), server.close().then(() => host.dispose())) });
    const send = (messageId = mintMessageId()) => client.session.send({ sessionId, messageId, rpcId: mintRpcId(), text: 'more' });
    const accepted = [await send(), await send(), await send()];
    assert.ok(accepted.every((r) => r.accepted));
    assert.deepEqual(await send(), { accepted: false, reason: 'queue-full' });
    assert.equal(host.getView(sessionId).queue.length, 3);
    // A retry of an already queued message is still answered with its row, not refused.
    const first = accepted[0]!;
    assert.ok(first.accepted);
    assert.deepEqual(await send(first.messageId), first);
    // Room again once a row leaves the queue.
    assert.deepEqual(await client.session.updateQueue({ sessionId, op: 'remove', itemId: first.itemId as InboxItemId }), { ok: true });
    assert.equal((await send()).accepted, true);
  });

  it('a retry of a message sent thousands of messages ago is still admitted once', async (t) => {
    const host = createHost({ store: createMemoryStore() });
    closeWhenDone(t, { close: () => host.dispose() });
    const sessionId = host.openSession({ title: 'long' });
    const firstId = mintMessageId();
    const first = await host.session.send({ sessionId, messageId: firstId, rpcId: mintRpcId(), text: 'first' });
    for (let i = 0; i < 2_500; i++) {
      await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: `m${i}` });
      if (i % 50 === 0) await host.whenIdle(sessionId);
    }
    await host.whenIdle(sessionId);
    const retry = await host.session.send({ sessionId, messageId: firstId, rpcId: mintRpcId(), text: 'first' });
    assert.ok(first.accepted && retry.accepted);
    await host.whenIdle(sessionId);
    const all = (await host.readLog(sessionId, { limit: 100_000 })).events;
    assert.equal(all.filter((e) => e.type === 'user/message' && e.messageId === firstId).length, 1);
  });

  it('a publish copies only rows that changed: unchanged rows are the same objects in the next view', async (t) => {
    const host = createHost({ store: createMemoryStore(), autoAdmit: false });
    closeWhenDone(t, { close: () => host.dispose() });
    const sessionId = host.openSession({ title: 'views' });
    const views: SessionView[] = [];
    const stop = host.watchSession(sessionId, (view) => views.push(view));
    for (let i = 0; i < 3; i++) await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: `m${i}` });
    const [a, b, c] = views.at(-1)!.queue;
    await host.session.updateQueue({ sessionId, op: 'edit', itemId: b!.id, text: 'edited' });
    const next = views.at(-1)!.queue;
    assert.equal(next[0], a, 'unchanged row: not copied again');
    assert.equal(next[2], c);
    assert.notEqual(next[1], b, 'the edited row is a new copy');
    assert.equal(next[1]!.text, 'edited');
    assert.equal(b!.text, 'm1', 'an earlier view is never changed afterwards');
    stop();
  });

  it('a flooding connection does not keep another client from its answers', async (t) => {
    const host = createHost({ store: createMemoryStore(), autoAdmit: false, maxQueuedMessages: 50 });
    const flooded = host.openSession({ title: 'flooded' });
    const calm = host.openSession({ title: 'calm' });
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host,
      port: 0,
      heartbeatMs: 0,
      rateLimit: { perSecond: 200, burst: 20 },
    });
    const flooder = connectClient(server.port, { heartbeatMs: 0 });
    const healthy = connectClient(server.port, { heartbeatMs: 0 });
    closeWhenDone(t, { close: () => (flooder.dispose(), healthy.dispose(), server.close().then(() => host.dispose())) });
    let floodViews = 0;
    flooder.watchSession(flooded, () => floodViews++);
    const flood = Array.from({ length: 300 }, () =>
      flooder.session.send({ sessionId: flooded, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'spam' }),
    );
    const mine = await healthy.session.send({ sessionId: calm, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hello' });
    assert.equal(mine.accepted, true);
    const results = await Promise.all(flood);
    assert.equal(results.filter((r) => r.accepted).length, 50);
    assert.equal(results.filter((r) => !r.accepted && r.reason === 'queue-full').length, 250);
    await until(() => floodViews > 0);
  });
});
