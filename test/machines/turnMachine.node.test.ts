import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { turnMachine, type TurnEmitted, type TurnEvent, type TurnRun } from '../../machines/turnMachine.js';
import type { InboxItemId, MessageId, SessionId, TurnId, UserMessageEvent } from '../../protocol/index.js';

const i1 = 'i1' as InboxItemId;
const i2 = 'i2' as InboxItemId;
const message = (id: string): UserMessageEvent => ({
  seq: 1,
  at: 0,
  type: 'user/message',
  messageId: id as MessageId,
  text: id,
  source: { kind: 'user', rpcId: 'r' as never },
});
const m1 = message('m1');
const events: TurnEvent[] = [
  { type: 'queue.claimed', itemId: i1 },
  { type: 'queue.claimed', itemId: i2 },
  { type: 'admission.committed', itemId: i1, message: m1 },
  { type: 'admission.discarded', itemId: i1, reason: 'rejected' },
  { type: 'admission.committed', itemId: i2, message: message('m2') },
  { type: 'turn.recovered', input: [m1], rerunOf: 't0' as TurnId },
  { type: 'agent.concluded' },
  { type: 'turn.ended', outcome: 'completed', logged: true },
];
const key = (e: TurnEvent) => ('itemId' in e ? `${e.type}:${e.itemId}` : e.type);

/** The model's invariants, checked after every step of every path. */
function checkInvariants(snapshot: ReturnType<typeof turnMachine.getInitialSnapshot>, emitted: TurnEmitted[]): void {
  // Every claim ends in at most one terminal outcome; open claims have none yet. (The model reuses
  // two item ids, so count claims and outcomes per id.)
  const open = new Map<string, number>();
  for (const e of emitted) {
    if (!('itemId' in e)) continue;
    const n = (open.get(e.itemId) ?? 0) + (e.type === 'claim.started' ? 1 : -1);
    assert.ok(n === 0 || n === 1, `claim ${e.itemId} settled twice or claimed twice`);
    open.set(e.itemId, n);
  }
  const openIds = [...open]
    .filter(([, n]) => n === 1)
    .map(([id]) => id)
    .sort();
  assert.deepEqual([...snapshot.context.claims].sort(), openIds);
  if (snapshot.value === 'idle') assert.equal(snapshot.context.claims.length, 0);
  // A turn runs exactly while the machine is in `turn`; each started turn ends once.
  assert.equal(snapshot.hasTag('running'), snapshot.context.turn !== null);
  const started = emitted.filter((e) => e.type === 'turn.started').length;
  const finished = emitted.filter((e) => e.type === 'turn.finished').length;
  assert.equal(started - finished, snapshot.hasTag('running') ? 1 : 0);
  // The host claims by the tag: it must say exactly what the machine takes.
  assert.equal(snapshot.hasTag('claimable'), snapshot.can({ type: 'queue.claimed', itemId: 'fresh' as InboxItemId }));
}

