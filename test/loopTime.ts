// Waiting in real time while node:test's mock timers hold `setTimeout`: the loop turns (sockets and
// promises move) and the mocked clock stays where the test put it.
import assert from 'node:assert/strict';
import { setImmediate as turnOfTheLoop } from 'node:timers/promises';

/** Turns of the loop until `done()`, for up to `limitMs` of real time; fails naming `what`. */
export async function untilReal(done: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!done() && performance.now() < deadline) await turnOfTheLoop();
  assert.ok(done(), what);
}

/** `ms` of real time, the loop turning: for frames in flight to land. */
export async function realWait(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) await turnOfTheLoop();
}
