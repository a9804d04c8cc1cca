// What schedule_follow_up does in the cases kinds.node.test.ts does not reach: the date-time forms
// `details` accepts, the memory scheduler, what the scheduler is asked for, the `now` boundary,
// read-only and Remote-access checks, the data each decision records, a done or id-less card, and a
// kind called by a host whose context carries no data.
// (The first mutation run over host/actionCards/kinds/scheduleFollowUp.ts left these unpinned.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActionCardsService, type ActionCardsOptions } from '../../host/actionCards/index.js';
import {
  createMemoryFollowUps,
  scheduleFollowUpKind,
  ScheduleFollowUpDetailsSchema,
  type FollowUpScheduler,
} from '../../host/actionCards/kinds/index.js';
import type { JsonValue } from '../../protocol/index.js';
import { createFakeHost } from './fakeHost.js';
import { cardTurn, followUpArgs, NOW } from './helpers.js';
import { olderContext } from './olderContext.js';

const ISO_MESSAGE = 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z';

function world(kindOptions: Parameters<typeof scheduleFollowUpKind>[0] = {}, options: ActionCardsOptions & { readOnly?: boolean } = {}) {
  const host = createFakeHost();
  const service = createActionCardsService(host.api, options);
  const followUps = createMemoryFollowUps();
  service.register(scheduleFollowUpKind({ scheduler: followUps, now: () => NOW, ...kindOptions }));
  const sessionId = host.open({ readOnly: options.readOnly ?? false });
  const decisions = () =>
    host.log(sessionId).flatMap((e) => (e.type === 'action-cards/decision' ? [{ phase: e.phase, data: e.data ?? {} }] : []));
  return { host, service, sessionId, followUps, decisions };
}

const suggested = (suggestedAt: string) => ScheduleFollowUpDetailsSchema.safeParse({ topic: 'Visa', suggestedAt });

describe('schedule_follow_up details', () => {
  it('accepts minutes without seconds and fractions of any length', () => {
    for (const at of ['2026-12-06T09:00Z', '2026-12-06T09:00:00.123Z', '2026-12-06T09:00:00.5-05:00']) {
      assert.deepEqual(suggested(at), { success: true, data: { topic: 'Visa', suggestedAt: at } }, at);
    }
  });

  it('refuses an expanded year and a missing zone with the whole message', () => {
    for (const at of ['+002026-12-06T09:00:00Z', '2026-12-06T09:00:00']) {
      const result = suggested(at);
      assert.equal(result.success, false, at);
      assert.deepEqual(
        result.error?.issues.map((i) => [i.path, i.message]),
        [[['suggestedAt'], ISO_MESSAGE]],
      );
    }
  });

  it('refuses a blank topic as blank', () => {
    const result = ScheduleFollowUpDetailsSchema.safeParse({ topic: '   ', suggestedAt: '2026-12-06T09:00:00Z' });
    assert.deepEqual(
      result.error?.issues.map((i) => [i.path, i.message]),
      [[['topic'], 'must not be blank']],
    );
  });
});

describe('createMemoryFollowUps', () => {
  it('cancels a pending follow-up once, never a fired or unknown one', async () => {
    const followUps = createMemoryFollowUps();
    const input = { topic: 't', at: '2026-12-06T09:00:00Z', sourceCallId: 'c1' };
    assert.deepEqual(await followUps.schedule(input), { followUpId: 'follow-up-1' });
    assert.equal(await followUps.status('follow-up-1'), 'pending');
    assert.equal(await followUps.cancel('follow-up-1'), true);
    assert.equal(await followUps.status('follow-up-1'), 'gone');
    assert.equal(await followUps.cancel('follow-up-1'), false);
    assert.deepEqual(await followUps.schedule(input), { followUpId: 'follow-up-2' });
    followUps.fire('follow-up-2');
    assert.equal(await followUps.cancel('follow-up-2'), false);
    assert.equal(await followUps.status('follow-up-2'), 'done');
    assert.equal(await followUps.cancel('follow-up-9'), false);
  });

  it('firing an unknown follow-up makes nothing appear', async () => {
    const followUps = createMemoryFollowUps();
    followUps.fire('follow-up-1');
    assert.equal(await followUps.status('follow-up-1'), 'gone');
  });
});