describe('turnMachine', () => {
  // Path tests (xstate/graph): the state space is the state, the open claims and whether input
  // was admitted (not how much). No driver runs: `turn.ended` comes from the path.
  const paths = getShortestPaths(turnMachine, {
    events,
    input: { sessionId: 's' as SessionId },
    serializeEvent: (e) => key(e as TurnEvent),
    serializeState: (s) => JSON.stringify([s.value, [...s.context.claims].sort(), s.context.admitted.length > 0]),
    limit: 500,
  });

  it('reaches idle, admitting, a working turn and a concluded turn', () => {
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const state of ['"idle"', '"admitting"', '{"turn":"working"}', '{"turn":"concluded"}']) assert.ok(reached.has(state), state);
  });

  for (const path of paths) {
    it(`path: ${path.steps.map((step) => key(step.event)).join(' → ') || 'initial'}`, () => {
      const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } });
      const emitted: TurnEmitted[] = [];
      actor.on('*', (e) => emitted.push(e as TurnEmitted));
      actor.start();
      checkInvariants(actor.getSnapshot(), emitted);
      for (const step of path.steps) {
        if ((step.event.type as string) !== 'xstate.init') actor.send(step.event);
        assert.deepEqual(actor.getSnapshot().value, step.state.value);
        checkInvariants(actor.getSnapshot(), emitted);
      }
      actor.stop();
    });
  }

  it('starts a turn only after every claim settled and at least one committed, with the committed messages as input', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    actor.send({ type: 'queue.claimed', itemId: i1 });
    actor.send({ type: 'queue.claimed', itemId: i2 });
    actor.send({ type: 'admission.committed', itemId: i1, message: m1 });
    assert.equal(actor.getSnapshot().hasTag('running'), false);
    actor.send({ type: 'admission.discarded', itemId: i2, reason: 'removed' });
    assert.deepEqual(actor.getSnapshot().value, { turn: 'working' });
    assert.deepEqual(actor.getSnapshot().context.turn, { turnId: 'turn-1', input: [m1] });
    assert.deepEqual(actor.getSnapshot().context.admitted, []);
    actor.send({ type: 'turn.ended', outcome: 'completed', logged: true });
    assert.equal(actor.getSnapshot().value, 'idle');
    assert.equal(actor.getSnapshot().context.turn, null);
  });

  it('returns to idle when every claim was discarded', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    actor.send({ type: 'queue.claimed', itemId: i1 });
    actor.send({ type: 'admission.discarded', itemId: i1, reason: 'rejected' });
    assert.equal(actor.getSnapshot().value, 'idle');
    // An outcome for a row that is not claimed is ignored (no double outcome, no turn).
    actor.send({ type: 'admission.committed', itemId: i1, message: m1 });
    assert.deepEqual(actor.getSnapshot().context.admitted, []);
    assert.equal(actor.getSnapshot().value, 'idle');
  });

  it('runs a recovered turn (work a stopped process left) only from idle, never over open claims', () => {
    const recovered: TurnEvent = { type: 'turn.recovered', input: [m1], rerunOf: 't0' as TurnId };
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    assert.equal(actor.getSnapshot().can(recovered), true);
    actor.send({ type: 'queue.claimed', itemId: i1 });
    assert.equal(actor.getSnapshot().can(recovered), false);
    actor.send({ type: 'admission.discarded', itemId: i1, reason: 'rejected' });
    actor.send(recovered);
    assert.deepEqual(actor.getSnapshot().value, { turn: 'working' });
    assert.deepEqual(actor.getSnapshot().context.turn, { turnId: 'turn-1', input: [m1], rerunOf: 't0' });
    actor.send({ type: 'turn.ended', outcome: 'completed', logged: true });
    assert.equal(actor.getSnapshot().value, 'idle');
  });

  it('emits turn.started once running (the host starts the driver then), aborts on turn.cancel and writes the end once', () => {
    const runs: { run: TurnRun; running: boolean }[] = [];
    const aborted: string[] = [];
    const ended: string[] = [];
    const machine = turnMachine.provide({
      actions: {
        abortTurn: ({ event }) => {
          aborted.push((event as { reason: string }).reason);
        },
        logTurnEnded: ({ context, event }) => {
          ended.push(`${context.turn!.turnId}:${(event as { outcome: string }).outcome}`);
        },
      },
    });
    const actor = createActor(machine, { input: { sessionId: 's' as SessionId } });
    const emitted: TurnEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as TurnEmitted));
    // The driver starts on the emitted event, when the snapshot already says the turn runs.
    actor.on('turn.started', () => runs.push({ run: actor.getSnapshot().context.turn!, running: actor.getSnapshot().hasTag('running') }));
    actor.start();
    actor.send({ type: 'queue.claimed', itemId: i1 });
    actor.send({ type: 'admission.committed', itemId: i1, message: m1 });
    assert.deepEqual(runs, [{ run: { turnId: 'turn-1', input: [m1] }, running: true }]);
    assert.deepEqual(ended, []);
    actor.send({ type: 'turn.cancel', reason: 'rewound' });
    assert.deepEqual(aborted, ['rewound']);
    // Aborting does not end the turn: the driver reports its end.
    assert.deepEqual(actor.getSnapshot().value, { turn: 'working' });
    actor.send({ type: 'turn.ended', outcome: 'cancelled', error: 'rewound', logged: true });
    assert.deepEqual(ended, ['turn-1:cancelled']);
    assert.equal(actor.getSnapshot().value, 'idle');
    assert.deepEqual(
      emitted.filter((e) => e.type.startsWith('turn.')),
      [
        { type: 'turn.started', turnId: 'turn-1' },
        { type: 'turn.finished', turnId: 'turn-1', outcome: 'cancelled' },
      ],
    );
    // A late end (no turn runs) changes nothing.
    actor.send({ type: 'turn.ended', outcome: 'completed', logged: true });
    assert.deepEqual(ended, ['turn-1:cancelled']);
    assert.equal(runs.length, 1);
  });

  it('the claimable tag says exactly when a new claim is taken', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    const claim = { type: 'queue.claimed', itemId: 'fresh' as InboxItemId } as const;
    const agree = () => assert.equal(actor.getSnapshot().hasTag('claimable'), actor.getSnapshot().can(claim));
    agree();
    actor.send({ type: 'queue.claimed', itemId: i1 });
    agree();
    actor.send({ type: 'admission.committed', itemId: i1, message: m1 });
    assert.deepEqual(actor.getSnapshot().value, { turn: 'working' });
    agree();
    actor.send({ type: 'agent.concluded' });
    assert.equal(actor.getSnapshot().hasTag('claimable'), false);
    agree();
    actor.send({ type: 'turn.ended', outcome: 'concluded', logged: true });
    agree();
  });

  it('past a human checkpoint takes no claims into the turn; they wait for the next one', () => {
    const actor = createActor(turnMachine, { input: { sessionId: 's' as SessionId } }).start();
    actor.send({ type: 'turn.recovered', input: [m1] });
    actor.send({ type: 'agent.concluded' });
    assert.equal(actor.getSnapshot().hasTag('concluded'), true);
    assert.equal(actor.getSnapshot().can({ type: 'queue.claimed', itemId: i1 }), false);
    actor.send({ type: 'turn.ended', outcome: 'concluded', logged: true });
    assert.equal(actor.getSnapshot().can({ type: 'queue.claimed', itemId: i1 }), true);
  });
});
