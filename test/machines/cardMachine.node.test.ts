import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActor, fromPromise, transition, waitFor } from 'xstate';
import { cardMachine, type CardOperationInput } from '../../machines/cardMachine.js';
import type { ActResult } from '../../protocol/index.js';

const start = (phase = 'proposed', result: ActResult = { status: 'accepted', phase: 'done' }) => {
  let resolve!: () => void;
  const ran = new Promise<void>((r) => {
    resolve = r;
  });
  const machine = cardMachine.provide({
    actors: {
      operation: fromPromise<ActResult, CardOperationInput>(async () => {
        await ran;
        return result;
      }),
    },
  });
  return { actor: createActor(machine, { input: { callId: 'c1', action: 'create_page', phase } }).start(), finish: resolve };
};

describe('cardMachine', () => {
  it('starts in the state of its logged phase', () => {
    for (const [phase, state] of [
      ['proposed', 'proposed'],
      ['dismissed', 'dismissed'],
      ['replaced', 'replaced'],
      ['created', 'decided'],
    ]) {
      assert.equal(start(phase).actor.getSnapshot().value, state);
    }
  });

  it('acting runs one operation and settles in the phase the log recorded meanwhile', async () => {
    const { actor, finish } = start();
    actor.send({ type: 'user.acted', verb: 'create' });
    assert.equal(actor.getSnapshot().value, 'acting');
    actor.send({ type: 'log.decided', phase: 'creating' });
    actor.send({ type: 'user.acted', verb: 'create' }); // joins: no second operation
    assert.equal(actor.getSnapshot().value, 'acting');
    actor.send({ type: 'log.decided', phase: 'created' });
    finish();
    const done = await waitFor(actor, (s) => !s.matches('acting'));
    assert.equal(done.value, 'decided');
    assert.equal(done.context.phase, 'created');
    assert.deepEqual(done.context.lastResult, { status: 'accepted', phase: 'done' });
  });

  it('a replacement while acting is kept; a later decision overrides it', async () => {
    const { actor, finish } = start();
    actor.send({ type: 'user.acted', verb: 'create' });
    actor.send({ type: 'log.replaced' });
    finish();
    assert.equal((await waitFor(actor, (s) => !s.matches('acting'))).value, 'replaced');
    actor.send({ type: 'log.decided', phase: 'created' });
    assert.equal(actor.getSnapshot().value, 'decided');
  });

  it('Not now moves to dismissed; a failing operation ends unconfirmed', async () => {
    const machine = cardMachine.provide({
      actors: {
        operation: fromPromise<ActResult, CardOperationInput>(async () => {
          throw new Error('x');
        }),
      },
    });
    const actor = createActor(machine, { input: { callId: 'c1', action: 'a', phase: 'proposed' } }).start();
    actor.send({ type: 'user.acted', verb: 'dismiss' });
    const done = await waitFor(actor, (s) => !s.matches('acting'));
    assert.deepEqual(done.context.lastResult, { status: 'unconfirmed' });
    assert.equal(transition(cardMachine, done, { type: 'log.decided', phase: 'dismissed' })[0].value, 'dismissed');
  });

  it('replays as a pure fold of log events', () => {
    let snapshot = cardMachine.resolveState({
      value: 'proposed',
      context: { callId: 'c', action: 'a', phase: 'proposed', lastResult: undefined },
    });
    [snapshot] = transition(cardMachine, snapshot, { type: 'log.decided', phase: 'scheduled' });
    assert.equal(snapshot.value, 'decided');
    [snapshot] = transition(cardMachine, snapshot, { type: 'log.decided', phase: 'dismissed' });
    assert.equal(snapshot.value, 'dismissed');
  });
});
