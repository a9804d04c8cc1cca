// A surface a plugin opens with a tool result read back from a store (its meta not built by this
// process's tool) shows its model: the host parses it rather than caching a model it has not got,
// and reads the call's first stored result, so a failed or malformed one counts as not open.
import assert from 'node:assert/strict';
import { it, type TestContext } from 'node:test';
import type { CallId, SessionEvent, TaskSurfaceId, TurnId } from '../../protocol/index.js';
import { makeHost, ScriptedDriver, withOpenSurface } from './helpers.js';
import { storeFactories } from './stores.js';

const memory = storeFactories.find((factory) => factory.name === 'memory')!;
const surfaceId = 'surface-plugin' as TaskSurfaceId;

/** A session with no surface, and a show_task_surface result as a store gives it back (for surfaceId). */
async function storedResult(t: TestContext) {
  const handle = await memory.create();
  const driver = new ScriptedDriver();
  const host = makeHost(handle, { driver });
  t.after(async () => {
    await host.dispose();
    await handle.cleanup();
  });
  const shown = await withOpenSurface(host, driver);
  const stored = handle.store.findCall(shown.sessionId, shown.callId as CallId).result as Extract<SessionEvent, { type: 'tool/result' }>;
  const meta = { ...(JSON.parse(JSON.stringify(stored.meta)) as object), surfaceId };
  const { callId, turnId, name, content } = stored;
  const result = { type: 'tool/result' as const, callId, turnId: turnId as TurnId, name, content, ok: true, meta };
  return { host, sessionId: host.openSession({ title: 'plugin' }), result, model: (stored.meta as { model: unknown }).model };
}

it('a surface opened by a plugin-appended stored tool result is open with its model', async (t) => {
  const { host, sessionId, result, model } = await storedResult(t);
  host.plugins.append(sessionId, result);
  const active = await host.taskSurface.getActive({ sessionId, surfaceId });
  assert.equal(active.active, true);
  assert.deepEqual(active.active && active.model, model);
});

for (const [name, first] of [
  ['failed', { ok: false }],
  ['without a well-formed meta', { meta: { kind: 'task-surface' } }],
] as const) {
  it(`a surface whose call's first stored result is ${name} counts as not open`, async (t) => {
    const { host, sessionId, result } = await storedResult(t);
    host.plugins.append(sessionId, { ...result, ...first });
    host.plugins.append(sessionId, result);
    assert.equal(host.getView(sessionId).taskSurface.active?.surfaceId, surfaceId, 'the second result opened it');
    assert.deepEqual(await host.taskSurface.getActive({ sessionId, surfaceId }), { active: false, reason: 'not-open' });
  });
}
