import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cardTurn, followUpArgs, setup, testArgs, testKind } from './helpers.js';

const PREAMBLE =
  'Latest status of action cards from user actions and background work. These are status facts, not a request to start or retry work. Use these receipts instead of the earlier proposal when describing progress.';
const CONTINUE = 'Continue with the user’s current request.';
const PAGE_GUIDANCE = 'A created page is a private draft the user opens from the card; mention its address only if asked.';
const FOLLOW_UP_GUIDANCE = 'A scheduled follow-up reaches the user at its time; do not promise reminders beyond it.';

describe('status notice', () => {
  it('the next step after a decision carries one notice, logged with through, and never again', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'create' });
    const lastDecision = host
      .log(sessionId)
      .filter((e) => e.type === 'action-cards/decision')
      .at(-1)!;
    const turn = host.turn(sessionId);
    const { notices } = turn.step();
    assert.equal(notices.length, 1);
    const notice = notices[0]!;
    assert.equal(notice.type, 'action-cards/notice');
    if (notice.type !== 'action-cards/notice') return;
    assert.equal(notice.through, lastDecision.seq);
    assert.equal(
      notice.text,
      [
        PREAMBLE,
        PAGE_GUIDANCE,
        CONTINUE,
        JSON.stringify([
          { action: 'create_page', callId, title: 'Save as a page', phase: 'created', pageId: 'page-1', url: '/pages/page-1' },
        ]),
      ].join('\n\n'),
    );
    assert.deepEqual(turn.step().notices, [], 'reported decisions are not reported again');
  });

  it('several decisions of one card collapse to its latest', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'create' }); // records creating, then created
    const phases = host.log(sessionId).flatMap((e) => (e.type === 'action-cards/decision' ? [e.phase] : []));
    assert.deepEqual(phases, ['creating', 'created']);
    const notice = host.turn(sessionId).step().notices[0];
    assert.ok(notice?.type === 'action-cards/notice');
    const cards = JSON.parse(notice.text.split('\n\n').at(-1)!);
    assert.deepEqual(
      cards.map((c: { phase: string }) => c.phase),
      ['created'],
    );
  });

  it('reports every changed card of several kinds with each involved kind’s guidance once', async () => {
    const { host, service, sessionId } = setup();
    const page = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId: page, verb: 'dismiss' });
    const followUp = await cardTurn(host, sessionId, followUpArgs());
    await service.act({ sessionId, callId: followUp, verb: 'schedule', payload: { at: '2026-12-08T10:00:00Z' } });
    const notice = host.turn(sessionId).step().notices[0];
    assert.ok(notice?.type === 'action-cards/notice');
    const parts = notice.text.split('\n\n');
    assert.deepEqual(parts.slice(0, 4), [PREAMBLE, PAGE_GUIDANCE, FOLLOW_UP_GUIDANCE, CONTINUE]);
    assert.deepEqual(JSON.parse(parts[4]!), [
      { action: 'create_page', callId: page, title: 'Save as a page', phase: 'dismissed' },
      {
        action: 'schedule_follow_up',
        callId: followUp,
        title: 'Follow up next week',
        phase: 'scheduled',
        at: '2026-12-08T10:00:00Z',
        followUpId: 'follow-up-1',
      },
    ]);
  });

  it('unchanged cards add nothing: no decision, no notice; replacement is not reported', async () => {
    const { host, sessionId } = setup();
    await cardTurn(host, sessionId);
    await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(host.turn(sessionId).step().notices, []);
  });

  it('a kind without guidance contributes no sentence; an unregistered kind’s last guidance is used', async () => {
    const { host, service, sessionId, unregister } = setup();
    service.register(testKind());
    const test = await cardTurn(host, sessionId, testArgs());
    await service.act({ sessionId, callId: test, verb: 'run' });
    const notice = host.turn(sessionId).step().notices[0];
    assert.ok(notice?.type === 'action-cards/notice');
    assert.deepEqual(notice.text.split('\n\n').slice(0, 2), [PREAMBLE, CONTINUE]);
    const page = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId: page, verb: 'create' });
    unregister.createPage();
    const later = host.turn(sessionId).step().notices[0];
    assert.ok(later?.type === 'action-cards/notice' && later.text.includes(PAGE_GUIDANCE));
  });

  it('is only added by a step: a decision alone appends no notice and starts no turn', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    const before = host.log(sessionId).length;
    await service.act({ sessionId, callId, verb: 'dismiss' });
    const added = host
      .log(sessionId)
      .slice(before)
      .map((e) => e.type);
    assert.deepEqual(added, ['action-cards/decision']);
  });

  it('a notice survives a refold: a fresh service does not report covered decisions again', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'dismiss' });
    host.turn(sessionId).step();
    host.reopen(sessionId); // refold from the log
    assert.deepEqual(host.turn(sessionId).step().notices, []);
  });

  it('a fork does not report the decisions it inherited', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId, verb: 'dismiss' });
    const fork = host.fork(sessionId);
    assert.deepEqual(host.turn(fork).step().notices, []);
    assert.equal(host.turn(sessionId).step().notices.length, 1);
  });
});
