import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreatePageDetailsSchema, ScheduleFollowUpDetailsSchema } from '../../host/actionCards/kinds/index.js';
import type { SessionId } from '../../protocol/index.js';
import { cardTurn, followUpArgs, setup } from './helpers.js';

const phases = (host: ReturnType<typeof setup>['host'], sessionId: SessionId) =>
  host.log(sessionId).flatMap((e) => (e.type === 'action-cards/decision' ? [e.phase] : []));

describe('create_page', () => {
  it('create records creating, then created with the page', async () => {
    const { host, service, sessionId, pages } = setup();
    const callId = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'accepted', phase: 'created' });
    assert.deepEqual(phases(host, sessionId), ['creating', 'created']);
    assert.deepEqual(service.view(sessionId).decisions[callId]?.data, { pageId: 'page-1', url: '/pages/page-1' });
    assert.equal(await pages.exists('page-1'), true);
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'settled', phase: 'created' });
  });

  it('reconcile finishes an interrupted create and notices a deleted page', async () => {
    const { host, service, sessionId, pages } = setup();
    const callId = await cardTurn(host, sessionId);
    service.record({ sessionId, callId, action: 'create_page', phase: 'creating' });
    await pages.create({ title: 't', sections: ['s'], sourceCallId: callId });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'settled', phase: 'created' });
    pages.delete('page-1');
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'settled', phase: 'deleted' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'create' }), { status: 'accepted', phase: 'created' });
    assert.deepEqual(phases(host, sessionId), ['creating', 'created', 'deleted', 'creating', 'created']);
  });

  it('details: a title and 1–12 sections', () => {
    assert.equal(CreatePageDetailsSchema.safeParse({ pageTitle: 'x', sections: ['a'] }).success, true);
    assert.equal(CreatePageDetailsSchema.safeParse({ pageTitle: 'x', sections: [] }).success, false);
    assert.equal(CreatePageDetailsSchema.safeParse({ pageTitle: 'x', sections: ['a'], extra: 1 }).success, false);
  });
});

describe('schedule_follow_up', () => {
  it('schedule records the follow-up at the suggested or the chosen time', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule' }), { status: 'accepted', phase: 'scheduled' });
    assert.deepEqual(service.view(sessionId).decisions[callId]?.data, { followUpId: 'follow-up-1', at: '2026-12-06T09:00:00Z' });
  });

  it('refuses a time in the past and a malformed time with its own reasons', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule', payload: { at: '2020-01-01T00:00:00Z' } }), {
      status: 'refused',
      reason: 'in-the-past',
    });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'schedule', payload: { at: 'tomorrow' } }), {
      status: 'refused',
      reason: 'bad-time',
    });
    assert.deepEqual(phases(host, sessionId), []);
  });

  it('cancel needs a scheduled follow-up; a cancelled card still offers Not now', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'refused', reason: 'not-scheduled' });
    await service.act({ sessionId, callId, verb: 'schedule' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'settled', phase: 'scheduled' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'cancel' }), { status: 'accepted', phase: 'cancelled' });
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
  });

  it('reconcile records done once the follow-up fired, or cancelled when it vanished', async () => {
    const { host, service, sessionId, followUps } = setup();
    const fired = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId: fired, verb: 'schedule' });
    followUps.fire('follow-up-1');
    assert.deepEqual(await service.act({ sessionId, callId: fired, verb: 'schedule' }), { status: 'settled', phase: 'done' });
    const vanished = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId: vanished, verb: 'schedule' });
    followUps.remove('follow-up-2');
    assert.deepEqual(await service.act({ sessionId, callId: vanished, verb: 'cancel' }), { status: 'settled', phase: 'cancelled' });
  });

  it('details: a topic and an ISO date-time with a zone', () => {
    assert.equal(ScheduleFollowUpDetailsSchema.safeParse({ topic: 'x', suggestedAt: '2026-12-06T09:00:00+08:00' }).success, true);
    const bad = ScheduleFollowUpDetailsSchema.safeParse({ topic: 'x', suggestedAt: '2026-12-06 09:00' });
    assert.equal(bad.success, false);
    assert.match(bad.error?.issues[0]?.message ?? '', /ISO 8601/);
  });
});
