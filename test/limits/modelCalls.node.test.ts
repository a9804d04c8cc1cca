// Model calls at their defaults (2 per owner, 32 for the Host), through the shared driver loop and
// the real WebSocket transport: calls past a cap wait (never refused), the wait shows in the view as
// the turn's pending state, and every turn completes once slots free up.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createLoopDriver, type ModelAdapter } from '../../agents/loop.js';
import type { SessionView } from '../../protocol/index.js';
import { latch, say, servedHost } from './helpers.js';

it('2 calls per owner and 32 in all are in flight at most; the rest wait, visibly, and then run', async (t) => {
  const inFlight = new Map<string, number>();
  let total = 0;
  let most = 0;
  let mostOfOne = 0;
  const release = latch();
  const adapter: ModelAdapter = {
    label: 'Fake model',
    retries: 0,
    timeoutMs: 60_000,
    async call(request) {
      const who = request.messages.find((m) => m.role === 'user')!.text;
      inFlight.set(who, (inFlight.get(who) ?? 0) + 1);
      most = Math.max(most, ++total);
      mostOfOne = Math.max(mostOfOne, inFlight.get(who)!);
      await release.opened;
      inFlight.set(who, inFlight.get(who)! - 1);
      total--;
      return { text: 'done', toolCalls: [] };
    },
  };
  const { as, host } = await servedHost(t, { driver: createLoopDriver(adapter) });

  // The hostile principal: 4 turns (its limit), each wanting a model call.
  const mallory = as('mallory');
  const hers = await Promise.all(Array.from({ length: 4 }, () => mallory.openSession()));
  const views = new Map<string, SessionView>();
  for (const s of hers) mallory.watchSession(s.sessionId, (view) => views.set(s.sessionId, view));
  for (const s of hers) assert.equal((await say(mallory, s.sessionId, 'mallory')).accepted, true);
  // 16 ordinary people with 2 sessions each: 34 calls wanted in all.
  const others = Array.from({ length: 16 }, (_, i) => as(`person-${i}`));
  const theirs = await Promise.all(
    others.map(async (client, i) => [client, await client.openSession(), await client.openSession(), i] as const),
  );
  for (const [client, a, b, i] of theirs) {
    assert.equal((await say(client, a.sessionId, `person-${i}`)).accepted, true);
    assert.equal((await say(client, b.sessionId, `person-${i}`)).accepted, true);
  }
  const waiting = () => [...views.values()].filter((v) => v.waiting === 'model').length;
  while (total < 32 || waiting() < 2) await new Promise((r) => setTimeout(r, 5));
  assert.equal(total, 32, 'the Host cap');
  assert.equal(inFlight.get('mallory'), 2, "mallory's cap");
  assert.equal(waiting(), 2, "mallory's other two turns show as waiting for the model");
  assert.ok(
    [...views.values()].every((v) => v.turn === 'running'),
    'a waiting turn is running, pending its call',
  );

  release.open();
  await host.whenIdle();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(most, 32);
  assert.equal(mostOfOne, 2);
  assert.equal(waiting(), 0, 'the pending state cleared');
  for (const s of [...hers, ...theirs.flatMap(([, a, b]) => [a, b])]) {
    const ended = (await host.readLog(s.sessionId, { limit: 50 })).events.filter((e) => e.type === 'turn/ended');
    assert.deepEqual(
      ended.map((e) => e.type === 'turn/ended' && e.outcome),
      ['completed'],
    );
  }
});
