// The stored-bytes quotas at their defaults, to the byte: a session at 16 MiB less one byte still
// takes input and one at 16 MiB does not; likewise a principal's 128 MiB in all. The store reports
// the sizes (a real log that large is not needed to try the Host's rule).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createMemoryStore } from '../../host/store/memory.js';
import { say, servedHost } from './helpers.js';

const MiB = 1024 * 1024;

/** A memory store whose reported sizes are the test's. */
function sizedStore() {
  const store = createMemoryStore();
  const sizes = new Map<string, number>();
  const storedBytes = (id: string) => sizes.get(id) ?? 0;
  const sized = Object.assign(Object.create(store) as typeof store, {
    storedBytes,
    listSessionsOf: (owner: string) => store.listSessionsOf(owner).map((s) => ({ ...s, bytes: storedBytes(s.sessionId) })),
  });
  return { sized, sizes };
}

it('a session takes input up to 16 MiB less one byte, and none at 16 MiB', async (t) => {
  const { sized, sizes } = sizedStore();
  const { as } = await servedHost(t, { store: sized });
  const mallory = as('mallory');
  const { sessionId } = await mallory.openSession();
  sizes.set(sessionId, 16 * MiB - 1);
  assert.equal((await say(mallory, sessionId)).accepted, true);
  sizes.set(sessionId, 16 * MiB);
  const refused = await say(mallory, sessionId);
  assert.ok(!refused.accepted && refused.reason === 'quota-exceeded', JSON.stringify(refused));
});

it("a principal's sessions take input up to 128 MiB in all less one byte, and none at 128 MiB", async (t) => {
  const { sized, sizes } = sizedStore();
  const { as } = await servedHost(t, { store: sized });
  const mallory = as('mallory');
  const full = await Promise.all(Array.from({ length: 8 }, () => mallory.openSession()));
  for (const s of full) sizes.set(s.sessionId, 16 * MiB - 1); // each under its own bound
  const { sessionId } = await mallory.openSession();
  sizes.set(sessionId, 7); // 128 MiB - 1 in all
  assert.equal((await say(mallory, sessionId)).accepted, true);
  sizes.set(sessionId, 8); // 128 MiB
  const refused = await say(mallory, sessionId);
  assert.ok(!refused.accepted && refused.reason === 'quota-exceeded', JSON.stringify(refused));
});
