// A store that throws never wedges a session: every admission exit is a durable message or an
// explicit discard, a turn always ends, and the session goes on with the next row.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HostStoreError } from '../../host/errors.js';
import { appending, INJECTED } from './faultyStore.js';
import { goodValues, ids, withOpenSurface } from './helpers.js';
import { storeFactories } from './stores.js';
import { driver, errors, faulty, handle, host, log, restart, send, start, types, userTexts, useFaultyHost } from './storeErrorsHarness.js';

for (const factory of storeFactories) {
  describe(`store errors never wedge a session (${factory.name} store)`, () => {
    useFaultyHost(factory);

    it('a submission whose user message cannot be stored is discarded: the surface is open again and the next one is admitted', async () => {
      const { sessionId, surfaceId, callId } = await withOpenSurface(host, driver);
      faulty.fail('append', appending('user/message'));
      const first = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.equal(first.accepted, true);
      await host.whenIdle(sessionId);
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      assert.ok(active.active);
      assert.equal(active.pending, null, 'the Dock is editable again');
      assert.equal(host.getView(sessionId).turn, 'idle');
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.equal(errors.length, 1);
      assert.ok(errors[0] instanceof HostStoreError);
      assert.match(errors[0].message, /session .*: the store failed during admission of message .*: disk I\/O error \(injected\)/);
      assert.equal(log(sessionId).filter((e) => e.type === 'user/message').length, 1, 'only the first prompt is durable');
      // The same surface takes the next submission, which becomes durable and starts a turn.
      const second = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(second.accepted);
      await host.whenIdle(sessionId);
      const durable = log(sessionId).filter((e) => e.type === 'user/message' && e.source.taskSurface?.callId === callId);
      assert.equal(durable.length, 1);
      assert.equal(durable[0]!.type === 'user/message' && durable[0]!.messageId, second.messageId);
      assert.equal(types(sessionId).at(-1), 'turn/ended:completed');
    });

    it('an ordinary message that cannot be stored leaves the queue; the next is admitted; a restart brings it back once', async () => {
      const sessionId = host.openSession({ title: 'T' });
      await host.whenIdle(sessionId);
      faulty.fail(
        'append',
        appending('user/message', (e) => e.text === 'lost?'),
      );
      await send(sessionId, 'lost?');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), []);
      assert.equal(errors.length, 1);
      await send(sessionId, 'next one');
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['next one']);
      assert.equal(types(sessionId).at(-1), 'turn/ended:completed');
      // The failed message was never durable: its stored row stays and the next start admits it once.
      await restart();
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['next one', 'lost?']);
      await restart();
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['next one', 'lost?']);
    });

    it('by hand: commit throws HostStoreError, the claim is settled as a discard, the next claim commits', async () => {
      await host.dispose();
      start(false);
      const sessionId = host.openSession({ title: 'T' });
      await send(sessionId, 'first');
      await send(sessionId, 'second');
      faulty.fail('append', appending('user/message'));
      const claim = host.inbox.claimNext(sessionId)!;
      assert.throws(
        () => claim.commit(),
        (e: unknown) => e instanceof HostStoreError && INJECTED.test(e.message),
      );
      assert.deepEqual(host.inbox.claimed(sessionId), []);
      assert.throws(() => claim.commit(), /already settled/);
      const next = host.inbox.claimNext(sessionId)!;
      assert.equal(next.row.text, 'second');
      next.commit();
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['second']);
    });

    it('a turn whose turn/started cannot be stored ends at once; the next message starts a turn that answers both', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('append', appending('turn/started'));
      await send(sessionId, 'one');
      await host.whenIdle(sessionId);
      assert.equal(host.getView(sessionId).turn, 'idle');
      assert.equal(driver.turns.length, 0);
      assert.ok(errors.some((e) => e instanceof HostStoreError && /the start of turn/.test(e.message)));
      await send(sessionId, 'two');
      await host.whenIdle(sessionId);
      assert.equal(driver.turns.length, 1);
      assert.deepEqual(types(sessionId), ['user/message', 'user/message', 'turn/started', 'assistant/message', 'turn/ended:completed']);
    });

    it('a turn whose turn/ended cannot be stored still ends: the loop goes on with the next message', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('append', appending('turn/ended'));
      await send(sessionId, 'one');
      await host.whenIdle(sessionId);
      assert.equal(host.getView(sessionId).turn, 'idle');
      assert.ok(errors.some((e) => /the end of turn/.test(e.message)));
      await send(sessionId, 'two');
      await host.whenIdle(sessionId);
      assert.equal(driver.turns.length, 2);
      assert.equal(types(sessionId).at(-1), 'turn/ended:completed');
    });

    it('after a restart, a turn whose start or end the store refused is answered (a turn; interrupted and rerun)', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('append', appending('turn/started'));
      await send(sessionId, 'never started');
      await host.whenIdle(sessionId);
      await restart();
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(
        driver.turns.map((t) => t.input.map((m) => m.text)),
        [['never started']],
      );
      faulty.fail('append', appending('turn/ended'));
      await send(sessionId, 'never ended');
      await host.whenIdle(sessionId);
      await restart();
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(
        driver.turns.map((t) => t.input.map((m) => m.text)),
        [['never ended']],
      );
      assert.deepEqual(types(sessionId).slice(-4), ['turn/ended:interrupted', 'turn/started', 'assistant/message', 'turn/ended:completed']);
    });

    it('a tool result that cannot be stored fails the turn, which still ends and is logged', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('append', appending('tool/result'));
      driver.showSurface();
      await send(sessionId, 'show');
      await host.whenIdle(sessionId);
      const ended = log(sessionId).at(-1)!;
      assert.equal(ended.type === 'turn/ended' && ended.outcome, 'failed');
      assert.match(ended.type === 'turn/ended' ? (ended.error ?? '') : '', INJECTED);
      await send(sessionId, 'again');
      await host.whenIdle(sessionId);
      assert.equal(types(sessionId).at(-1), 'turn/ended:completed');
    });

    it('a surface whose tool result cannot be read answers HostStoreError; the next call reads it', async () => {
      const { sessionId, surfaceId } = await withOpenSurface(host, driver);
      await restart(); // the model is read from the store again
      faulty.fail('findCall', () => true, 2);
      const reading = (e: unknown) => e instanceof HostStoreError && /reading the surface's tool result/.test(e.message);
      await assert.rejects(host.taskSurface.getActive({ sessionId, surfaceId }), reading);
      await assert.rejects(host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues }), reading);
      assert.equal((await host.taskSurface.getActive({ sessionId, surfaceId })).active, true);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(submitted.accepted);
      await host.whenIdle(sessionId);
    });

    it('a dismissal that cannot be stored is refused with the error; the surface stays open and a retry works', async () => {
      const { sessionId, surfaceId } = await withOpenSurface(host, driver);
      faulty.fail('append', appending('task-surface/dismissed'));
      const dismissalId = ids.dismissal();
      await assert.rejects(
        host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId }),
        (e: unknown) => e instanceof HostStoreError && /during taskSurface\.dismiss: disk I\/O error \(injected\)/.test(e.message),
      );
      assert.ok(host.getView(sessionId).taskSurface.active);
      const retried = await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId });
      assert.ok(retried.dismissed);
      assert.equal(host.getView(sessionId).taskSurface.active, null);
    });

    it('removing a queued message when the store cannot delete it is refused; the row stays queued', async () => {
      await host.dispose();
      start(false);
      const sessionId = host.openSession({ title: 'T' });
      const sent = await send(sessionId, 'keep me');
      assert.ok(sent.accepted);
      faulty.fail('deleteQueued');
      await assert.rejects(
        host.session.updateQueue({ sessionId, op: 'remove', itemId: sent.itemId }),
        (e: unknown) => e instanceof HostStoreError && /removing a queued message/.test(e.message),
      );
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => r.text),
        ['keep me'],
      );
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: sent.itemId }), { ok: true });
      assert.deepEqual(host.getView(sessionId).queue, []);
    });

    it('a rewind refused (bad toSeq, or its marker cannot be stored) drops nothing that waited', async () => {
      await host.dispose();
      start(false);
      const sessionId = host.openSession({ title: 'T' });
      await send(sessionId, 'waiting');
      assert.throws(() => host.rewind(sessionId, 99), /toSeq must be an integer from 0 to 0/);
      faulty.fail('append', appending('session/rewound'));
      assert.throws(() => host.rewind(sessionId, 0), INJECTED);
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => r.text),
        ['waiting'],
      );
      assert.equal(handle.store.listQueued(sessionId).length, 1);
      host.rewind(sessionId, 0);
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.deepEqual(handle.store.listQueued(sessionId), []);
    });

    it('a message the store cannot save is refused with HostStoreError; the same messageId may be sent again', async () => {
      const sessionId = host.openSession({ title: 'T' });
      faulty.fail('saveQueued');
      const request = { sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'retry me' };
      await assert.rejects(
        host.session.send(request),
        (e: unknown) => e instanceof HostStoreError && /saving a queued message/.test(e.message),
      );
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.deepEqual(await host.session.send(request), { accepted: true, messageId: request.messageId, itemId: 'item-2' });
      await host.whenIdle(sessionId);
      assert.deepEqual(userTexts(sessionId), ['retry me']);
    });
  });
}
