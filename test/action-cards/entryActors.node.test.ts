import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import type { CallId } from '../../protocol/index.js';
import { cardTurn, followUpArgs, setup } from './helpers.js';

/*
 * The card actors as a host developer sees them in the inspector (`createHost({ inspect })`): one
 * actor per card while its session stays loaded, in the state the log gives the card, stopped when
 * the session is reset or the service disposed.
 */

function inspected() {
  const started = new Map<string, AnyActorRef[]>();
  const inspect = (event: InspectionEvent) => {
    // Every inspected actor here is a full ActorRef (the host creates them with createActor).
    const ref = event.actorRef as AnyActorRef;
    if (event.type !== '@xstate.actor' || !ref.id.startsWith('card:')) return;
    started.set(ref.id, [...(started.get(ref.id) ?? []), ref]);
  };
  const world = setup({ inspect });
  const actors = (callId: CallId) => started.get(`card:${callId}`) ?? [];
  /** The card's latest actor: its status, state and context. */
  const latest = (callId: CallId) => {
    const snapshot = actors(callId).at(-1)?.getSnapshot() as { status: string; value: unknown; context: unknown } | undefined;
    return snapshot === undefined ? undefined : { status: snapshot.status, value: snapshot.value, context: snapshot.context };
  };
  return { ...world, actors, latest };
}

const context = (callId: CallId, action: string, phase: string) => ({ callId, action, phase, lastResult: undefined });

describe('card actors', () => {
  it('one actor per card while its session stays loaded: views, steps and acts start no other', async () => {
    const { host, service, sessionId, actors } = inspected();
    const callId = await cardTurn(host, sessionId);
    for (let i = 0; i < 3; i++) service.view(sessionId);
    const turn = host.turn(sessionId);
    turn.step();
    turn.end();
    assert.deepEqual(await service.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
    service.view(sessionId);
    assert.equal(actors(callId).length, 1);
    assert.equal(actors(callId)[0]?.getSnapshot().status, 'active');
  });

  it('each actor is in the state the log gives its card: proposed, replaced, dismissed, a recorded phase', async () => {
    const { host, service, sessionId, latest } = inspected();
    const first = await cardTurn(host, sessionId);
    assert.deepEqual(latest(first), { status: 'active', value: 'proposed', context: context(first, 'create_page', 'proposed') });
    const second = await cardTurn(host, sessionId, followUpArgs());
    assert.deepEqual(latest(first), { status: 'active', value: 'replaced', context: context(first, 'create_page', 'replaced') });
    assert.deepEqual(latest(second), { status: 'active', value: 'proposed', context: context(second, 'schedule_follow_up', 'proposed') });
    await service.act({ sessionId, callId: second, verb: 'dismiss' });
    assert.deepEqual(latest(second)?.value, 'dismissed');
    const third = await cardTurn(host, sessionId);
    service.record({ sessionId, callId: third, action: 'create_page', phase: 'creating' });
    assert.deepEqual(latest(third), { status: 'active', value: 'decided', context: context(third, 'create_page', 'creating') });
  });

  it('a reset stops the session’s actors; the next use starts them again in the logged state', async () => {
    const { host, service, sessionId, actors, latest } = inspected();
    const first = await cardTurn(host, sessionId);
    const second = await cardTurn(host, sessionId, followUpArgs());
    host.reopen(sessionId);
    assert.deepEqual(
      [...actors(first), ...actors(second)].map((a) => a.getSnapshot().status),
      ['stopped', 'stopped'],
    );
    service.view(sessionId);
    assert.deepEqual(latest(first), { status: 'active', value: 'replaced', context: context(first, 'create_page', 'replaced') });
    assert.deepEqual(latest(second), { status: 'active', value: 'proposed', context: context(second, 'schedule_follow_up', 'proposed') });
    assert.equal(actors(first).length, 2);
  });

  it('dispose stops every card actor of every session, and starts none afterwards', async () => {
    const { host, service, sessionId, actors } = inspected();
    const other = host.open();
    const mine = await cardTurn(host, sessionId);
    const theirs = await cardTurn(host, other);
    service.dispose();
    assert.deepEqual(
      [...actors(mine), ...actors(theirs)].map((a) => a.getSnapshot().status),
      ['stopped', 'stopped'],
    );
    service.view(sessionId);
    service.record({ sessionId, callId: mine, action: 'create_page', phase: 'creating' });
    assert.equal(actors(mine).length, 1);
  });
});
