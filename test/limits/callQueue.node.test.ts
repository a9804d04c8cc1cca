// The model-call queue's fairness as the owners waiting in it see it: a freed slot goes to the owner
// with the fewest calls in flight (round-robin among equals) and never past an owner's own cap; an
// aborted waiter leaves the rest of its owner's queue in place; a session shows waiting while any
// of its calls wait; host code's sessions (no owner) are each an owner of their own.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createPrincipalLimits, DEFAULT_QUOTAS, ModelCallGate } from '../../host/limits/index.js';
import type { SessionLogStore } from '../../host/store/types.js';
import type { AgentTurn } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A model call that runs until `finish`; `started` says whether it has begun. */
function heldCall() {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve('done')));
  const state = { started: false, finish, call: () => ((state.started = true), done) };
  return state;
}

/** Starts a call of `owner`'s session through the gate; `settled` is its outcome once known. */
function queue(gate: ModelCallGate, owner: string, sessionId: string, call: () => Promise<string>, signal = new AbortController().signal) {
  const out: { settled?: string } = {};
  gate.run(owner, sessionId as SessionId, signal, call).then(
    (value) => (out.settled = value),
    (error: unknown) => (out.settled = `rejected: ${String(error)}`),
  );
  return out;
}

it('a freed slot goes round-robin among owners with as few calls in flight', async () => {
  const gate = new ModelCallGate(5, 1);
  const first = heldCall();
  queue(gate, 'zed', 'z1', first.call);
  const order: string[] = [];
  for (const who of ['ann-1', 'bob-1', 'ann-2', 'bob-2']) {
    queue(gate, who.slice(0, 3), who, async () => (order.push(who), who));
  }
  first.finish();
  for (let i = 0; i < 10; i++) await flush();
  assert.deepEqual(order, ['ann-1', 'bob-1', 'ann-2', 'bob-2']);
});

it("a freed slot never goes to an owner at its own cap; that owner's call waits for its own", async () => {
  const gate = new ModelCallGate(1, 10);
  const [ann1, ann2, bob1] = [heldCall(), heldCall(), heldCall()];
  queue(gate, 'ann', 'a1', ann1.call);
  const second = queue(gate, 'ann', 'a2', ann2.call);
  queue(gate, 'bob', 'b1', bob1.call);
  bob1.finish();
  await flush();
  assert.deepEqual([ann2.started, gate.inFlight], [false, 1]);
  ann1.finish();
  await flush();
  assert.equal(ann2.started, true);
  ann2.finish();
  await flush();
  assert.equal(second.settled, 'done');
});

it("an aborted waiter is dropped wherever it waits; the owner's other waiters still run", async () => {
  const gate = new ModelCallGate(1, 10);
  const first = heldCall();
  queue(gate, 'ann', 'a1', first.call);
  const aborts = [new AbortController(), new AbortController(), new AbortController()];
  const calls = [heldCall(), heldCall(), heldCall()];
  const outs = calls.map((c, i) => queue(gate, 'ann', `a${i + 2}`, c.call, aborts[i]!.signal));
  aborts[1]!.abort(new Error('gone'));
  await flush();
  assert.deepEqual(
    outs.map((o) => o.settled),
    [undefined, 'rejected: Error: gone', undefined],
  );
  aborts[0]!.abort(new Error('left'));
  first.finish();
  await flush();
  assert.deepEqual(
    calls.map((c) => c.started),
    [false, false, true],
  );
  calls[2]!.finish();
  await flush();
  assert.deepEqual(
    outs.map((o) => o.settled),
    ['rejected: Error: left', 'rejected: Error: gone', 'done'],
  );
});

it('a session shows waiting while any of its calls wait, and is told once each way', async () => {
  const told: string[] = [];
  const gate = new ModelCallGate(1, 10, (id) => told.push(`${id} ${gate.isWaiting(id) ? 'waits' : 'runs'}`));
  const calls = [heldCall(), heldCall(), heldCall()];
  queue(gate, 'ann', 's1', calls[0]!.call);
  queue(gate, 'ann', 's2', calls[1]!.call);
  queue(gate, 'ann', 's2', calls[2]!.call);
  assert.deepEqual(told, ['s2 waits']);
  calls[0]!.finish();
  await flush();
  assert.deepEqual([calls[1]!.started, gate.isWaiting('s2' as SessionId), told], [true, true, ['s2 waits']]);
  calls[1]!.finish();
  await flush();
  assert.deepEqual([calls[2]!.started, gate.isWaiting('s2' as SessionId), told], [true, false, ['s2 waits', 's2 runs']]);
});

it("host code's sessions do not share one owner's model-call cap; a principal's sessions do", async () => {
  const owners = new Map<string, string | null>([
    ['h1', null],
    ['h2', null],
    ['a1', 'ann'],
    ['a2', 'ann'],
  ]);
  const limits = createPrincipalLimits({
    store: {} as SessionLogStore,
    quotas: { ...DEFAULT_QUOTAS, modelCallsPerPrincipal: 1 },
    ownerOf: (id) => owners.get(id) ?? null,
    busy: () => false,
    publish: () => undefined,
  });
  const held = heldCall();
  const driver = limits.gate({ runTurn: (turn) => turn.modelCall(held.call).then(() => undefined) });
  for (const id of owners.keys()) {
    void driver.runTurn({ sessionId: id, signal: new AbortController().signal } as unknown as AgentTurn);
  }
  await flush();
  assert.deepEqual(
    [...owners.keys()].map((id) => limits.waiting(id as SessionId)),
    [false, false, false, true],
  );
  held.finish();
});
