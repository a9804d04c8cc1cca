import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActionCardsService } from '../../host/actionCards/index.js';
import { cardTurn, followUpArgs, pageArgs, setup } from './helpers.js';

describe('card state is a fold of the log', () => {
  it('pairs an accepted call with its successful result', async () => {
    const { host, service, sessionId } = setup();
    const callId = await cardTurn(host, sessionId);
    const view = service.view(sessionId);
    assert.equal(view.proposals.length, 1);
    assert.deepEqual(view.proposals[0], {
      callId,
      action: 'create_page',
      title: 'Save as a page',
      brief: 'Keeps this trip plan as an editable page.',
      details: { pageTitle: 'Kyoto in three days', sections: ['Day 1', 'Day 2', 'Day 3'] },
      seq: host.log(sessionId).find((e) => e.type === 'tool/result' && e.callId === callId)?.seq,
    });
    assert.deepEqual(view.decisions, {});
  });

  it('a newer card of any kind replaces every unstarted earlier card, derived and never recorded', async () => {
    const { host, service, sessionId } = setup();
    const first = await cardTurn(host, sessionId);
    const second = await cardTurn(host, sessionId, followUpArgs());
    const third = await cardTurn(host, sessionId);
    const { decisions } = service.view(sessionId);
    assert.equal(decisions[first]?.phase, 'replaced');
    assert.equal(decisions[second]?.phase, 'replaced');
    assert.equal(decisions[second]?.action, 'schedule_follow_up');
    assert.equal(decisions[third], undefined);
    assert.ok(!host.log(sessionId).some((e) => e.type === 'action-cards/decision'), 'replacement is not recorded');
  });

  it('a started card is not replaced', async () => {
    const { host, service, sessionId } = setup();
    const first = await cardTurn(host, sessionId);
    assert.deepEqual(await service.act({ sessionId, callId: first, verb: 'create' }), { status: 'accepted', phase: 'created' });
    await cardTurn(host, sessionId, followUpArgs());
    assert.equal(service.view(sessionId).decisions[first]?.phase, 'created');
  });

  it('a fresh service folds the same state from the log', async () => {
    const { host, service, sessionId } = setup();
    const first = await cardTurn(host, sessionId);
    await service.act({ sessionId, callId: first, verb: 'dismiss' });
    await cardTurn(host, sessionId, followUpArgs());
    const before = service.view(sessionId);
    service.dispose();
    const again = createActionCardsService(host.api); // no kinds registered: folding needs none
    assert.deepEqual(again.view(sessionId), before);
    assert.equal(before.decisions[first]?.phase, 'dismissed');
  });

  it('events a fork inherits create no cards; the fork proposes its own', async () => {
    const { host, service, sessionId } = setup();
    const parentCard = await cardTurn(host, sessionId);
    const fork = host.fork(sessionId);
    assert.deepEqual(service.view(fork), { proposals: [], decisions: {} });
    assert.deepEqual(await service.act({ sessionId: fork, callId: parentCard, verb: 'dismiss' }), { status: 'refused', reason: 'unknown' });
    const own = await cardTurn(host, fork, followUpArgs());
    assert.deepEqual(
      service.view(fork).proposals.map((p) => p.callId),
      [own],
    );
    assert.equal(service.view(sessionId).proposals.length, 1, 'the parent keeps its card');
  });

  it('a fork does not inherit the turn’s skill loads or its card mark', async () => {
    const { host, service, sessionId } = setup();
    const turn = host.turn(sessionId);
    await turn.callTool('skill', { name: 'create-page' });
    const fork = host.fork(sessionId);
    assert.equal(service.view(fork).proposals.length, 0);
    const forkTurn = host.turn(fork);
    assert.equal(
      (await forkTurn.callTool('propose_action', pageArgs())).content,
      'Load skill create-page first, then call propose_action.',
    );
  });

  it('a rewind that cuts a card away removes it', async () => {
    const { host, service, sessionId } = setup();
    const keep = await cardTurn(host, sessionId);
    const cut = host.log(sessionId).length;
    await cardTurn(host, sessionId, followUpArgs());
    assert.equal(service.view(sessionId).decisions[keep]?.phase, 'replaced');
    host.rewind(sessionId, cut);
    const view = service.view(sessionId);
    assert.deepEqual(
      view.proposals.map((p) => p.callId),
      [keep],
    );
    assert.deepEqual(view.decisions, {});
  });

  it('a card in an unknown session is an empty view', () => {
    const { service } = setup();
    assert.deepEqual(service.view('nope' as never), { proposals: [], decisions: {} });
  });
});
