import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createPageKind, scheduleFollowUpKind } from '../../host/actionCards/kinds/index.js';
import type { AgentTurn, Host } from '../../host/types.js';
import type { CallId, SessionId, SessionView } from '../../protocol/index.js';
import { makeHost, say, ScriptedDriver } from '../host/helpers.js';
import { storeFactories, type StoreHandle } from '../host/stores.js';
import { followUpArgs, NOW, pageArgs } from './helpers.js';

/*
 * The action-cards service inside the real host (createHost), driven by a scripted agent.
 */

const toolNames = (turn: AgentTurn) => turn.step().tools.map((t) => t.name);

for (const factory of storeFactories) {
  describe(`action cards through createHost (${factory.name})`, () => {
    let handle: StoreHandle;
    let host: Host;
    // The driver comes back in an array: a ScriptedDriver has a `then` method, so awaiting it alone would call that.
    const start = async (): Promise<[ScriptedDriver]> => {
      handle = await factory.create();
      const driver = new ScriptedDriver();
      host = makeHost(handle, { driver });
      host.actionCards.register(createPageKind());
      host.actionCards.register(scheduleFollowUpKind({ now: () => NOW }));
      return [driver];
    };
    afterEach(async () => {
      await host.dispose();
      await handle.cleanup();
    });

    /** One user message whose turn loads the skill and proposes; returns the card's callId. */
    const cardTurn = async (driver: ScriptedDriver, sessionId: SessionId, args = pageArgs(), skill = 'create-page') => {
      let callId: CallId | undefined;
      driver.then(async (turn) => {
        turn.step();
        await turn.callTool('skill', { name: skill });
        assert.ok(toolNames(turn).includes('propose_action'), 'advertised from the next step');
        const result = await turn.callTool('propose_action', args);
        assert.equal(result.ok, true, result.content);
        callId = result.callId;
        turn.reply('Here is the plan.');
      });
      await say(host, sessionId, 'plan my trip');
      await host.whenIdle(sessionId);
      assert.ok(callId);
      return callId;
    };

    it('a direct skill load activates propose_action; the card shows in the session view', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      driver.then(async (turn) => {
        assert.ok(!toolNames(turn).includes('propose_action'), 'costs nothing before a card skill loads');
        turn.reply('hi');
      });
      await say(host, sessionId, 'hello');
      await host.whenIdle(sessionId);
      const views: SessionView[] = [];
      const stop = host.watchSession(sessionId, (view) => views.push(view));
      const callId = await cardTurn(driver, sessionId);
      stop();
      const view = host.getView(sessionId).actionCards;
      assert.deepEqual(
        view.proposals.map((p) => [p.callId, p.action, p.title]),
        [[callId, 'create_page', 'Save as a page']],
      );
      assert.ok(
        views.some((v) => v.actionCards.proposals.length === 1),
        'watchers saw the card',
      );
    });

    it('acting records a decision; the next step carries one notice, last, and never again', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      const callId = await cardTurn(driver, sessionId);
      assert.deepEqual(await host.actionCards.act({ sessionId, callId, verb: 'create' }), { status: 'accepted', phase: 'created' });
      const notices: string[][] = [];
      driver.then((turn) => {
        const request = turn.step();
        const last = request.messages.at(-1)!;
        notices.push([last.role, last.text]);
        const again = turn.step().messages.filter((m) => m.role === 'developer' && m.text.startsWith('Latest status'));
        notices.push([String(again.length)]);
        turn.reply('ok');
      });
      await say(host, sessionId, 'thanks');
      await host.whenIdle(sessionId);
      const [[role, text], [count]] = notices as [[string, string], [string]];
      assert.equal(role, 'developer');
      assert.match(text!, /^Latest status of action cards from user actions and background work\./);
      assert.match(text!, /Continue with the user’s current request\.\n\n\[\{"action":"create_page"/);
      assert.equal(count, '1', 'one notice in the prompt; a later step adds none');
      const logged = (await host.readLog(sessionId, { limit: 100 })).events.filter((e) => e.type === 'action-cards/notice');
      assert.equal(logged.length, 1);
    });

    it('a decision alone starts no turn', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      const callId = await cardTurn(driver, sessionId);
      const turns = driver.turns.length;
      await host.actionCards.act({ sessionId, callId, verb: 'dismiss' });
      await host.whenIdle(sessionId);
      assert.equal(driver.turns.length, turns);
      assert.equal(host.getView(sessionId).turn, 'idle');
    });

    it('a newer card of another kind replaces the unstarted one', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      const first = await cardTurn(driver, sessionId);
      await cardTurn(driver, sessionId, followUpArgs(), 'schedule-follow-up');
      assert.equal(host.getView(sessionId).actionCards.decisions[first]?.phase, 'replaced');
    });

    it('closing the session ends the activation; acts need the live root', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      const callId = await cardTurn(driver, sessionId);
      host.closeSession(sessionId);
      assert.deepEqual(await host.actionCards.act({ sessionId, callId, verb: 'create' }), { status: 'refused', reason: 'not-live-root' });
      let offered: boolean | undefined;
      driver.then((turn) => {
        offered = toolNames(turn).includes('propose_action');
        turn.reply('ok');
      });
      await say(host, sessionId, 'again');
      await host.whenIdle(sessionId);
      assert.equal(offered, false, 'a reopened session needs the skill loaded again');
    });

    it('refuses while two user messages wait for later turns', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      let content = '';
      driver.then(async (turn) => {
        await turn.callTool('skill', { name: 'create-page' });
        await say(host, sessionId, 'one more thing');
        await say(host, sessionId, 'and another');
        content = (await turn.callTool('propose_action', pageArgs())).content;
        turn.reply('ok');
      });
      await say(host, sessionId, 'plan my trip');
      await host.whenIdle(sessionId);
      assert.equal(content, 'The user has queued more messages; show no card and answer briefly.');
    });

    it('a fork inherits no cards', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      await cardTurn(driver, sessionId);
      const fork = host.fork(sessionId);
      assert.deepEqual(host.getView(fork).actionCards, { proposals: [], decisions: {} });
    });

    it('a rewind before a card removes it; acting on it is then unknown', async () => {
      const [driver] = await start();
      const sessionId = host.openSession();
      const keep = await cardTurn(driver, sessionId);
      const cut = host.getView(sessionId).lastSeq;
      const gone = await cardTurn(driver, sessionId, followUpArgs(), 'schedule-follow-up');
      host.rewind(sessionId, cut);
      assert.deepEqual(
        host.getView(sessionId).actionCards.proposals.map((p) => p.callId),
        [keep],
      );
      assert.deepEqual(await host.actionCards.act({ sessionId, callId: gone, verb: 'dismiss' }), { status: 'refused', reason: 'unknown' });
      assert.deepEqual(await host.actionCards.act({ sessionId, callId: keep, verb: 'dismiss' }), {
        status: 'accepted',
        phase: 'dismissed',
      });
    });

    it('code mode never advertises propose_action', async () => {
      const [driver] = await start();
      const sessionId = host.openSession({ toolMode: 'code' });
      let offered: boolean | undefined;
      driver.then(async (turn) => {
        await turn.callTool('skill', { name: 'create-page' }, { origin: 'code' });
        offered = toolNames(turn).includes('propose_action');
        turn.reply('ok');
      });
      await say(host, sessionId, 'plan');
      await host.whenIdle(sessionId);
      assert.equal(offered, false);
    });
  });
}
