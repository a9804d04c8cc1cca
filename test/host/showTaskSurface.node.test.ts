import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Host, HostTool } from '../../host/types.js';
import { parseTaskSurfaceModel, type SessionEvent, type ToolResultEvent } from '../../protocol/index.js';
import { hostPerTest } from './fixture.js';
import { goodValues, ids, makeHost, sampleModel, say, ScriptedDriver, withOpenSurface } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

const results = (events: SessionEvent[]) => events.filter((e): e is ToolResultEvent => e.type === 'tool/result');

for (const factory of storeFactories) {
  describe(`show_task_surface (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    hostPerTest(
      factory,
      {},
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );

    it('opens a surface, persists the normalized model as meta and concludes the turn', async () => {
      const { sessionId, surfaceId, callId } = await withOpenSurface(host, driver);
      const { events } = await host.readLog(sessionId, { limit: 50 });
      const [result] = results(events);
      const normalized = parseTaskSurfaceModel(sampleModel());
      assert.ok(normalized.ok);
      assert.deepEqual(result?.meta, { kind: 'task-surface', version: 1, surfaceId, model: normalized.model });
      assert.equal(result?.callId, callId);
      assert.equal(
        result!.content,
        `Task surface "Pick a plan" (${surfaceId}) is now shown to the user; your turn ends here. Their answer will ` +
          'arrive as the next user message. If their client cannot show the panel, they can reply with an ordinary ' +
          'message instead, which closes the surface.',
      );
      assert.deepEqual(events.at(-1), { ...events.at(-1), type: 'turn/ended', outcome: 'concluded' });
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      assert.deepEqual(active, { active: true, callId, surfaceId, model: normalized.model, pending: null });
    });

    it('stops the turn: later calls of the same turn are refused and not logged', async () => {
      const sessionId = host.openSession();
      let second: { ok: boolean; content: string } | undefined;
      driver.then(async (turn) => {
        turn.step();
        const first = turn.callTool('show_task_surface', { model: sampleModel() });
        const again = turn.callTool('show_task_surface', { model: sampleModel('Other') });
        await first;
        second = await again;
        assert.ok(turn.concluded);
        assert.throws(() => turn.step(), /concluded/);
      });
      await say(host, sessionId, 'go');
      await host.whenIdle(sessionId);
      assert.equal(second?.ok, false);
      assert.equal(second!.content, 'The turn has concluded (a human checkpoint); no further tool calls run in it.');
      const { events } = await host.readLog(sessionId, { limit: 50 });
      assert.equal(events.filter((e) => e.type === 'tool/call').length, 1);
    });

    it('refuses a second surface while one is open, without opening one', async () => {
      // Reachable when a turn runs while a surface is open: here a submission for surface A is
      // admitted after an ordinary message bypassed A and the agent showed B.
      await host.dispose();
      host = makeHost(handle, { driver, autoAdmit: false });
      const sessionId = host.openSession();
      const claimAndCommit = async () => {
        host.inbox.claimNext(sessionId)!.commit();
        await host.whenIdle(sessionId);
      };
      driver.showSurface(sampleModel('A'));
      await say(host, sessionId, 'go');
      await claimAndCommit();
      const a = host.getView(sessionId).taskSurface.active!;
      const submitted = await host.taskSurface.submit({
        sessionId,
        surfaceId: a.surfaceId,
        submissionId: ids.submission(),
        values: goodValues,
      });
      assert.equal(submitted.accepted, true);
      const bypass = await say(host, sessionId, 'never mind');
      assert.ok(bypass.accepted);
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'steer', itemId: bypass.itemId }), { ok: true });
      driver.showSurface(sampleModel('B'));
      await claimAndCommit(); // the steering row goes first: A is bypassed, the turn shows B
      const b = host.getView(sessionId).taskSurface.active!;
      assert.notEqual(b.surfaceId, a.surfaceId);
      let refused: { ok: boolean; content: string } | undefined;
      driver.then(async (turn) => {
        turn.step();
        refused = await turn.callTool('show_task_surface', { model: sampleModel('C') });
      });
      await claimAndCommit(); // A's submission becomes durable; it closes nothing, B stays open
      assert.equal(refused?.ok, false);
      assert.equal(
        refused!.content,
        `A task surface (${b.surfaceId}) is already open in this conversation. Wait for the user to submit or ` +
          'dismiss it (or to answer with an ordinary message) before showing another.',
      );
      assert.deepEqual(host.getView(sessionId).taskSurface.active, b);
      const { events } = await host.readLog(sessionId, { limit: 100 });
      assert.equal(events.filter((e) => e.type === 'user/message' && e.source.taskSurface).length, 1);
    });

    it('refuses nested (code-origin) and subagent calls and invalid models, listing the issues', async () => {
      const sessionId = host.openSession();
      const outcomes: { ok: boolean; content: string }[] = [];
      driver.then(async (turn) => {
        turn.step();
        outcomes.push(await turn.callTool('show_task_surface', { model: sampleModel() }, { origin: 'code' }));
        outcomes.push(await turn.callTool('show_task_surface', { model: sampleModel() }, { agent: 'subagent' }));
        outcomes.push(await turn.callTool('show_task_surface', { model: { version: 1, title: 3, sections: [], submit: {} } }));
        outcomes.push(await turn.callTool('show_task_surface', { model: sampleModel(), extra: 1 }));
      });
      await say(host, sessionId, 'go');
      await host.whenIdle(sessionId);
      assert.deepEqual(
        outcomes.map((o) => o.ok),
        [false, false, false, false],
      );
      assert.equal(
        outcomes[0]!.content,
        'show_task_surface cannot be called from code: a nested call cannot carry its panel to the conversation. ' +
          'Call it directly as a tool.',
      );
      assert.equal(outcomes[1]!.content, 'show_task_surface is available to the main agent only; a subagent cannot show a panel.');
      assert.match(outcomes[2]!.content, /model\.title/);
      assert.match(outcomes[2]!.content, /model\.submit\.label/);
      assert.match(outcomes[3]!.content, /extra/);
      assert.equal(host.getView(sessionId).taskSurface.active, null);
      const { events } = await host.readLog(sessionId, { limit: 50 });
      assert.equal(events.at(-1)?.type === 'turn/ended' && events.at(-1), events.at(-1));
      assert.ok(results(events).every((r) => r.meta === undefined));
    });

    it('is advertised in native and both modes, never in code mode', async () => {
      const advertised: Record<string, string[]> = {};
      for (const toolMode of ['native', 'both', 'code'] as const) {
        const sessionId = host.openSession({ toolMode });
        driver.then((turn) => {
          advertised[toolMode] = turn.step().tools.map((t) => t.name);
        });
        await say(host, sessionId, 'go');
        await host.whenIdle(sessionId);
      }
      assert.ok(advertised.native!.includes('show_task_surface'));
      assert.ok(advertised.both!.includes('show_task_surface'));
      assert.ok(!advertised.code!.includes('show_task_surface'));
    });

    it('is an exclusive ordering barrier between concurrency-safe calls', async () => {
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const safe: HostTool = {
        definition: { name: 'lookup', description: 'x', inputSchema: { type: 'object' } },
        concurrencySafe: true,
        modes: ['native', 'both', 'code'],
        async execute(args) {
          order.push(`start ${JSON.stringify(args)}`);
          if ((args as { n: number }).n === 1) await gate;
          order.push(`end ${JSON.stringify(args)}`);
          return { ok: true, content: 'found' };
        },
      };
      const stop = host.plugins.registerTool(safe);
      const sessionId = host.openSession();
      driver.then(async (turn) => {
        turn.step();
        const calls = [
          turn.callTool('lookup', { n: 1 }),
          turn.callTool('lookup', { n: 2 }),
          turn.callTool('show_task_surface', { model: sampleModel() }),
          turn.callTool('lookup', { n: 3 }),
        ];
        await Promise.resolve();
        order.push('released');
        release();
        const outcomes = await Promise.all(calls);
        assert.deepEqual(
          outcomes.map((o) => o.ok),
          [true, true, true, false],
        );
      });
      await say(host, sessionId, 'go');
      await host.whenIdle(sessionId);
      stop();
      // 1 and 2 overlap; show waits for both; 3 waits for show (and is refused: the turn concluded).
      assert.deepEqual(order, ['start {"n":1}', 'start {"n":2}', 'end {"n":2}', 'released', 'end {"n":1}']);
      const { events } = await host.readLog(sessionId, { limit: 50 });
      const calls = events.filter((e) => e.type === 'tool/call').map((e) => (e.type === 'tool/call' ? e.name : ''));
      assert.deepEqual(calls, ['lookup', 'lookup', 'show_task_surface']);
      const showCall = events.findIndex((e) => e.type === 'tool/call' && e.name === 'show_task_surface');
      assert.ok(events.slice(0, showCall).filter((e) => e.type === 'tool/result').length === 2);
    });
  });
}