describe('schedule_follow_up schedule', () => {
  it('asks the scheduler for the topic, the time and the card', async () => {
    const asked: unknown[] = [];
    const scheduler: FollowUpScheduler = {
      async schedule(input) {
        asked.push(input);
        return { followUpId: 'f7' };
      },
      cancel: async () => true,
      status: async () => 'pending',
    };
    const { host, service, sessionId, decisions } = world({ scheduler });
    const callId = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule' }), { status: 'accepted', phase: 'scheduled' });
    assert.deepEqual(asked, [{ topic: 'Visa application', at: '2026-12-06T09:00:00Z', sourceCallId: callId }]);
    assert.deepEqual(decisions(), [{ phase: 'scheduled', data: { followUpId: 'f7', at: '2026-12-06T09:00:00Z' } }]);
  });

  it('measures the past by the kind’s clock: the very moment is past, a millisecond later is not', async () => {
    const { host, service, sessionId } = world({ now: () => Date.parse('2999-01-01T00:00:00Z') });
    const callId = await cardTurn(host, sessionId, followUpArgs());
    const at = (value: string) => service.act({ sessionId, callId, verb: 'schedule', payload: { at: value } });
    assert.deepEqual(await at('2999-01-01T00:00:00Z'), { status: 'refused', reason: 'in-the-past' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule' }), { status: 'refused', reason: 'in-the-past' });
    assert.deepEqual(await at('2999-01-01T00:00:00.001Z'), { status: 'accepted', phase: 'scheduled' });
  });

  it('a second schedule settles on the first follow-up', async () => {
    const { host, service, sessionId, decisions, followUps } = world();
    const callId = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId, verb: 'schedule' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule' }), { status: 'settled', phase: 'scheduled' });
    assert.equal(decisions().length, 1);
    assert.equal(await followUps.status('follow-up-2'), 'gone');
  });

  it('schedule and cancel write, so a read-only session refuses both', async () => {
    const { host, service, sessionId } = world({}, { readOnly: true });
    const callId = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule' }), { status: 'refused', reason: 'read-only' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'refused', reason: 'read-only' });
  });

  it('cancel needs Remote access like schedule', async () => {
    const { host, service, sessionId } = world({}, { globalAccess: () => false });
    const callId = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'refused', reason: 'access-denied' });
  });
});

describe('schedule_follow_up decisions', () => {
  it('done, cancelled by the user and cancelled outside each record the follow-up id', async () => {
    const { host, service, sessionId, decisions, followUps } = world();
    const fired = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId: fired, verb: 'schedule' });
    followUps.fire('follow-up-1');
    assert.deepEqual(await service.act({ sessionId, callId: fired, verb: 'dismiss' }), { status: 'settled', phase: 'done' });
    const cancelled = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId: cancelled, verb: 'schedule' });
    assert.deepEqual(await service.act({ sessionId, callId: cancelled, verb: 'cancel' }), { status: 'accepted', phase: 'cancelled' });
    const vanished = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId: vanished, verb: 'schedule' });
    followUps.remove('follow-up-3');
    assert.deepEqual(await service.act({ sessionId, callId: vanished, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
    assert.deepEqual(
      decisions().filter((d) => d.phase !== 'scheduled'),
      [
        { phase: 'done', data: { followUpId: 'follow-up-1' } },
        { phase: 'cancelled', data: { followUpId: 'follow-up-2' } },
        { phase: 'cancelled', data: { followUpId: 'follow-up-3' } },
        { phase: 'dismissed', data: {} },
      ],
    );
  });

  it('a done follow-up cannot be cancelled and is recorded done only once', async () => {
    const { host, service, sessionId, decisions, followUps } = world();
    const callId = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId, verb: 'schedule' });
    followUps.fire('follow-up-1');
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'refused', reason: 'not-scheduled' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'refused', reason: 'not-scheduled' });
    assert.deepEqual(
      decisions().map((d) => d.phase),
      ['scheduled', 'done'],
    );
  });

  it('a cancelled card is not cancelled again when asked twice', async () => {
    const { host, service, sessionId, decisions } = world();
    const callId = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId, verb: 'schedule' });
    await service.act({ sessionId, callId, verb: 'cancel' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'settled', phase: 'cancelled' });
    assert.deepEqual(
      decisions().map((d) => d.phase),
      ['scheduled', 'cancelled'],
    );
  });

  it('a scheduled card whose data names no follow-up id (missing or not a string) cannot be cancelled', async () => {
    for (const data of [{}, { followUpId: 7 }] as Record<string, JsonValue>[]) {
      const { host, service, sessionId, decisions } = world();
      const callId = await cardTurn(host, sessionId, followUpArgs());
      service.record({ sessionId, callId, action: 'schedule_follow_up', phase: 'scheduled', data });
      assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'refused', reason: 'not-scheduled' });
      assert.deepEqual(decisions(), [{ phase: 'scheduled', data }]);
    }
  });
});

describe('schedule_follow_up called by a host whose context has no data (older callers)', () => {
  it('reconciles and refuses cancel without recording anything', async () => {
    const { ctx, recorded } = olderContext(
      { action: 'schedule_follow_up', title: 'Follow up', brief: 'b', details: { topic: 't', suggestedAt: '2026-12-06T09:00:00Z' } },
      'scheduled',
    );
    const kind = scheduleFollowUpKind({ scheduler: createMemoryFollowUps(), now: () => NOW });
    await kind.reconcile?.(ctx);
    assert.deepEqual(await kind.verbs['cancel']?.handler(ctx, undefined), { status: 'refused', reason: 'not-scheduled' });
    assert.deepEqual(recorded, []);
  });
});
