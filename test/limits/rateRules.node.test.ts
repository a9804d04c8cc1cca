// The messages-per-minute bucket to the millisecond: a switched-off rate never waits, and the sweep past 10,000 principals forgets only the ones full again.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MessageRate } from '../../host/limits/index.js';

it('a rate of Infinity admits every message, even two in the same millisecond', () => {
  const rate = new MessageRate(Infinity, () => 5_000);
  assert.deepEqual([rate.take('ann'), rate.take('ann'), rate.take('ann')], [0, 0, 0]);
});

it('past 10,000 principals a drained one is still drained; full ones are forgotten', () => {
  let now = 1_000_000;
  const rate = new MessageRate(2, () => now);
  assert.deepEqual([rate.take('mallory'), rate.take('mallory')], [0, 0]);
  now += 1;
  for (let i = 0; i < 10_001; i++) assert.equal(rate.take(`p${i}`), 0);
  assert.equal(rate.take('mallory'), 29_999);
  now += 60_000; // everyone is full again
  for (let i = 10_001; i < 20_002; i++) assert.equal(rate.take(`p${i}`), 0);
  assert.deepEqual([rate.take('mallory'), rate.take('mallory'), rate.take('mallory')], [0, 0, 30_000]);
});
