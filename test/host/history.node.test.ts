import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorruptEventError } from '../../host/store/types.js';
import type { Host } from '../../host/types.js';
import type { SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { assertProjectionIsFold, hostPerTest } from './fixture.js';
import { admitNext, goodValues, ids, makeHost, manualSurface, sampleModel, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

for (const factory of storeFactories) {
  describe(`fork, rewind, restart and isolation (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    hostPerTest(
      factory,
      { autoAdmit: false },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );

    it('rewind cuts the session back: a later close stops counting and the surface is open again', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      const openSeq = host.getView(sessionId).lastSeq;
      const dismissalId = ids.dismissal();
      await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId });
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      host.rewind(sessionId, openSeq);
      assert.equal(host.getView(sessionId).taskSurface.active?.surfaceId, surfaceId);
      assertProjectionIsFold(host, handle.store, sessionId);
      const page = await host.readLog(sessionId, { limit: 100 });
      assert.ok(
        page.events.every((e) => e.seq <= openSeq),
        'the transcript shows the effective log',
      );
      assert.equal(page.lastSeq, openSeq + 2);
      // The dismissal no longer counts: the same id dismisses again (a new event).
      const again = await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId });
      assert.deepEqual(again, { dismissed: true, eventSeq: openSeq + 3 });
      assert.throws(() => host.rewind(sessionId, 10_000), /toSeq must be an integer from 0/);
    });

    it('rewind discards queued and claimed rows: pending records clear and the surface stays open', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      const claim = host.inbox.claimNext(sessionId)!;
      await say(host, sessionId, 'queued behind');
      host.rewind(sessionId, host.getView(sessionId).lastSeq);
      assert.deepEqual(host.getView(sessionId).queue, []);
      assert.deepEqual(host.inbox.claimed(sessionId), []);
      assert.throws(() => claim.commit(), /already settled/);
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      assert.ok(active.active);
      assert.equal(active.pending, null);
    });

    it('fork copies the prefix: inherited events keep their meaning, nothing process-local is copied', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(submitted.accepted);
      const { store } = handle;
      const writes: string[] = [];
      const { append, appendMany } = store;
      store.append = (...args) => (writes.push('append'), append.apply(store, args));
      store.appendMany = (...args) => (writes.push('appendMany'), appendMany.apply(store, args));
      const fork = host.fork(sessionId, { title: 'Copy' });
      store.append = append;
      store.appendMany = appendMany;
      assert.deepEqual(writes, ['appendMany'], 'the prefix and its marker are one batch (one transaction)');
      assert.notEqual(fork, sessionId);
      const view = host.getView(fork);
      assert.deepEqual(view.taskSurface.active, { callId, surfaceId, pending: null });
      assert.deepEqual(view.queue, [], 'queue rows are not copied');
      const active = await host.taskSurface.getActive({ sessionId: fork, surfaceId });
      assert.ok(active.active);
      assert.equal(active.pending, null, 'the pending submission stays with the source');
      const forkedEvents = handle.store.read(fork);
      const sourceEvents = handle.store.read(sessionId);
      assert.deepEqual(forkedEvents.slice(0, -1), sourceEvents);
      assert.deepEqual(
        { ...forkedEvents.at(-1), at: 0 },
        { seq: sourceEvents.length + 1, at: 0, type: 'session/forked', from: sessionId, throughSeq: sourceEvents.length },
      );
      assert.equal(host.listSessions().find((s) => s.sessionId === fork)?.title, 'Copy');
      // A fork through an earlier seq has no surface yet.
      const early = host.fork(sessionId, { throughSeq: 1 });
      assert.equal(host.getView(early).taskSurface.active, null);
      assertProjectionIsFold(host, handle.store, fork);
    });

    it('isolates sessions: nothing of one is visible through another id', async () => {
      const a = await manualSurface(host, driver);
      const b = host.openSession();
      await host.taskSurface.submit({ sessionId: a.sessionId, surfaceId: a.surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.deepEqual(host.getView(b).taskSurface, { active: null });
      assert.deepEqual(host.getView(b).queue, []);
      assert.deepEqual(await host.taskSurface.getActive({ sessionId: b, surfaceId: a.surfaceId }), { active: false, reason: 'not-open' });
      assert.deepEqual(
        await host.taskSurface.submit({ sessionId: b, surfaceId: a.surfaceId, submissionId: ids.submission(), values: goodValues }),
        { accepted: false, reason: 'not-open' },
      );
      const [row] = host.getView(a.sessionId).queue;
      assert.deepEqual(await host.session.updateQueue({ sessionId: b, op: 'remove', itemId: row!.id }), {
        ok: false,
        reason: 'queue-item-not-found',
      });
      assert.equal(host.inbox.claimNext(b), null);
    });

    it('a new host over the same store recovers every session from its log', async () => {
      const open = await manualSurface(host, driver);
      const closed = await manualSurface(host, driver);
      const pendingOne = await manualSurface(host, driver);
      const closedSubmission = ids.submission();
      const submitted = await host.taskSurface.submit({
        sessionId: closed.sessionId,
        surfaceId: closed.surfaceId,
        submissionId: closedSubmission,
        values: goodValues,
      });
      await admitNext(host, closed.sessionId);
      const lost = await host.taskSurface.submit({
        sessionId: pendingOne.sessionId,
        surfaceId: pendingOne.surfaceId,
        submissionId: ids.submission(),
        values: goodValues,
      });
      assert.ok(submitted.accepted && lost.accepted);
      host.inbox.claimNext(pendingOne.sessionId);
      const logs = new Map([open, closed, pendingOne].map((s) => [s.sessionId, handle.store.read(s.sessionId)]));
      await host.dispose();
      const store = await handle.reopen();
      const driver2 = new ScriptedDriver();
      host = makeHost(handle, { driver: driver2, autoAdmit: false });
      for (const { sessionId } of [open, closed, pendingOne]) {
        assert.deepEqual(
          store.read(sessionId).filter((e) => e.type === 'user/message'),
          logs.get(sessionId)!.filter((e) => e.type === 'user/message'),
          'no user message lost or doubled',
        );
        assertProjectionIsFold(host, store, sessionId);
      }
      for (const s of [open, pendingOne]) {
        const active = await host.taskSurface.getActive({ sessionId: s.sessionId, surfaceId: s.surfaceId });
        assert.ok(active.active, 'an open surface is editable again');
        assert.equal(active.pending, null);
      }
      assert.deepEqual(await host.taskSurface.getActive({ sessionId: closed.sessionId, surfaceId: closed.surfaceId }), {
        active: false,
        reason: 'not-open',
      });
      const retry = await host.taskSurface.submit({
        sessionId: closed.sessionId,
        surfaceId: closed.surfaceId,
        submissionId: closedSubmission,
        values: goodValues,
      });
      assert.deepEqual(retry, submitted, 'a retry after the restart returns the first result');
      // Deterministic minters restart from 1 with the new host: ids the log used are skipped.
      driver2.showSurface();
      await say(host, closed.sessionId, 'show another');
      await admitNext(host, closed.sessionId);
      const next = host.getView(closed.sessionId).taskSurface.active!;
      assert.notEqual(next.surfaceId, closed.surfaceId);
      assert.notEqual(next.callId, closed.callId);
      const resubmit = await host.taskSurface.submit({
        sessionId: pendingOne.sessionId,
        surfaceId: pendingOne.surfaceId,
        submissionId: ids.submission(),
        values: goodValues,
      });
      assert.equal(resubmit.accepted, true);
    });

    it('lists sessions opened in the same millisecond in opening order, also after a restart', async () => {
      await host.dispose();
      host = makeHost(handle, { clock: () => 5_000 });
      // Ids that sort against the opening order: a store that breaks ties by id would reverse them.
      const opened = ['z-1', 'y-2', 'x-3'].map((id) => host.openSession({ sessionId: id as SessionId, title: id }));
      opened.push(host.fork(opened[0]!, { title: 'fork of z-1' }));
      const order = () => host.listSessions().map((s) => s.sessionId);
      assert.deepEqual(order(), opened);
      await host.dispose();
      await handle.reopen();
      host = makeHost(handle, { clock: () => 5_000 });
      assert.deepEqual(order(), opened, 'the same order from the stored records');
    });

    it('reports a corrupt stored event clearly instead of folding it', async () => {
      const { sessionId } = await manualSurface(host, driver);
      await host.dispose();
      await handle.corrupt(sessionId, 2, JSON.stringify({ seq: 2, at: 1, type: 'turn/started', turnId: 42 }));
      await handle.reopen();
      host = makeHost(handle, { driver, autoAdmit: false });
      assert.throws(
        () => host.getView(sessionId),
        (e: Error) => e instanceof CorruptEventError && /seq 2/.test(e.message),
      );
    });

    it('a retried send with the same messageId is admitted once', async () => {
      const sessionId = host.openSession();
      const request = { sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'hello' };
      const first = await host.session.send(request);
      assert.deepEqual(await host.session.send(request), first);
      assert.equal(host.getView(sessionId).queue.length, 1);
      await admitNext(host, sessionId);
      const afterCommit = await host.session.send(request);
      assert.ok(afterCommit.accepted);
      assert.equal(host.getView(sessionId).queue.length, 0);
      assert.equal(handle.store.read(sessionId).filter((e) => e.type === 'user/message').length, 1);
    });

    it('the projection equals a fresh fold after every kind of event', async () => {
      const sessionId = host.openSession();
      const check = () => assertProjectionIsFold(host, handle.store, sessionId);
      driver.showSurface(sampleModel('One'));
      await say(host, sessionId, 'first');
      await admitNext(host, sessionId);
      check();
      await say(host, sessionId, 'bypass');
      check();
      driver.showSurface(sampleModel('Two'));
      await admitNext(host, sessionId);
      check();
      const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId as TaskSurfaceId;
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      check();
      await admitNext(host, sessionId);
      check();
      host.rewind(sessionId, 3);
      check();
    });
  });
}
