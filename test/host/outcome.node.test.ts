import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostInputError } from '../../host/errors.js';
import { createHost } from '../../host/createHost.js';
import { freshId, FRESH_ID_ATTEMPTS } from '../../host/ids.js';
import type { Host } from '../../host/types.js';
import type { SessionId, SessionView, TaskSurfaceId } from '../../protocol/index.js';
import { hostPerTest } from './fixture.js';
import { admitNext, goodValues, ids, makeHost, manualSurface, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/*
 * How a surface closed is decided once, by the fold of the log, and read with getOutcome; the pushed
 * view carries the open surface's pending phase; the Host's per-message memory stays bounded.
 */

for (const factory of storeFactories) {
  describe(`surface outcomes and pending in the view (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    hostPerTest(
      factory,
      { autoAdmit: false },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );

    const outcome = (sessionId: SessionId, surfaceId: TaskSurfaceId) => host.taskSurface.getOutcome({ sessionId, surfaceId });

    it('answers open with the pending phase, then submitted with the closing seq and the values', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      assert.deepEqual(await outcome(sessionId, surfaceId), { status: 'open', callId, pending: null });
      const submissionId = ids.submission();
      const accepted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId, values: goodValues });
      assert.ok(accepted.accepted);
      const pending = { submissionId, messageId: accepted.messageId, phase: 'queued' };
      assert.deepEqual(await outcome(sessionId, surfaceId), { status: 'open', callId, pending });
      const event = await admitNext(host, sessionId);
      assert.deepEqual(await outcome(sessionId, surfaceId), {
        status: 'submitted',
        callId,
        seq: event.seq,
        messageId: accepted.messageId,
        values: goodValues,
      });
    });

    it('answers dismissed and bypassed with the closing seq, and unknown for a surface the log never opened', async () => {
      const first = await manualSurface(host, driver);
      const dismissed = await host.taskSurface.dismiss({
        sessionId: first.sessionId,
        surfaceId: first.surfaceId,
        dismissalId: ids.dismissal(),
      });
      assert.ok(dismissed.dismissed);
      assert.deepEqual(await outcome(first.sessionId, first.surfaceId), {
        status: 'dismissed',
        callId: first.callId,
        seq: dismissed.eventSeq,
      });

      const second = await manualSurface(host, driver);
      await say(host, second.sessionId, 'I would rather just type');
      const bypass = await admitNext(host, second.sessionId);
      assert.deepEqual(await outcome(second.sessionId, second.surfaceId), { status: 'bypassed', callId: second.callId, seq: bypass.seq });

      assert.deepEqual(await outcome(second.sessionId, first.surfaceId), { status: 'unknown' }, "another session's surface");
      assert.deepEqual(await outcome('nobody' as SessionId, first.surfaceId), { status: 'unknown' });
      await assert.rejects(
        host.taskSurface.getOutcome({ sessionId: first.sessionId } as never),
        (e: Error) => e instanceof HostInputError && /^taskSurface\.getOutcome: invalid input: surfaceId/.test(e.message),
      );
    });

    it('a returned outcome is a copy: changing it changes nothing the next read sees', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      await admitNext(host, sessionId);
      const read = await outcome(sessionId, surfaceId);
      assert.ok(read.status === 'submitted');
      read.values.plan = 'tampered';
      const again = await outcome(sessionId, surfaceId);
      assert.ok(again.status === 'submitted');
      assert.equal(again.values.plan, goodValues.plan);
    });

    it('outcomes come from the log: the same after a restart, open again or unknown after a rewind', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const dismissed = await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      assert.ok(dismissed.dismissed);
      await host.dispose();
      await handle.reopen();
      host = makeHost(handle, { driver, autoAdmit: false });
      assert.deepEqual(await outcome(sessionId, surfaceId), { status: 'dismissed', callId, seq: dismissed.eventSeq });
      host.rewind(sessionId, dismissed.eventSeq - 1);
      assert.deepEqual(await outcome(sessionId, surfaceId), { status: 'open', callId, pending: null });
      host.rewind(sessionId, 1); // before the surface's tool result: the log never opened it
      assert.deepEqual(await outcome(sessionId, surfaceId), { status: 'unknown' });
    });

    it('a read-only session answers outcomes too (its transcript still shows them)', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const dismissed = await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      assert.ok(dismissed.dismissed);
      // A read-only copy of that log, as an archive viewer would store it.
      const archive = 'archive-1' as SessionId;
      handle.store.createSession({ sessionId: archive, title: 'archive', createdAt: 1, toolMode: 'native', readOnly: true, locale: 'en' });
      handle.store.appendMany(
        archive,
        handle.store.read(sessionId).map(({ seq: _seq, at, ...event }) => ({ event, at })),
      );
      assert.deepEqual(await outcome(archive, surfaceId), { status: 'dismissed', callId, seq: dismissed.eventSeq });
    });

    it('the pushed view carries the pending phase: queued, claiming, then the surface closes', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const seen: SessionView['taskSurface']['active'][] = [];
      const stop = host.watchSession(sessionId, (view) => seen.push(view.taskSurface.active));
      const submissionId = ids.submission();
      const accepted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId, values: goodValues });
      assert.ok(accepted.accepted);
      const claim = host.inbox.claimNext(sessionId)!;
      claim.commit();
      await host.whenIdle(sessionId);
      stop();
      const phases = seen.map((active) => (active ? (active.pending?.phase ?? 'none') : 'closed'));
      // Consecutive duplicates collapse: each publish says where the surface is.
      const distinct = phases.filter((phase, i) => phase !== phases[i - 1]);
      assert.deepEqual(distinct, ['none', 'queued', 'claiming', 'closed']);
      const queued = seen.find((active) => active?.pending?.phase === 'queued');
      assert.deepEqual(queued, { callId, surfaceId, pending: { submissionId, messageId: accepted.messageId, phase: 'queued' } });
    });

    it('a discarded submission leaves the view without pending and the surface open', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.equal(host.getView(sessionId).taskSurface.active?.pending?.phase, 'queued');
      host.inbox.claimNext(sessionId)!.discard('rejected');
      assert.deepEqual(host.getView(sessionId).taskSurface.active?.pending, null);
      const again = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(again.accepted, 'editable again');
    });
  });
}

describe('bounded per-message memory', () => {
  it('session.send remembers at most 2,000 answers per session, not one per message forever', async () => {
    const handle = await storeFactories[0]!.create();
    const host = createHost({ store: handle.store });
    const sessionId = host.openSession();
    const first = { sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'first' };
    const answer = await host.session.send(first);
    assert.ok(answer.accepted);
    await host.whenIdle(sessionId);
    // A retry within the window gets the very first answer.
    assert.deepEqual(await host.session.send(first), answer);
    for (let i = 0; i < 2_000; i++) {
      await host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: `m${i}` });
      if (i % 50 === 0) await host.whenIdle(sessionId);
    }
    await host.whenIdle(sessionId);
    // The first answer was forgotten; the log still answers the retry, and nothing is admitted twice.
    const lastSeq = host.getView(sessionId).lastSeq;
    const late = await host.session.send(first);
    assert.ok(late.accepted);
    assert.notEqual(late.itemId, answer.itemId, 'answered from the log, not from memory');
    await host.whenIdle(sessionId);
    assert.equal(host.getView(sessionId).lastSeq, lastSeq);
    await host.dispose();
    await handle.cleanup();
  });

  it('freshId gives up with a clear error when a minter keeps repeating used ids', () => {
    let calls = 0;
    assert.equal(
      freshId(
        'item',
        () => `i${++calls}`,
        (id) => id !== 'i3',
      ),
      'i3',
    );
    calls = 0;
    assert.throws(
      () =>
        freshId(
          'session',
          () => {
            calls++;
            return 'same';
          },
          () => true,
        ),
      new Error(`the session id minter returned ${FRESH_ID_ATTEMPTS} ids in a row that are already in use`),
    );
    assert.equal(calls, FRESH_ID_ATTEMPTS);
  });

  it('a host whose session minter repeats itself refuses the second session clearly and keeps the first', async () => {
    const handle = await storeFactories[0]!.create();
    const host = createHost({ store: handle.store, ids: { session: () => 'only-one' } });
    const first = host.openSession();
    assert.throws(() => host.openSession(), /the session id minter returned 1000 ids in a row that are already in use/);
    assert.deepEqual(
      host.listSessions().map((s) => s.sessionId),
      [first],
    );
    await host.dispose();
    await handle.cleanup();
  });
});
