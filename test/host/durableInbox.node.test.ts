// Ordinary queued messages survive a restart (the store keeps them until they are durable); Task
// Surface rows stay process-local.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorruptQueueRowError } from '../../host/store/types.js';
import type { AgentTurn, Host } from '../../host/types.js';
import type { MessageId, SessionId } from '../../protocol/index.js';
import { hostPerTest } from './fixture.js';
import { admitNext, goodValues, ids, makeHost, manualSurface, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/** A turn that runs until it is cancelled; `started` resolves once it runs. */
function blockingTurn() {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const script = (turn: AgentTurn) =>
    new Promise<void>((_, reject) => {
      turn.step();
      started();
      turn.signal.addEventListener('abort', () => reject(new Error('cancelled')));
    });
  return { running, script };
}

for (const factory of storeFactories) {
  describe(`durable inbox (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    hostPerTest(
      factory,
      { autoAdmit: false },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );

    /** Disposes the host and starts a new one over the reopened store (a process restart). */
    const restart = async (autoAdmit = false) => {
      await host.dispose();
      await handle.reopen();
      driver = new ScriptedDriver();
      host = makeHost(handle, { driver, autoAdmit });
    };
    const userMessages = (sessionId: SessionId, messageId?: MessageId) =>
      handle.store.read(sessionId).filter((e) => e.type === 'user/message' && (messageId === undefined || e.messageId === messageId));
    const send = (sessionId: SessionId, text: string) => {
      const messageId = ids.message();
      const rpcId = ids.rpc();
      return host.session.send({ sessionId, messageId, rpcId, text }).then((r) => ({ ...r, messageId, rpcId }));
    };

    it('a message queued behind a running turn survives a restart and becomes one durable message', async () => {
      await restart(true);
      const sessionId = host.openSession({ title: 'T' });
      const turn = blockingTurn();
      driver.then(turn.script);
      await say(host, sessionId, 'start working');
      await turn.running;
      const queued = await send(sessionId, 'and then this');
      assert.ok(queued.accepted);
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => r.messageId),
        [queued.messageId],
      );
      await restart(true);
      // Lazily loaded by the first use; admitted once by auto-admission.
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => [r.id, r.messageId, r.text]),
        [[queued.itemId, queued.messageId, 'and then this']],
      );
      await host.whenIdle(sessionId);
      assert.equal(userMessages(sessionId, queued.messageId).length, 1);
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.deepEqual(handle.store.listQueued(sessionId), [], 'a durable message leaves the store');
      // A retry of that send after the restart adds nothing.
      assert.equal(
        (await host.session.send({ sessionId, messageId: queued.messageId, rpcId: ids.rpc(), text: 'and then this' })).accepted,
        true,
      );
      await host.whenIdle(sessionId);
      assert.equal(userMessages(sessionId, queued.messageId).length, 1);
      await restart(true);
      host.openSession({ sessionId });
      await host.whenIdle(sessionId);
      assert.equal(userMessages(sessionId, queued.messageId).length, 1, 'a second restart admits nothing again');
    });

    it('a Task Surface submission queued at the restart is not restored: the surface is editable', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(submitted.accepted);
      const ordinary = await send(sessionId, 'by the way');
      await restart();
      host.openSession({ sessionId });
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => r.messageId),
        [ordinary.messageId],
        'only the ordinary row',
      );
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      assert.ok(active.active);
      assert.equal(active.pending, null);
    });

    it('edits and steering persist; restored rows keep their order and ids', async () => {
      const sessionId = host.openSession();
      const first = await send(sessionId, 'first');
      const second = await send(sessionId, 'second');
      assert.ok(first.accepted && second.accepted);
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'edit', itemId: second.itemId, text: 'second, edited\nmore' }), {
        ok: true,
      });
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'steer', itemId: second.itemId }), { ok: true });
      await restart();
      assert.deepEqual(host.getView(sessionId).queue, [
        {
          id: first.itemId,
          messageId: first.messageId,
          placement: 'queued',
          source: { kind: 'user', rpcId: first.rpcId },
          text: 'first',
          preview: 'first',
        },
        {
          id: second.itemId,
          messageId: second.messageId,
          placement: 'steering',
          source: { kind: 'user', rpcId: second.rpcId },
          text: 'second, edited\nmore',
          preview: 'second, edited',
        },
      ]);
      // Deterministic minters restart from 1: a new row never takes a restored row's id.
      const third = await send(sessionId, 'third');
      assert.ok(third.accepted);
      assert.equal(new Set(host.getView(sessionId).queue.map((r) => r.id)).size, 3);
      assert.equal(host.inbox.claimNext(sessionId)!.row.messageId, second.messageId, 'steering first');
    });

    it('remove and a rejected admission delete the stored row', async () => {
      const sessionId = host.openSession();
      const removed = await send(sessionId, 'never mind');
      const rejected = await send(sessionId, 'refused');
      assert.ok(removed.accepted && rejected.accepted);
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: removed.itemId }), { ok: true });
      host.inbox.claimNext(sessionId)!.discard('rejected');
      assert.deepEqual(handle.store.listQueued(sessionId), []);
      await restart();
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.equal(userMessages(sessionId).length, 0);
    });

    it('a claim open at the restart comes back queued and is admitted once', async () => {
      const sessionId = host.openSession();
      const sent = await send(sessionId, 'claimed, not yet durable');
      host.inbox.claimNext(sessionId);
      await restart();
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => r.messageId),
        [sent.messageId],
      );
      await admitNext(host, sessionId);
      assert.equal(userMessages(sessionId, sent.messageId).length, 1);
    });

    it('a stop after the durable append but before the delete does not double the message', async () => {
      const sessionId = host.openSession();
      const sent = await send(sessionId, 'once');
      const [stored] = handle.store.listQueued(sessionId);
      assert.equal(stored?.messageId, sent.messageId);
      await admitNext(host, sessionId);
      // The row the delete would have removed, as a crash right after the append leaves it.
      handle.store.saveQueued(sessionId, stored!);
      await restart(true);
      host.openSession({ sessionId });
      await host.whenIdle(sessionId);
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.equal(userMessages(sessionId, sent.messageId).length, 1);
      assert.deepEqual(handle.store.listQueued(sessionId), [], 'the stale row is dropped');
    });

    it('closeSession keeps queued messages for the next open; rewind discards them', async () => {
      const sessionId = host.openSession();
      const kept = await send(sessionId, 'still wanted');
      host.closeSession(sessionId);
      await host.whenIdle();
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => r.messageId),
        [kept.messageId],
        'back when reopened',
      );
      host.rewind(sessionId, 0);
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.deepEqual(handle.store.listQueued(sessionId), []);
      const closedThenRewound = await send(sessionId, 'queued, then the session closed');
      assert.ok(closedThenRewound.accepted);
      host.closeSession(sessionId);
      await host.whenIdle();
      host.rewind(sessionId, 0);
      await restart();
      assert.deepEqual(host.getView(sessionId).queue, [], 'a rewind also drops the rows of a closed session');
      assert.equal(userMessages(sessionId).length, 0);
    });

    it('reports a corrupt stored inbox row clearly', async () => {
      const sessionId = host.openSession();
      const sent = await send(sessionId, 'hello');
      assert.ok(sent.accepted);
      await host.dispose();
      await handle.corruptQueued(sessionId, sent.itemId, JSON.stringify({ itemId: sent.itemId, text: 42 }));
      await handle.reopen();
      host = makeHost(handle, { driver, autoAdmit: false });
      assert.throws(
        () => host.getView(sessionId),
        (e: Error) => e instanceof CorruptQueueRowError && e.message.includes(`inbox row ${sent.itemId}`),
      );
    });

    it('the store keeps inbox rows by order, apart from the log, across a reopen', async () => {
      const sessionId = host.openSession();
      const row = (itemId: string, order: number) =>
        ({
          itemId,
          messageId: `m-${itemId}`,
          placement: 'queued',
          source: { kind: 'user', rpcId: 'r-1' },
          text: itemId,
          order,
        }) as Parameters<StoreHandle['store']['saveQueued']>[1];
      const lastSeq = handle.store.lastSeq(sessionId);
      handle.store.saveQueued(sessionId, row('b', 2));
      handle.store.saveQueued(sessionId, row('a', 1));
      handle.store.saveQueued(sessionId, row('c', 3));
      handle.store.updateQueued(sessionId, row('b', 2).itemId, { text: 'b2', placement: 'steering' });
      handle.store.updateQueued(sessionId, row('zz', 0).itemId, { text: 'nothing' });
      handle.store.deleteQueued(sessionId, row('c', 3).itemId);
      handle.store.deleteQueued(sessionId, row('zz', 0).itemId);
      const store = await handle.reopen();
      assert.deepEqual(store.listQueued(sessionId), [row('a', 1), { ...row('b', 2), text: 'b2', placement: 'steering' }]);
      assert.equal(store.lastSeq(sessionId), lastSeq, 'nothing reaches the log');
    });

    it('the store refuses an invalid inbox row', () => {
      const sessionId = host.openSession();
      assert.throws(
        () =>
          handle.store.saveQueued(sessionId, {
            itemId: 'x',
            messageId: 'y',
            placement: 'sideways',
            source: { kind: 'user', rpcId: 'r' },
            text: 't',
            order: 0,
          } as never),
        /refused to save an invalid inbox row/,
      );
    });
  });
}
