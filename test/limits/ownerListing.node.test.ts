// Listing a principal's sessions costs O(its own sessions): one owner-index lookup, no log read, no
// look at anyone else's sessions, over the WebSocket transport and in the demo's welcome().
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { SessionLogStore } from '../../host/store/types.js';
import { createDemoHost } from '../../demo/host.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient } from '../transport/helpers.js';

/** The store with every call counted by name. */
function counted(store: SessionLogStore) {
  const calls: Record<string, number> = {};
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[String(name)] = (calls[String(name)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls, reset: () => Object.keys(calls).forEach((k) => delete calls[k]) };
}

it('session.list reads the owner index only, whatever other principals hold', async (t) => {
  const { store, calls, reset } = counted(createMemoryStore());
  const host = createHost({ store, maxLoadedSessions: 50 });
  t.after(() => host.dispose());
  // 2,000 sessions of 400 other people, then two of alice's.
  for (let i = 0; i < 2_000; i++) host.as({ id: `other-${i % 400}` }).openSession({ title: `x${i}` });
  const alice = host.as({ id: 'alice' });
  const mine = [alice.openSession({ title: 'one' }), alice.openSession({ title: 'two' })];
  for (const sessionId of mine) host.unload(sessionId);

  const server = await createWebSocketServer({ host, port: 0, heartbeatMs: 0, authenticate: () => ({ id: 'alice' }) });
  t.after(() => server.close());
  const client = connectClient(server.port);
  t.after(() => client.dispose());
  await client.listSessions(); // connected
  reset();
  const listed = await client.listSessions();
  assert.deepEqual(
    listed.map((s) => s.title),
    ['one', 'two'],
  );
  assert.equal(calls.listSessionsOf, 1, 'one lookup');
  assert.equal(calls.listSessions, undefined, 'never the list of every session');
  assert.equal(calls.read ?? 0, 0, 'no log read');
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  assert.ok(total <= 3 * mine.length + 1, `store calls grow with alice's sessions only (${JSON.stringify(calls)})`);
});

it("the demo's welcome() is one owner-index lookup", async (t) => {
  const { store, calls, reset } = counted(createMemoryStore());
  const demo = createDemoHost({ logStore: store });
  t.after(() => demo.dispose());
  for (let i = 0; i < 500; i++) demo.welcome({ id: `visitor-${i}` });
  reset();
  const first = demo.welcome({ id: 'visitor-7' });
  assert.deepEqual(calls, { listSessionsOf: 1 });
  assert.equal(demo.welcome({ id: 'visitor-7' }), first, 'the same Welcome chat each time');
});
