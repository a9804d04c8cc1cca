// The harness of the store-error suites: a host over a store that fails chosen calls. The state is
// exported as live bindings, so the tests always see the host of the current run.
import { afterEach, beforeEach } from 'node:test';
import { createHost } from '../../host/createHost.js';
import type { Host } from '../../host/types.js';
import type { SessionId } from '../../protocol/index.js';
import { faultyStore, type FaultyStore } from './faultyStore.js';
import { counterIds, ids, ScriptedDriver } from './helpers.js';
import type { StoreFactory, StoreHandle } from './stores.js';

export let handle: StoreHandle;
export let faulty: FaultyStore;
export let driver: ScriptedDriver;
export let host: Host;
export let errors: Error[];

export function start(autoAdmit = true): void {
  driver = new ScriptedDriver();
  let now = 1_000;
  host = createHost({
    store: faulty.store,
    driver,
    autoAdmit,
    clock: () => now++,
    ids: counterIds(),
    onError: (e) => errors.push(e),
  });
}

export async function restart(): Promise<void> {
  await host.dispose();
  await handle.reopen();
  start();
}

/** Registers the hooks that give each test a fresh store (of `factory`'s kind) and host. */
export function useFaultyHost(factory: StoreFactory): void {
  beforeEach(async () => {
    handle = await factory.create();
    faulty = faultyStore(() => handle.store);
    errors = [];
    start();
  });
  afterEach(async () => {
    await host.dispose();
    await handle.cleanup();
  });
}

export const log = (sessionId: SessionId) => handle.store.read(sessionId);
export const types = (sessionId: SessionId) => log(sessionId).map((e) => (e.type === 'turn/ended' ? `${e.type}:${e.outcome}` : e.type));
export const userTexts = (sessionId: SessionId) => log(sessionId).flatMap((e) => (e.type === 'user/message' ? [e.text] : []));
export const send = (sessionId: SessionId, text: string) =>
  host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text });
