import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { turnMachine, type TurnEmitted, type TurnEvent } from '../../machines/turnMachine.js';
import type { InboxItemId, SessionId, TurnId } from '../../protocol/index.js';

const i1 = 'i1' as InboxItemId;
const i2 = 'i2' as InboxItemId;
const events: TurnEvent[] = [
  { type: 'queue.claimed', itemId: i1 },
  { type: 'queue.claimed', itemId: i2 },
  { type: 'admission.committed', itemId: i1 },
  { type: 'admission.discarded', itemId: i1, reason: 'rejected' },
  { type: 'admission.committed', itemId: i2 },
  { type: 'turn.started', turnId: 't1' as TurnId },
  { type: 'turn.recovered', turnId: 't0' as TurnId },
  { type: 'agent.concluded' },
  { type: 'turn.ended', outcome: 'completed' },
];
const key = (e: TurnEvent) => ('itemId' in e ? `${e.type}:${e.itemId}` : e.type);

describe('turnMachine', () => {
  const model = createTestModel(turnMachine, {
    events, input: { sessionId: 's' as SessionId },
    serializeEvent: (e: TurnEvent) => key(e),
  } as never);
  // The state space is the state, the open claims and whether input was admitted (not how much).
  const paths = model.getShortestPaths({
    allowDuplicatePaths: true,
    serializeState: (s: { value: unknown; context: { claims: string[]; admitted: number } }) =>
      JSON.stringify([s.value, [...s.context.claims].sort(), s.context.admitted > 0]),
    limit: 500,
  } as never);

  it('reaches idle, admitting, running and concluded', () => {
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const state of ['"idle"', '"admitting"', '"running"', '"concluded"']) assert.ok(reached.has(state), state);
  });

  for (const path of paths) {
    it(`path: ${path.description}`, async () => {
      const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } });
      const emitted: TurnEmitted[] = [];
      actor.on('*', (e) => emitted.push(e as TurnEmitted));
      actor.start();
      await path.test({
        events: Object.fromEntries(events.map((e) => [e.type, ({ event }: { event: TurnEvent }) => { actor.send(event); }])),
        states: {
          '*': (state: { value: unknown }) => {
            const snapshot = actor.getSnapshot();
            assert.deepEqual(snapshot.value, state.value);
            // Every claim ends in at most one terminal outcome; open claims have none yet. (The
            // model reuses two item ids, so count claims and outcomes per id.)
            const open = new Map<string, number>();
            for (const e of emitted) {
              const n = (open.get(e.itemId) ?? 0) + (e.type === 'claim.started' ? 1 : -1);
              assert.ok(n === 0 || n === 1, `claim ${e.itemId} settled twice or claimed twice`);
              open.set(e.itemId, n);
            }
            const openIds = [...open].filter(([, n]) => n === 1).map(([id]) => id).sort();
            assert.deepEqual([...snapshot.context.claims].sort(), openIds);
            if (snapshot.value === 'idle') assert.equal(snapshot.context.claims.length, 0);
          },
        },
      } as never);
      actor.stop();
    });
  }

  it('starts a turn only after every claim settled and at least one committed', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    actor.send({ type: 'queue.claimed', itemId: i1 });
    actor.send({ type: 'queue.claimed', itemId: i2 });
    actor.send({ type: 'admission.committed', itemId: i1 });
    assert.equal(actor.getSnapshot().can({ type: 'turn.started', turnId: 't' as TurnId }), false);
    actor.send({ type: 'admission.discarded', itemId: i2, reason: 'removed' });
    assert.equal(actor.getSnapshot().can({ type: 'turn.started', turnId: 't' as TurnId }), true);
    actor.send({ type: 'turn.started', turnId: 't' as TurnId });
    assert.equal(actor.getSnapshot().context.turnId, 't');
    actor.send({ type: 'turn.ended', outcome: 'completed' });
    assert.equal(actor.getSnapshot().value, 'idle');
  });

  it('returns to idle when every claim was discarded', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    actor.send({ type: 'queue.claimed', itemId: i1 });
    actor.send({ type: 'admission.discarded', itemId: i1, reason: 'rejected' });
    assert.equal(actor.getSnapshot().value, 'idle');
    // An outcome for a row that is not claimed is ignored (no double outcome).
    actor.send({ type: 'admission.committed', itemId: i1 });
    assert.equal(actor.getSnapshot().context.admitted, 0);
  });

  it('runs a recovered turn (work a stopped process left) only from idle, never over open claims', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    assert.equal(actor.getSnapshot().can({ type: 'turn.recovered', turnId: 't' as TurnId }), true);
    actor.send({ type: 'queue.claimed', itemId: i1 });
    assert.equal(actor.getSnapshot().can({ type: 'turn.recovered', turnId: 't' as TurnId }), false);
    actor.send({ type: 'admission.discarded', itemId: i1, reason: 'rejected' });
    actor.send({ type: 'turn.recovered', turnId: 't' as TurnId });
    assert.equal(actor.getSnapshot().value, 'running');
    assert.equal(actor.getSnapshot().context.turnId, 't');
    actor.send({ type: 'turn.ended', outcome: 'completed' });
    assert.equal(actor.getSnapshot().value, 'idle');
  });
});
