import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createPageKind } from '../../host/actionCards/kinds/index.js';
import type { Host } from '../../host/types.js';
import type { CallId } from '../../protocol/index.js';
import { pageArgs } from '../action-cards/helpers.js';
import { makeHost, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/*
 * Host lifecycle edges: disposal while card operations run.
 */

for (const factory of storeFactories) {
  describe(`host lifecycle (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let host: Host;
    afterEach(async () => {
      await host.dispose();
      handle.cleanup();
    });

    it('dispose refuses acts as closing, also one whose operation was already running', async () => {
      handle = factory.create();
      const driver = new ScriptedDriver();
      host = makeHost(handle, { driver });
      let release = () => {};
      const gate = new Promise<void>((resolve) => { release = resolve; });
      host.actionCards.register({ ...createPageKind(), reconcile: () => gate });
      const sessionId = host.openSession();
      let callId: CallId | undefined;
      driver.then(async (turn) => {
        await turn.callTool('skill', { name: 'create-page' });
        callId = (await turn.callTool('propose_action', pageArgs())).callId;
        turn.reply('Here is the plan.');
      });
      await say(host, sessionId, 'plan my trip');
      await host.whenIdle(sessionId);
      assert.ok(callId);
      const racing = host.actionCards.act({ sessionId, callId, verb: 'create' });
      const disposing = host.dispose();
      assert.deepEqual(await host.actionCards.act({ sessionId, callId, verb: 'dismiss' }), { status: 'refused', reason: 'closing' });
      release();
      assert.deepEqual(await racing, { status: 'refused', reason: 'closing' });
      await disposing;
      assert.equal(handle.store.read(sessionId).filter((e) => e.type === 'action-cards/decision').length, 0, 'nothing recorded');
    });
  });
}
