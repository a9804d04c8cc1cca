// The per-connection rate limit to the token: with the limiter's clock frozen, a hostile client's
// flood meets exact counts, exact retry hints, and the rate checked before anything else is read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frozenClock, serverFor, socketFor } from './limitRules.js';

const ping = (id: string) => JSON.stringify({ id, type: 'ping' });
const open = (id: string) => JSON.stringify({ id, type: 'session.open', params: { title: id } });
const pong = (id: string) => ({ type: 'result', id, result: 'pong' });
/** The whole `rate-limited` answer. */
const limited = (id: string | null, rate: string, waitMs: number) => ({
  type: 'error',
  id,
  code: 'rate-limited',
  message: `too many messages: at most ${rate}; retry in ${waitMs} ms`,
  retryAfterMs: waitMs,
});

describe('the rate limit, token by token', () => {
  it('grants exactly a burst, says exactly when the next token comes, and refills only up to the burst', async (t) => {
    const clock = frozenClock(t);
    const server = await serverFor(t, { rateLimit: { perSecond: 20, burst: 3 } });
    const raw = await socketFor(t, server.port);
    for (const id of ['p0', 'p1', 'p2']) assert.deepEqual(await raw.ask(ping(id)), pong(id));
    const rate = '20 per second (bursts of 3)';
    assert.deepEqual(await raw.ask(ping('p3')), limited('p3', rate, 50));
    assert.deepEqual(await raw.ask(ping('p4')), limited('p4', rate, 50), 'a refused frame takes no token');
    clock.advance(30);
    assert.deepEqual(await raw.ask(ping('p5')), limited('p5', rate, 20), '0.6 of a token after 30 ms');
    clock.advance(20);
    assert.deepEqual(await raw.ask(ping('p6')), pong('p6'), 'one token after 50 ms');
    assert.deepEqual(await raw.ask(ping('p7')), limited('p7', rate, 50));
    clock.advance(10_000);
    for (const id of ['q0', 'q1', 'q2']) assert.deepEqual(await raw.ask(ping(id)), pong(id));
    assert.deepEqual(await raw.ask(ping('q3')), limited('q3', rate, 50), '10 s idle still refills only a burst');
  });

  it('checks the rate before the size, the binary check, the depth and the JSON, and each of those frames takes a token', async (t) => {
    const clock = frozenClock(t);
    const server = await serverFor(t, { rateLimit: { perSecond: 1, burst: 1 }, maxMessageBytes: 1024, maxDepth: 4 });
    const raw = await socketFor(t, server.port);
    const rate = '1 per second (bursts of 1)';
    const big = JSON.stringify({ id: 'big', type: 'ping', pad: 'x'.repeat(2_000) });
    const deep = '{"id":"deep","type":"ping","x":[[[[1]]]]}';
    assert.deepEqual(await raw.ask(ping('p0')), pong('p0'));
    assert.deepEqual(await raw.ask(big), limited('big', rate, 1000));
    assert.deepEqual(await raw.ask(Buffer.from(ping('bin'))), limited(null, rate, 1000));
    assert.deepEqual(await raw.ask(deep), limited('deep', rate, 1000));
    assert.deepEqual(await raw.ask('{nope'), limited(null, rate, 1000));
    const refusals = [
      { type: 'error', id: 'big', code: 'too-large', message: `message of ${big.length} bytes is over the limit of 1024 bytes` },
      { type: 'error', id: null, code: 'bad-request', message: 'binary frames are not supported; send JSON text' },
      { type: 'error', id: 'deep', code: 'bad-request', message: 'message nests arrays and objects deeper than 4 levels' },
      { type: 'error', id: null, code: 'bad-request', message: 'message is not valid JSON' },
    ];
    for (const [i, frame] of [big, Buffer.from(ping('bin')), deep, '{nope'].entries()) {
      clock.advance(1_000);
      assert.deepEqual(await raw.ask(frame), refusals[i]);
      assert.deepEqual(await raw.ask(ping(`after${i}`)), limited(`after${i}`, rate, 1000), 'the refused frame took the token');
    }
  });
});

describe('session.open and the rate limit, token by token', () => {
  it('an open costs openCost tokens: one taken with the frame, and the refusal says what an open costs', async (t) => {
    const clock = frozenClock(t);
    const server = await serverFor(t, { rateLimit: { perSecond: 1, burst: 10, openCost: 4 } });
    const raw = await socketFor(t, server.port);
    for (const id of ['o0', 'o1']) assert.equal((await raw.ask(open(id))).type, 'result');
    // 2 tokens left: the frame takes one, the other three of the open are not there.
    assert.deepEqual(await raw.ask(open('o2')), limited('o2', '1 per second (bursts of 10) (a session.open counts as 4)', 2000));
    assert.deepEqual(await raw.ask(ping('p')), pong('p'), 'the refused open kept its first token taken; one is left');
    assert.deepEqual(await raw.ask(open('o3')), limited('o3', '1 per second (bursts of 10)', 1000), 'no token for the frame itself');
    clock.advance(4_000);
    assert.equal((await raw.ask(open('o4'))).type, 'result');
  });

  it('an openCost over the burst costs the burst: an open stays possible', async (t) => {
    frozenClock(t);
    const server = await serverFor(t, { rateLimit: { perSecond: 1, burst: 5, openCost: 50 } });
    const raw = await socketFor(t, server.port);
    assert.equal((await raw.ask(open('o0'))).type, 'result');
    assert.deepEqual(await raw.ask(open('o1')), limited('o1', '1 per second (bursts of 5)', 1000));
  });
});

describe('rate limit values that are not positive integers mean the defaults', () => {
  it('100 a second, bursts of 200, an open costing 10', async (t) => {
    const clock = frozenClock(t);
    const server = await serverFor(t, { rateLimit: { perSecond: 0, burst: -1, openCost: 0.5 } });
    const rate = '100 per second (bursts of 200)';
    const raw = await socketFor(t, server.port);
    for (let i = 0; i < 200; i++) assert.deepEqual(await raw.ask(ping(`p${i}`)), pong(`p${i}`));
    assert.deepEqual(await raw.ask(ping('p200')), limited('p200', rate, 10));
    clock.advance(2_000);
    // 19 opens take 190 tokens and 5 pings 5 more: an open finds 5, takes 1 and lacks 5 of its other 9.
    for (let i = 0; i < 19; i++) assert.equal((await raw.ask(open(`o${i}`))).type, 'result', `open ${i}`);
    for (let i = 0; i < 5; i++) assert.deepEqual(await raw.ask(ping(`q${i}`)), pong(`q${i}`));
    assert.deepEqual(await raw.ask(open('o19')), limited('o19', `${rate} (a session.open counts as 10)`, 50));
  });

  it('an openCost over an invalid burst costs the default burst, 200', async (t) => {
    frozenClock(t);
    const server = await serverFor(t, { rateLimit: { perSecond: 100, burst: 0, openCost: 500 } });
    const raw = await socketFor(t, server.port);
    assert.equal((await raw.ask(open('o0'))).type, 'result', 'the whole burst pays for one open');
    assert.deepEqual(await raw.ask(ping('p')), limited('p', '100 per second (bursts of 200)', 10));
  });
});
