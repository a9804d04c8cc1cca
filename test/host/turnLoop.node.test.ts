import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { InspectionEvent } from 'xstate';
import type { TaskSurfaceHostService } from '../../host/taskSurface/index.js';
import type { Host, HostTool } from '../../host/types.js';
import type { SessionEvent, SessionId, SessionView } from '../../protocol/index.js';
import { hostPerTest } from './fixture.js';
import { goodValues, ids, makeHost, say, ScriptedDriver, withOpenSurface } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

const types = (events: SessionEvent[]) => events.map((e) => e.type);

for (const factory of storeFactories) {
  describe(`queue and turn loop (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let driver: ScriptedDriver;
    let host: Host;
    const inspected: InspectionEvent[] = [];
    hostPerTest(
      factory,
      { inspect: (e) => inspected.push(e) },
      (f) => ({ handle, driver, host } = f),
      () => ({ handle, driver, host }),
    );
    beforeEach(() => {
      inspected.length = 0;
    });

    it('an ordinary message becomes a queue row, then a durable message and a turn', async () => {
      const sessionId = host.openSession();
      const views: SessionView[] = [];
      host.watchSession(sessionId, (v) => views.push(v));
      const sent = await say(host, sessionId, 'hello\nsecond line');
      assert.ok(sent.accepted);
      const [row] = views.find((v) => v.queue.length > 0)!.queue;
      assert.deepEqual(row, {
        id: sent.itemId,
        messageId: sent.messageId,
        placement: 'queued',
        text: 'hello\nsecond line',
        preview: 'hello',
        source: { kind: 'user', rpcId: row!.source.rpcId },
      });
      await host.whenIdle(sessionId);
      assert.ok(views.some((v) => v.turn === 'running'));
      assert.equal(views.at(-1)?.turn, 'idle');
      assert.deepEqual(types(handle.store.read(sessionId)), ['user/message', 'turn/started', 'assistant/message', 'turn/ended']);
      assert.equal(driver.turns[0]?.input[0]?.messageId, sent.messageId);
    });

    it('refuses unknown and read-only sessions and edits, steers and removes ordinary rows', async () => {
      assert.deepEqual(await say(host, 'nope' as SessionId, 'x'), { accepted: false, reason: 'unknown-session' });
      const ro = host.openSession({ readOnly: true });
      assert.deepEqual(await say(host, ro, 'x'), { accepted: false, reason: 'read-only' });
      await host.dispose();
      host = makeHost(handle, { driver, autoAdmit: false });
      const sessionId = host.openSession({ sessionId: 'manual' as SessionId });
      const a = await say(host, sessionId, 'first');
      const b = await say(host, sessionId, 'second');
      assert.ok(a.accepted && b.accepted);
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'edit', itemId: a.itemId, text: 'first, edited' }), { ok: true });
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'steer', itemId: b.itemId }), { ok: true });
      assert.deepEqual(
        host.getView(sessionId).queue.map((r) => [r.text, r.placement]),
        [
          ['first, edited', 'queued'],
          ['second', 'steering'],
        ],
      );
      assert.equal(host.inbox.claimNext(sessionId)?.row.text, 'second', 'steering rows are claimed first');
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: a.itemId }), { ok: true });
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: a.itemId }), {
        ok: false,
        reason: 'queue-item-not-found',
      });
      assert.deepEqual(await host.session.updateQueue({ sessionId, op: 'remove', itemId: b.itemId }), {
        ok: false,
        reason: 'queue-item-not-found',
      });
    });

    it('a steering row joins the running turn at its next step', async () => {
      const sessionId = host.openSession();
      let steered: string | undefined;
      driver.then(async (turn) => {
        turn.step();
        const sent = await say(host, sessionId, 'also this');
        assert.ok(sent.accepted);
        await host.session.updateQueue({ sessionId, op: 'steer', itemId: sent.itemId });
        const request = turn.step();
        steered = request.messages.at(-1)?.text;
        turn.reply('done');
      });
      await say(host, sessionId, 'start');
      await host.whenIdle(sessionId);
      assert.equal(steered, 'also this');
      assert.deepEqual(types(handle.store.read(sessionId)), [
        'user/message',
        'turn/started',
        'user/message',
        'assistant/message',
        'turn/ended',
      ]);
    });

    it('step runs the pre-step hooks, then builds the request from the effective log and advertised tools', async () => {
      const sessionId = host.openSession();
      let enabled = false;
      const tool: HostTool = {
        definition: { name: 'gated', description: 'g', inputSchema: { type: 'object' } },
        modes: ['native'],
        when: () => enabled,
        execute: () => ({ ok: true, content: 'gated ran' }),
      };
      const stops = [
        host.plugins.registerTool(tool),
        host.plugins.onBeforeStep(({ sessionId: id }) => {
          host.plugins.append(id, { type: 'action-cards/notice', through: 1, text: 'Latest status.' });
        }),
      ];
      driver.then(async (turn) => {
        const first = turn.step();
        assert.ok(!first.tools.some((t) => t.name === 'gated'));
        assert.deepEqual(
          first.messages.map((m) => [m.role, m.text]),
          [
            ['user', 'go'],
            ['developer', 'Latest status.'],
          ],
        );
        enabled = true;
        assert.ok(turn.step().tools.some((t) => t.name === 'gated'));
        const unknown = await turn.callTool('nope', {});
        assert.deepEqual([unknown.ok, unknown.content], [false, 'No tool named nope is available in this session.']);
        const gated = await turn.callTool('gated', { a: 1 });
        assert.equal(gated.content, 'gated ran');
      });
      await say(host, sessionId, 'go');
      await host.whenIdle(sessionId);
      stops.forEach((stop) => stop());
      const events = handle.store.read(sessionId);
      assert.equal(events.filter((e) => e.type === 'action-cards/notice').length, 2);
      const gatedResult = events.find((e) => e.type === 'tool/result' && e.name === 'gated');
      assert.deepEqual(gatedResult && { ...gatedResult, seq: 0, at: 0 }, {
        seq: 0,
        at: 0,
        type: 'tool/result',
        callId: gatedResult!.type === 'tool/result' ? gatedResult.callId : '',
        turnId: driver.turns[0]!.turnId,
        name: 'gated',
        ok: true,
        content: 'gated ran',
      });
    });

    it('a failing driver ends the turn failed; the loop carries on', async () => {
      const sessionId = host.openSession();
      driver.then(() => {
        throw new Error('model unavailable');
      });
      await say(host, sessionId, 'one');
      await host.whenIdle(sessionId);
      const ended = handle.store.read(sessionId).find((e) => e.type === 'turn/ended');
      assert.deepEqual(ended && ended.type === 'turn/ended' && [ended.outcome, ended.error], ['failed', 'model unavailable']);
      await say(host, sessionId, 'two');
      await host.whenIdle(sessionId);
      assert.equal(handle.store.read(sessionId).filter((e) => e.type === 'turn/ended').length, 2);
    });

    it('closeSession cancels the running turn and disposes the live root; the next use reopens it', async () => {
      const sessionId = host.openSession();
      const disposed: SessionId[] = [];
      host.plugins.onAgentDisposed?.((id) => disposed.push(id));
      let signalled = false;
      driver.then(
        (turn) =>
          new Promise<void>((resolve) => {
            turn.signal.addEventListener('abort', () => {
              signalled = true;
              resolve();
            });
          }),
      );
      await say(host, sessionId, 'long task');
      while (host.getView(sessionId).turn !== 'running' || driver.turns.length === 0) await new Promise((r) => setImmediate(r));
      assert.ok(host.plugins.isLiveRoot(sessionId));
      host.closeSession(sessionId);
      assert.equal(host.plugins.isLiveRoot(sessionId), false);
      assert.deepEqual(disposed, [sessionId]);
      await host.whenIdle();
      await new Promise((r) => setImmediate(r));
      assert.ok(signalled);
      assert.throws(() => driver.turns[0]!.reply('late'), /has ended/);
      const ended = handle.store.read(sessionId).filter((e) => e.type === 'turn/ended');
      assert.deepEqual(
        ended.map((e) => e.type === 'turn/ended' && e.outcome),
        ['cancelled'],
      );
      await say(host, sessionId, 'again');
      assert.ok(host.plugins.isLiveRoot(sessionId));
    });

    it("the view that carries turn/ended already says idle: a turn's end is one view", async () => {
      const sessionId = host.openSession();
      const views: SessionView[] = [];
      host.watchSession(sessionId, (v) => views.push(v));
      await say(host, sessionId, 'hello');
      await host.whenIdle(sessionId);
      const ended = handle.store.read(sessionId).find((e) => e.type === 'turn/ended')!;
      const atEnd = views.filter((v) => v.lastSeq === ended.seq);
      assert.deepEqual(
        atEnd.map((v) => v.turn),
        ['idle'],
      );
      assert.ok(views.some((v) => v.turn === 'running' && v.lastSeq === ended.seq - 1));
    });

    it('the turn loop is visible in the inspector: one long-lived actor per session, none per turn', async () => {
      const sessionId = host.openSession();
      for (const text of ['hello', 'again', 'and again']) {
        await say(host, sessionId, text);
        await host.whenIdle(sessionId);
      }
      const actors = inspected.filter((e) => e.type === '@xstate.actor').map((e) => e.actorRef);
      assert.equal(actors.length, 1, 'three turns, one actor');
      const events = inspected.filter((e) => e.type === '@xstate.event').map((e) => (e.event as { type: string }).type);
      for (const type of ['queue.claimed', 'admission.committed', 'turn.ended'])
        assert.equal(events.filter((t) => t === type).length, 3, type);
    });

    it('passes inspect to every actor it creates (turn loop and surface)', async () => {
      const { sessionId, surfaceId } = await withOpenSurface(host, driver);
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      await host.whenIdle(sessionId);
      const machines = new Set(
        inspected.filter((e) => e.type === '@xstate.actor').map((e) => (e.actorRef as { logic?: { id?: string } }).logic?.id),
      );
      assert.ok(machines.has('turn'));
      assert.ok(machines.has('taskSurface'));
      assert.ok(inspected.some((e) => e.type === '@xstate.event' && (e.event as { type: string }).type === 'queue.claimed'));
    });

    it('a submission cycle publishes each change once: no view repeats the one before it', async () => {
      const { sessionId, surfaceId } = await withOpenSurface(host, driver);
      driver.showSurface();
      const views: SessionView[] = [];
      host.watchSession(sessionId, (v) => views.push(v));
      await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      await host.whenIdle(sessionId);
      await say(host, sessionId, 'and now?');
      await host.whenIdle(sessionId);
      for (let i = 1; i < views.length; i++) assert.notDeepEqual(views[i], views[i - 1], `view ${i} repeats view ${i - 1}`);
      assert.ok(views.some((v) => v.taskSurface.active?.pending?.phase === 'claiming'));
      assert.ok(views.some((v) => v.turn === 'running'));
    });

    it("one surface actor follows a session's submissions, not one per submission", async () => {
      const { sessionId } = await withOpenSurface(host, driver);
      for (let i = 0; i < 3; i++) {
        driver.showSurface();
        const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId;
        const result = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
        assert.equal(result.accepted, true);
        await host.whenIdle(sessionId);
        assert.notEqual(host.getView(sessionId).taskSurface.active!.surfaceId, surfaceId, 'the next surface is open');
      }
      const surfaceActors = inspected.filter(
        (e) => e.type === '@xstate.actor' && (e.actorRef as { logic?: { id?: string } }).logic?.id === 'taskSurface',
      );
      assert.equal(surfaceActors.length, 1);
      const accepted = inspected.filter((e) => e.type === '@xstate.event' && (e.event as { type: string }).type === 'submission.accepted');
      assert.equal(accepted.length, 3);
      assert.deepEqual((host.taskSurface as TaskSurfaceHostService).pendingRecords(sessionId), []);
    });

    it('the plugin API sees the effective log, every event, resets and queued counts', async () => {
      const sessionId = host.openSession();
      const seen: string[] = [];
      const resets: SessionId[] = [];
      host.plugins.onEvent((id, e) => id === sessionId && seen.push(e.type));
      host.plugins.onReset((id) => resets.push(id));
      const sent = say(host, sessionId, 'one');
      assert.equal(host.plugins.queuedMessageCount(sessionId), 1);
      await sent;
      await host.whenIdle(sessionId);
      assert.equal(host.plugins.queuedMessageCount(sessionId), 0);
      assert.deepEqual(seen, ['user/message', 'turn/started', 'assistant/message', 'turn/ended']);
      host.rewind(sessionId, 1);
      assert.deepEqual(resets, [sessionId]);
      assert.deepEqual(types([...host.plugins.events(sessionId)]), ['user/message']);
      assert.equal(host.plugins.hasSession(sessionId), true);
      assert.equal(host.plugins.isReadOnly(sessionId), false);
    });
  });
}

describe('host entry point', () => {
  it('is browser-safe: host/index.ts bundles for the browser without node built-ins, SQLite or lit', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: ['host/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(!inputs.some((p) => /better-sqlite3|node_modules\/lit\/|^node:/.test(p)), inputs.filter((p) => /sqlite|lit/.test(p)).join());
  });
});
