import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createPageKind } from '../../host/actionCards/kinds/index.js';
import type { Host } from '../../host/types.js';
import type { CallId, SessionId } from '../../protocol/index.js';
import { pageArgs } from '../action-cards/helpers.js';
import { assertProjectionIsFold } from './fixture.js';
import { makeHost, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/*
 * Host lifecycle edges: disposal while card operations run; the order of step hooks; a turn that a
 * rewind cancels while a tool call is in flight.
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
    const start = async (kind = createPageKind()) => {
      handle = await factory.create();
      driver = new ScriptedDriver();
      host = makeHost(handle, { driver });
      host.actionCards.register(kind);
    };
    afterEach(async () => {
      await host.dispose();
      await handle.cleanup();
    });

    it('dispose refuses acts as closing, also one whose operation was already running', async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await start({ ...createPageKind(), reconcile: () => gate });
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
      await start();
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
      assert.deepEqual(
        handle.store
          .read(sessionId)
          .slice(-4)
          .map((e) => e.type),
        ['action-cards/decision', 'action-cards/notice', 'assistant/message', 'turn/ended'],
      );
    });

    it('a show_task_surface result that lands after a rewind opens nothing, now or after a restart', async () => {
      await start();
      const sessionId = host.openSession();
      const toSeq = host.getView(sessionId).lastSeq;
      // The rewind arrives while the call is in flight: its tool/call is durable, its result is not.
      const stop = host.plugins.onEvent((id, event) => {
        if (id === sessionId && event.type === 'tool/call' && event.name === 'show_task_surface') host.rewind(sessionId, toSeq);
      });
      driver.showSurface();
      await say(host, sessionId, 'show a form');
      await host.whenIdle(sessionId);
      stop();
      const raw = handle.store.read(sessionId);
      const marker = raw.findIndex((e) => e.type === 'session/rewound');
      assert.deepEqual(
        raw.slice(marker + 1).map((e) => e.type),
        ['tool/result', 'turn/ended'],
        'the late events are stored',
      );
      const late = raw[marker + 1]!;
      assert.ok(late.type === 'tool/result' && late.ok && late.meta, 'the tool did run');
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      assertProjectionIsFold(host, handle.store, sessionId);
      assert.deepEqual((await host.readLog(sessionId, { limit: 100 })).events, [], 'the transcript is cut back');
      const surfaceId = (late.meta as { surfaceId: never }).surfaceId;
      assert.deepEqual(await host.taskSurface.getActive({ sessionId, surfaceId }), { active: false, reason: 'not-open' });
      // A new host over the same store (a restart) folds the same log the same way.
      await host.dispose();
      await handle.reopen();
      host = makeHost(handle, { driver });
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      assertProjectionIsFold(host, handle.store, sessionId);
      // Nothing blocks the next surface.
      driver.showSurface();
      await say(host, sessionId, 'again');
      await host.whenIdle(sessionId);
      assert.ok(host.getView(sessionId).taskSurface.active);
    });

    it("a rewound turn's late tool result and end are not in the next prompt; the next turn counts", async () => {
      await start();
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let called = () => {};
      const inFlight = new Promise<void>((resolve) => {
        called = resolve;
      });
      host.plugins.registerTool({
        definition: { name: 'slow', description: 'Waits.', inputSchema: { type: 'object' } },
        modes: ['native'],
        execute: async () => {
          called();
          await gate;
          return { ok: true, content: 'slow result' };
        },
      });
      const sessionId = host.openSession();
      driver.then(async (turn) => {
        turn.step();
        await turn.callTool('slow', {});
        turn.reply('after the slow call');
      });
      await say(host, sessionId, 'go slow');
      await inFlight;
      const callSeq = host.getView(sessionId).lastSeq;
      host.rewind(sessionId, callSeq);
      release();
      await host.whenIdle(sessionId);
      const raw = handle.store.read(sessionId);
      assert.deepEqual(
        raw.slice(callSeq).map((e) => e.type),
        ['session/rewound', 'tool/result', 'turn/ended'],
      );
      let prompt: string[] = [];
      driver.then((turn) => {
        prompt = turn.step().messages.map((m) => `${m.role}: ${m.text}`);
        turn.reply('fresh');
      });
      await say(host, sessionId, 'next');
      await host.whenIdle(sessionId);
      assert.ok(!prompt.some((line) => line.includes('slow result')), prompt.join('\n'));
      assert.deepEqual(prompt.at(-1), 'user: next');
      const page = await host.readLog(sessionId, { limit: 100 });
      assert.deepEqual(
        page.events.slice(-4).map((e) => e.type),
        ['user/message', 'turn/started', 'assistant/message', 'turn/ended'],
      );
      assertProjectionIsFold(host, handle.store, sessionId);
    });
  });
}
