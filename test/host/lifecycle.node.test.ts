import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createPageKind } from '../../host/actionCards/kinds/index.js';
import type { Host } from '../../host/types.js';
import type { CallId, SessionId } from '../../protocol/index.js';
import { pageArgs } from '../action-cards/helpers.js';
import { makeHost, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/*
 * Host lifecycle edges: disposal while card operations run; the order of step hooks.
 */

/** One turn that loads the create-page skill and proposes a card; returns the card's callId. */
async function proposeCard(host: Host, driver: ScriptedDriver, sessionId: SessionId): Promise<CallId> {
  let callId: CallId | undefined;
  driver.then(async (turn) => {
    await turn.callTool('skill', { name: 'create-page' });
    callId = (await turn.callTool('propose_action', pageArgs())).callId;
    turn.reply('Here is the plan.');
  });
  await say(host, sessionId, 'plan my trip');
  await host.whenIdle(sessionId);
  assert.ok(callId, 'the scripted turn proposed a card');
  return callId;
}

for (const factory of storeFactories) {
  describe(`host lifecycle (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let host: Host;
    let driver: ScriptedDriver;
    const start = (kind = createPageKind()) => {
      handle = factory.create();
      driver = new ScriptedDriver();
      host = makeHost(handle, { driver });
      host.actionCards.register(kind);
    };
    afterEach(async () => {
      await host.dispose();
      handle.cleanup();
    });

    it('dispose refuses acts as closing, also one whose operation was already running', async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => { release = resolve; });
      start({ ...createPageKind(), reconcile: () => gate });
      const sessionId = host.openSession();
      const callId = await proposeCard(host, driver, sessionId);
      const racing = host.actionCards.act({ sessionId, callId, verb: 'create' });
      const disposing = host.dispose();
      assert.deepEqual(await host.actionCards.act({ sessionId, callId, verb: 'dismiss' }), { status: 'refused', reason: 'closing' });
      release();
      assert.deepEqual(await racing, { status: 'refused', reason: 'closing' });
      await disposing;
      assert.equal(handle.store.read(sessionId).filter((e) => e.type === 'action-cards/decision').length, 0, 'nothing recorded');
    });

    it('a step hook registered after the action-cards service still runs before its notice', async () => {
      start();
      const sessionId = host.openSession();
      const callId = await proposeCard(host, driver, sessionId);
      // A later plugin's context: it records a decision that this very request must report.
      const stop = host.plugins.onBeforeStep(({ sessionId: id }) => {
        if (host.getView(id).actionCards.decisions[callId]) return;
        host.actionCards.record({ sessionId: id, callId, action: 'create_page', phase: 'dismissed' });
      });
      let messages: { role: string; text: string }[] = [];
      driver.then((turn) => {
        messages = turn.step().messages;
        turn.reply('ok');
      });
      await say(host, sessionId, 'thanks');
      await host.whenIdle(sessionId);
      stop();
      const last = messages.at(-1);
      assert.equal(last?.role, 'developer', 'the notice is the last message of the request');
      assert.match(last.text, /"phase":"dismissed"/, 'it reports the decision the other hook recorded');
      assert.deepEqual(handle.store.read(sessionId).slice(-4).map((e) => e.type),
        ['action-cards/decision', 'action-cards/notice', 'assistant/message', 'turn/ended']);
    });
  });
}
