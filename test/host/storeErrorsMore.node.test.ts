// The store-error suite, continued: forks, plugins, edits, loading, action cards and a store that always fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHost } from '../../host/createHost.js';
import { HostStoreError } from '../../host/errors.js';
import type { CallId, MessageId } from '../../protocol/index.js';
import { appending, INJECTED } from './faultyStore.js';
import { createPageKind } from '../../host/actionCards/kinds/index.js';
import { pageArgs } from '../action-cards/helpers.js';
import { ids, ScriptedDriver } from './helpers.js';
import { storeFactories } from './stores.js';
import { driver, errors, faulty, handle, host, restart, send, start, types, userTexts, useFaultyHost } from './storeErrorsHarness.js';

for (const factory of storeFactories) {
  describe(`store errors never wedge a session: history, edits, cards (${factory.name} store)`, () => {
    useFaultyHost(factory);

    it('a fork whose copy cannot be stored throws HostStoreError; the source session goes on', async () => {
      const sessionId = host.openSession({ title: 'T' });
      await send(sessionId, 'one');
      await host.whenIdle(sessionId);
      faulty.fail('appendMany');
      assert.throws(
        () => host.fork(sessionId),
        (e: unknown) => e instanceof HostStoreError && /the copy of a fork/.test(e.message),
      );
      // The fork's record was created before the copy failed: it stays, empty.
      assert.deepEqual(
        host
          .listSessions()
          .map((r) => [r.title, r.lastSeq])
          .filter(([, seq]) => seq === 0),
        [['T (fork)', 0]],
      );
      await send(sessionId, 'two');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['one', 'two']);
      const fork = host.fork(sessionId);
      assert.deepEqual(userTexts(fork), ['one', 'two']);
    });

    it('a message stored before a plugin listener threw is durable: the commit stands and its turn runs', async () => {
      const sessionId = host.openSession({ title: 'T' });
      let thrown = false;
      host.plugins.onEvent((_sessionId, event) => {
        if (event.type === 'user/message' && !thrown) {
          thrown = true;
          throw new Error('listener bug');
        }
      });
      await send(sessionId, 'kept');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['kept']);
      assert.equal(types(sessionId).at(-1), 'turn/ended:completed');
      assert.deepEqual(
        errors.map((e) => e.message),
        ['listener bug'],
      );
    });

    it('an edit or steer the store cannot save is refused; the row stays as it was', async () => {
      await host.dispose();
      start(false);
      const sessionId = host.openSession({ title: 'T' });
      const sent = await send(sessionId, 'draft');
      assert.ok(sent.accepted);
      faulty.fail('updateQueued', () => true, 2);
      const changing = (e: unknown) => e instanceof HostStoreError && /changing a queued message: disk I\/O error/.test(e.message);
      await assert.rejects(host.session.updateQueue({ sessionId, op: 'edit', itemId: sent.itemId, text: 'changed' }), changing);
      await assert.rejects(host.session.updateQueue({ sessionId, op: 'steer', itemId: sent.itemId }), changing);
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => [r.text, r.placement]),
        [['draft', 'queued']],
      );
      assert.deepEqual(
        handle.store.listQueued(sessionId).map((r) => [r.text, r.placement]),
        [['draft', 'queued']],
      );
    });

    it('a stored row that cannot be deleted after its message is durable is reported, and never admitted twice', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('deleteQueued');
      await send(sessionId, 'once');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['once']);
      assert.equal(errors.length, 1);
      await restart();
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['once']);
      assert.deepEqual(handle.store.listQueued(sessionId), []);
    });

    it('a failing read while loading refuses the call; the next call loads the session', async () => {
      const sessionId = host.openSession({ title: 'T' });
      await send(sessionId, 'hello');
      await host.whenIdle(sessionId);
      await restart();
      faulty.fail('read');
      assert.throws(() => host.getView(sessionId), INJECTED);
      faulty.fail('listQueued');
      assert.throws(() => host.getView(sessionId), INJECTED);
      assert.equal(host.getView(sessionId).turn, 'idle');
      await send(sessionId, 'still here');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['hello', 'still here']);
    });

    it('an action card decision or notice that cannot be stored: the act is unconfirmed, the turn fails, both retry cleanly', async () => {
      host.actionCards.register(createPageKind());
      const sessionId = host.openSession({ title: 'T' });
      let callId: CallId | undefined;
      driver.then(async (turn) => {
        turn.step();
        await turn.callTool('skill', { name: 'create-page' });
        callId = (await turn.callTool('propose_action', pageArgs())).callId;
      });
      await send(sessionId, 'plan');
      await host.whenIdle(sessionId);
      assert.ok(callId);
      faulty.fail('append', appending('action-cards/decision'));
      assert.deepEqual(await host.actionCards.act({ sessionId, callId, verb: 'dismiss' }), { status: 'unconfirmed' });
      assert.deepEqual(host.actionCards.view(sessionId).decisions, {});
      assert.deepEqual(await host.actionCards.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
      // The next step's status notice cannot be stored: that turn fails and ends; the next one reports it.
      faulty.fail('append', appending('action-cards/notice'));
      await send(sessionId, 'next');
      await host.whenIdle(sessionId);
      assert.equal(types(sessionId).at(-1), 'turn/ended:failed');
      await send(sessionId, 'again');
      await host.whenIdle(sessionId);
      assert.deepEqual(types(sessionId).slice(-4), ['turn/started', 'action-cards/notice', 'assistant/message', 'turn/ended:completed']);
    });

    it('without onError, a failure the host settles goes to console.error', async (t) => {
      const logged = t.mock.method(console, 'error', () => {});
      const quiet = createHost({ store: faulty.store, driver: new ScriptedDriver() });
      const sessionId = quiet.openSession({ title: 'T' });
      faulty.fail('append', appending('turn/ended'));
      await quiet.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'x' });
      await quiet.whenIdle(sessionId);
      await quiet.dispose();
      assert.equal(logged.mock.callCount(), 1);
      const [error] = logged.mock.calls[0]!.arguments as [Error];
      assert.ok(error instanceof HostStoreError && /the end of turn/.test(error.message));
    });

    it('a permanently failing store: every row ends discarded and whenIdle resolves', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('append', () => true, Infinity);
      const sent: MessageId[] = [];
      for (const text of ['a', 'b', 'c']) {
        const r = await send(sessionId, text);
        if (r.accepted) sent.push(r.messageId);
      }
      await host.whenIdle(sessionId);
      assert.equal(sent.length, 3);
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.equal(errors.filter((e) => /admission/.test(e.message)).length, 3);
      faulty.heal();
      await send(sessionId, 'd');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['d']);
    });
  });
}
