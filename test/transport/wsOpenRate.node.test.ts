// `session.open` counts against the connection's rate limit: each one writes a durable session, so it
// costs `rateLimit.openCost` frames (10 by default), and a flood of opens is refused `rate-limited`.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createWebSocketServer, type WebSocketServerOptions } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';
import { rawSocket, until } from './helpers.js';

/** Sends `count` opens at once on one socket; the answers in the order sent. */
async function openMany(t: TestContext, options: Partial<WebSocketServerOptions>, count: number) {
  const server = await createWebSocketServer({
    host: createFakeHost(),
    allowAnonymous: true,
    heartbeatMs: 0,
    maxInFlight: 1_000,
    ...options,
  });
  closeWhenDone(t, server);
  const raw = await rawSocket(server.port);
  t.after(() => raw.close());
  const started = performance.now();
  for (let i = 0; i < count; i++) raw.socket.send(JSON.stringify({ id: `o${i}`, type: 'session.open', params: { title: `s${i}` } }));
  await until(() => raw.received.length === count);
  const byId = new Map(raw.received.map((m) => [m.id, m]));
  return { raw, answers: Array.from({ length: count }, (_, i) => byId.get(`o${i}`)!), elapsedMs: performance.now() - started };
}

describe('session.open and the rate limit', () => {
  it('by default, an open counts as 10 frames: 20 at once, the rest rate-limited', async (t) => {
    const { answers, raw, elapsedMs } = await openMany(t, {}, 40);
    const opened = answers.filter((m) => m.type === 'result').length;
    const limited = answers.filter((m) => m.code === 'rate-limited');
    // 200 tokens at once, 100 a second (10 opens): a few may refill while the 40 arrive.
    const refilled = Math.ceil((elapsedMs * 100) / 1000 / 10);
    assert.ok(opened >= 20 && opened <= 20 + refilled, `${opened} of 40 opened, ${refilled} opens refilled`);
    assert.equal(opened + limited.length, 40);
    assert.ok(
      answers.slice(0, 20).every((m) => m.type === 'result'),
      'the first 20 opened',
    );
    // An open refused before its first frame's token says the rate; one refused on the other nine also
    // says what an open costs. Which one a refusal meets depends on the refill between frames.
    for (const m of limited) {
      assert.match(
        String(m.message),
        /^too many messages: at most 100 per second \(bursts of 200\)( \(a session\.open counts as 10\))?; retry in \d+ ms$/,
      );
    }
    assert.ok(Number(limited[0]!.retryAfterMs) > 0);
    // Frames other than opens pass on what the bucket refills: one frame's wait, not an open's.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const pong = await raw.ask(JSON.stringify({ id: 'p', type: 'ping' }));
    assert.equal(pong.type, 'result');
  });

  it('follows rateLimit.openCost, and the frames before it use the same bucket', async (t) => {
    const { answers, elapsedMs } = await openMany(t, { rateLimit: { perSecond: 1, burst: 10, openCost: 4 } }, 4);
    // 10 tokens: two opens of 4; a third needs 2 more, one a second (a very slow machine may refill them).
    assert.ok(answers.slice(0, 2).every((m) => m.type === 'result'));
    if (elapsedMs < 2_000) {
      assert.deepEqual(
        answers.map((m) => m.type === 'result' || m.code),
        [true, true, 'rate-limited', 'rate-limited'],
      );
    }
    assert.match(String(answers[2]!.message), /\(a session\.open counts as 4\); retry in \d+ ms$/);
  });

  it('with openCost 1 an open is one frame, and rateLimit false lets every open through', async (t) => {
    const one = await openMany(t, { rateLimit: { perSecond: 1, burst: 5, openCost: 1 } }, 6);
    const opened = one.answers.filter((m) => m.type === 'result').length;
    assert.ok(opened >= 5 && opened <= 5 + Math.floor(one.elapsedMs / 1000), `${opened} of 6 opened in ${one.elapsedMs} ms`);
    const off = await openMany(t, { rateLimit: false }, 50);
    assert.ok(off.answers.every((m) => m.type === 'result'));
  });
});
