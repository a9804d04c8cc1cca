// The limits' parts alone: options and their defaults, the message bucket, the fair model-call gate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_QUOTAS, MessageRate, ModelCallGate, resolveQuotas } from '../../host/limits/index.js';
import type { SessionId } from '../../protocol/index.js';

const sid = (id: string) => id as SessionId;

describe('quota options', () => {
  it('every limit has its documented default; Infinity switches one off; a bad value throws', () => {
    // As docs/security.md states them.
    const documented = [
      ['sessionsPerPrincipal', 200],
      ['bytesPerSession', 16 << 20],
      ['bytesPerPrincipal', 128 << 20],
      ['messagesPerMinute', 30],
      ['turnsPerPrincipal', 4],
      ['modelCallsPerPrincipal', 2],
      ['modelCalls', 32],
    ];
    assert.deepEqual(Object.entries(resolveQuotas()), documented);
    assert.equal(resolveQuotas({ messagesPerMinute: Infinity }).messagesPerMinute, Infinity);
    assert.equal(resolveQuotas({ modelCalls: 3 }).sessionsPerPrincipal, DEFAULT_QUOTAS.sessionsPerPrincipal);
    for (const bad of [0, -1, 1.5, Number.NaN, '3']) {
      assert.throws(() => resolveQuotas({ modelCalls: bad as number }), /quotas\.modelCalls must be a positive integer or Infinity/);
    }
    assert.throws(() => resolveQuotas({ sessions: 3 } as never), /unknown quota "sessions"/);
  });
});

describe('messages per minute', () => {
  it('allows a burst of the limit, then one message per 60/limit s, and says when', () => {
    let now = 0;
    const rate = new MessageRate(3, () => now);
    assert.deepEqual([rate.take('a'), rate.take('a'), rate.take('a')], [0, 0, 0]);
    assert.equal(rate.take('a'), 20_000, 'the next token in 20 s');
    assert.equal(rate.take('b'), 0, 'another principal has its own bucket');
    now = 19_999;
    assert.ok(rate.take('a') > 0);
    now = 20_000;
    assert.equal(rate.take('a'), 0);
  });
});

describe('the model-call gate', () => {
  /** A call that stays in flight until `finish()`. */
  const held = () => {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    return { finish, run: () => done };
  };

  it('keeps each owner and the whole host under their caps, and takes waiting owners in turn', async () => {
    const changes: string[] = [];
    const gate = new ModelCallGate(2, 3, (s) => changes.push(s));
    const started: string[] = [];
    const calls = new Map<string, ReturnType<typeof held>>();
    const call = (owner: string, n: number) => {
      const name = `${owner}${n}`;
      const h = held();
      calls.set(name, h);
      return gate.run(owner, sid(owner), new AbortController().signal, () => {
        started.push(name);
        return h.run();
      });
    };
    // The hostile owner asks for 6 at once, then two ordinary owners ask for one each.
    const all = [...[1, 2, 3, 4, 5, 6].map((n) => call('x', n)), call('a', 1), call('b', 1)];
    await Promise.resolve();
    assert.deepEqual(started, ['x1', 'x2', 'a1'], 'x has its 2; a takes the third slot');
    assert.equal(gate.inFlight, 3);
    assert.ok(gate.isWaiting(sid('x')) && gate.isWaiting(sid('b')));
    calls.get('x1')!.finish();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started.slice(3), ['b1'], 'the freed slot goes to b, not to x again');
    calls.get('a1')!.finish();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started.slice(4), ['x3']);
    for (const name of ['x2', 'b1', 'x3', 'x4', 'x5', 'x6']) {
      await new Promise((r) => setImmediate(r));
      calls.get(name)?.finish();
    }
    await Promise.all(all);
    assert.equal(gate.inFlight, 0);
    assert.ok(!gate.isWaiting(sid('x')));
    assert.ok(changes.includes('b') && changes.filter((s) => s === 'x').length >= 2, 'waiting was announced and ended');
  });

  it('a call cancelled while it waits leaves the queue with the abort reason', async () => {
    const gate = new ModelCallGate(1, 1);
    const first = held();
    const running = gate.run('a', sid('a'), new AbortController().signal, first.run);
    const controller = new AbortController();
    let ran = false;
    const waiting = gate.run('a', sid('a2'), controller.signal, async () => void (ran = true));
    assert.ok(gate.isWaiting(sid('a2')));
    controller.abort(new Error('cancelled'));
    await assert.rejects(waiting, /cancelled/);
    assert.ok(!gate.isWaiting(sid('a2')));
    first.finish();
    await running;
    assert.equal(ran, false);
    assert.equal(gate.inFlight, 0);
  });
});
