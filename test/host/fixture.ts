// Node-only test fixtures for the host suites (node:test hooks, node:assert).
import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import { effectiveLog } from '../../host/projection.js';
import { foldTaskSurface } from '../../host/taskSurface/projection.js';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';
import { makeHost, ScriptedDriver } from './helpers.js';
import type { StoreFactory, StoreHandle } from './stores.js';

/** The projection the host keeps equals a fresh fold of the stored log (pending is process-local). */
export function assertProjectionIsFold(host: Host, store: StoreHandle['store'], sessionId: SessionId) {
  const fresh = foldTaskSurface(effectiveLog(store.read(sessionId)));
  const { active } = host.getView(sessionId).taskSurface;
  assert.deepEqual(active && { callId: active.callId, surfaceId: active.surfaceId }, fresh.active);
}

export interface HostFixture {
  handle: StoreHandle;
  driver: ScriptedDriver;
  host: Host;
}

/**
 * Registers, for every test of the enclosing suite, a fresh store, a scripted driver and a host
 * over them (handed to `set`), and their teardown. A test may replace the host (a restart):
 * `current` returns the fixture to tear down.
 */
export function hostPerTest(
  factory: StoreFactory,
  options: Partial<CreateHostOptions>,
  set: (fixture: HostFixture) => void,
  current: () => HostFixture,
): void {
  beforeEach(async () => {
    const handle = await factory.create();
    const driver = new ScriptedDriver();
    set({ handle, driver, host: makeHost(handle, { driver, ...options }) });
  });
  afterEach(async () => {
    const { host, handle } = current();
    await host.dispose();
    await handle.cleanup();
  });
}
