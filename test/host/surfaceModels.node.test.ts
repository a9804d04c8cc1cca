// A surface a plugin opens with a tool result read back from a store (its meta not built by this
// process's tool) shows its model: the host parses it rather than caching a model it has not got.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CallId, SessionEvent, TaskSurfaceId, TurnId } from '../../protocol/index.js';
import { makeHost, ScriptedDriver, withOpenSurface } from './helpers.js';
import { storeFactories } from './stores.js';

const memory = storeFactories.find((factory) => factory.name === 'memory')!;

it('a surface opened by a plugin-appended stored tool result is open with its model', async (t) => {
  const handle = await memory.create();
  const driver = new ScriptedDriver();
  const host = makeHost(handle, { driver });
  t.after(async () => {
    await host.dispose();
    await handle.cleanup();
  });
  const shown = await withOpenSurface(host, driver);
  const stored = handle.store.findCall(shown.sessionId, shown.callId as CallId).result as Extract<SessionEvent, { type: 'tool/result' }>;
  const meta = { ...(JSON.parse(JSON.stringify(stored.meta)) as object), surfaceId: 'surface-plugin' };
  const sessionId = host.openSession({ title: 'plugin' });
  const { callId, turnId, name, content } = stored;
  host.plugins.append(sessionId, { type: 'tool/result', callId, turnId: turnId as TurnId, name, ok: true, content, meta });
  const active = await host.taskSurface.getActive({ sessionId, surfaceId: 'surface-plugin' as TaskSurfaceId });
  assert.equal(active.active, true);
  assert.deepEqual(active.active && active.model, (stored.meta as { model: unknown }).model);
});
