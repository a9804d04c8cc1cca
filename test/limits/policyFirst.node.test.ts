// The policy is asked before a session is loaded: a principal refused a known session never makes
// the Host read it in (an asynchronous store's load is not called).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AsyncSessionLogStore } from '../../host/store/types.js';

it('a refused principal does not load the session; its owner does', async (t) => {
  const loads: string[] = [];
  const memory = createMemoryStore();
  const store: AsyncSessionLogStore = Object.assign(Object.create(memory) as typeof memory, {
    load: async (sessionId: string) => (loads.push(sessionId), memory.getSession(sessionId as never) !== undefined),
    unload: () => undefined,
    flush: async () => undefined,
    onLost: () => () => undefined,
  });
  const host = createHost({ store });
  t.after(() => host.dispose());
  const sessionId = host.as({ id: 'alice' }).openSession();
  host.unload(sessionId); // as after a restart: only its record is known here
  loads.length = 0;
  assert.equal(await host.as({ id: 'mallory' }).load(sessionId), false);
  assert.deepEqual(loads, [], 'not read in for someone the policy refuses');
  assert.equal(await host.as({ id: 'alice' }).load(sessionId), true);
  assert.deepEqual(loads, [sessionId]);
});
