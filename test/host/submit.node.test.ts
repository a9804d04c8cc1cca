import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { HostInputError } from '../../host/errors.js';
import type { Host } from '../../host/types.js';
import { formatSubmission, parseTaskSurfaceModel, type SessionId, type SessionView, type TaskSurfaceId } from '../../protocol/index.js';
import { hostPerTest } from './fixture.js';
import { admitNext, goodValues, ids, manualSurface, sampleModel, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

for (const factory of storeFactories) {
  describe(`taskSurface.submit (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    let sessionId: SessionId;
    let surfaceId: TaskSurfaceId;
    hostPerTest(
      factory,
      { autoAdmit: false },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );
    beforeEach(async () => {
      ({ sessionId, surfaceId } = await manualSurface(host, driver));
    });
    const submit = (values: Record<string, unknown> = goodValues, submissionId = ids.submission(), note?: string) =>
      host.taskSurface.submit({ sessionId, surfaceId, submissionId, values: values as never, ...(note ? { note } : {}) });
    const pending = async () => {
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      return active.active ? active.pending : 'not-open';
    };

    it('admits one queued user message whose row keeps the full correlated source', async () => {
      const submissionId = ids.submission();
      const result = await submit({ why: 'cheaper', plan: 'a' }, submissionId, 'thanks');
      assert.ok(result.accepted);
      assert.equal(result.phase, 'queued');
      const [row, ...rest] = host.getView(sessionId).queue;
      assert.equal(rest.length, 0);
      assert.equal(row?.messageId, result.messageId);
      assert.deepEqual(row?.source.taskSurface, {
        version: 1,
        submissionId,
        callId: host.getView(sessionId).taskSurface.active!.callId,
        surfaceId,
        values: { plan: 'a', why: 'cheaper' },
      });
      assert.equal(row?.source.kind, 'user');
      const model = parseTaskSurfaceModel(sampleModel());
      assert.ok(model.ok);
      assert.equal(row?.text, formatSubmission(model.model, { plan: 'a', why: 'cheaper' }, 'thanks', { locale: 'en' }));
      assert.deepEqual(await pending(), { submissionId, messageId: result.messageId, phase: 'queued' });
    });

    it("a watcher that changes a view's queue row changes nothing the host holds", async () => {
      const result = await submit({ plan: 'a', why: 'cheaper' });
      assert.ok(result.accepted);
      const [row] = host.getView(sessionId).queue;
      (row!.source.taskSurface!.values as Record<string, unknown>).plan = 'b';
      row!.source.rpcId = 'changed' as never;
      // Views share one copy per row (not the row itself): the admitted message is the host's.
      const message = await admitNext(host, sessionId);
      assert.deepEqual(message.source.taskSurface!.values, { plan: 'a', why: 'cheaper' });
      assert.notEqual(message.source.rpcId, 'changed');
    });

    it('returns the first result for the same submissionId and submission-pending for another', async () => {
      const submissionId = ids.submission();
      const first = await submit(goodValues, submissionId);
      assert.deepEqual(await submit({ plan: 'b', why: 'other' }, submissionId), first);
      assert.deepEqual(await submit(goodValues), { accepted: false, reason: 'submission-pending' });
      assert.equal(host.getView(sessionId).queue.length, 1);
    });

    it('turns claiming synchronously, before the queue snapshot without the row is published', async () => {
      const result = await submit();
      assert.ok(result.accepted);
      const seen: { queue: number; pending: ReturnType<typeof pending> }[] = [];
      const stop = host.watchSession(sessionId, (view: SessionView) => seen.push({ queue: view.queue.length, pending: pending() }));
      const claim = host.inbox.claimNext(sessionId);
      stop();
      assert.ok(claim);
      const afterClaim = seen.at(-1)!;
      assert.equal(afterClaim.queue, 0);
      assert.equal(((await afterClaim.pending) as { phase: string }).phase, 'claiming');
      assert.deepEqual(
        host.inbox.claimed(sessionId).map((r) => r.messageId),
        [result.messageId],
      );
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: claim.itemId }), {
        ok: false,
        reason: 'queue-item-not-found',
      });
      assert.deepEqual(await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }), {
        dismissed: false,
        reason: 'submission-pending',
      });
    });

    it('commit: the durable user message closes the surface and clears the claim', async () => {
      const submissionId = ids.submission();
      const result = await submit(goodValues, submissionId);
      assert.ok(result.accepted);
      const event = await admitNext(host, sessionId);
      assert.equal(event.messageId, result.messageId);
      assert.equal(event.source.taskSurface?.submissionId, submissionId);
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      assert.equal(await pending(), 'not-open');
      assert.deepEqual(await submit(goodValues, submissionId), result, 'a retry still gets the first result');
      assert.deepEqual(await submit(), { accepted: false, reason: 'not-open' });
      const { events } = await host.readLog(sessionId, { limit: 100 });
      assert.equal(events.filter((e) => e.type === 'user/message' && e.source.taskSurface).length, 1);
      assert.ok(
        events.some((e) => e.type === 'turn/started' && e.seq > event.seq),
        'the submission starts the next turn',
      );
    });

    for (const how of ['reject', 'remove'] as const) {
      it(`discard (${how}): the claim clears and the surface stays open and editable`, async () => {
        const result = await submit();
        assert.ok(result.accepted);
        if (how === 'reject') host.inbox.claimNext(sessionId)!.discard('rejected');
        else {
          const [row] = host.getView(sessionId).queue;
          assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: row!.id }), { ok: true });
        }
        assert.equal(await pending(), null);
        assert.equal(host.getView(sessionId).taskSurface.active?.surfaceId, surfaceId);
        assert.equal(host.getView(sessionId).queue.length, 0);
        const again = await submit();
        assert.equal(again.accepted, true);
      });
    }

    it('disposal before durability discards: closing the session clears a queued or claiming record', async () => {
      for (const claimFirst of [false, true]) {
        const result = await submit();
        assert.ok(result.accepted);
        if (claimFirst) assert.ok(host.inbox.claimNext(sessionId));
        host.closeSession(sessionId);
        assert.equal(await pending(), null, 'the surface is open and editable again');
        assert.equal(host.getView(sessionId).queue.length, 0);
      }
      const { events } = await host.readLog(sessionId, { limit: 100 });
      assert.equal(events.filter((e) => e.type === 'user/message' && e.source.taskSurface).length, 0);
    });

    it('refuses edit and steer of a task-surface row', async () => {
      await submit();
      const [row] = host.getView(sessionId).queue;
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'edit', itemId: row!.id, text: 'x' }), {
        ok: false,
        reason: 'task-surface-row',
      });
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'steer', itemId: row!.id }), {
        ok: false,
        reason: 'task-surface-row',
      });
      assert.deepEqual(host.getView(sessionId).queue, [row]);
    });

    it('answers stale, not-open and invalid-submission', async () => {
      assert.deepEqual(
        await host.taskSurface.submit({
          sessionId,
          surfaceId: 'other' as TaskSurfaceId,
          submissionId: ids.submission(),
          values: goodValues,
        }),
        { accepted: false, reason: 'stale' },
      );
      assert.deepEqual(await submit({ plan: 'zzz', why: 'x' }), { accepted: false, reason: 'invalid-submission' });
      assert.deepEqual(await submit({ plan: 'a', why: 'x', extra: 1 }), { accepted: false, reason: 'invalid-submission' });
      assert.deepEqual(await submit({ plan: 'a', why: '  ' }), { accepted: false, reason: 'invalid-submission' });
      assert.deepEqual(
        await host.taskSurface.submit({ sessionId: 'nope' as SessionId, surfaceId, submissionId: ids.submission(), values: goodValues }),
        { accepted: false, reason: 'not-open' },
      );
      await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() });
      assert.deepEqual(await submit(), { accepted: false, reason: 'not-open' });
      assert.deepEqual(await host.taskSurface.getActive({ sessionId, surfaceId }), { active: false, reason: 'not-open' });
    });

    it('rejects malformed requests at the edge with a clear error', async () => {
      await assert.rejects(
        host.taskSurface.submit({ sessionId, surfaceId, values: {} } as never),
        (e: Error) => e instanceof HostInputError && /submissionId/.test(e.message),
      );
      await assert.rejects(host.taskSurface.getActive({ sessionId: '', surfaceId } as never), /sessionId must not be empty/);
    });

    it('an ordinary user message that becomes durable closes the surface (bypass)', async () => {
      await say(host, sessionId, 'I will just type it');
      assert.ok(host.getView(sessionId).taskSurface.active, 'a queued message does not bypass yet');
      await admitNext(host, sessionId);
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      assert.deepEqual(await submit(), { accepted: false, reason: 'not-open' });
    });

    it('a read-only session offers no actionable surface', async () => {
      const ro = host.openSession({ readOnly: true });
      assert.deepEqual(await host.taskSurface.getActive({ sessionId: ro, surfaceId }), { active: false, reason: 'not-open' });
    });
  });

  describe(`taskSurface.dismiss (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    hostPerTest(
      factory,
      { autoAdmit: false },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );

    it('appends one event, starts no turn, and a retry returns the original result', async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const before = host.getView(sessionId).lastSeq;
      const dismissalId = ids.dismissal();
      const result = await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId });
      assert.deepEqual(result, { dismissed: true, eventSeq: before + 1 });
      assert.deepEqual(await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId }), result);
      assert.equal(host.getView(sessionId).lastSeq, before + 1);
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      assert.equal(host.getView(sessionId).turn, 'idle');
      const { events } = await host.readLog(sessionId, { limit: 5 });
      assert.deepEqual(events.at(-1), {
        seq: before + 1,
        at: events.at(-1)!.at,
        type: 'task-surface/dismissed',
        callId,
        surfaceId,
        dismissalId,
      });
      assert.deepEqual(await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }), {
        dismissed: false,
        reason: 'not-open',
      });
    });

    it('answers stale for another surfaceId and submission-pending while queued', async () => {
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      assert.deepEqual(await host.taskSurface.dismiss({ sessionId, surfaceId: 'x' as TaskSurfaceId, dismissalId: ids.dismissal() }), {
        dismissed: false,
        reason: 'stale',
      });
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.deepEqual(await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }), {
        dismissed: false,
        reason: 'submission-pending',
      });
    });
  });
}
