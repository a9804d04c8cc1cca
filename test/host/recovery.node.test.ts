// What a stopped process left unanswered is answered when the session's inbox starts again; what a
// fork inherited, what a rewind cut and what still runs in this process is not.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { AgentTurn, Host } from '../../host/types.js';
import type { SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { goodValues, ids, makeHost, sampleModel, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

/** A script that blocks its turn (ignoring cancellation) until `release`; `started` resolves once it runs. */
function stuckTurn() {
  let started!: () => void;
  let release!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const script = async (turn: AgentTurn) => {
    turn.step();
    turn.reply('partial');
    started();
    await released;
  };
  return { running, release, script };
}

for (const factory of storeFactories) {
  describe(`recovery of unfinished work (${factory.name} store)`, () => {
    let handle: StoreHandle;
    let hosts: Host[];
    const start = (driver = new ScriptedDriver(), autoAdmit = true) => {
      const host = makeHost(handle, { driver, autoAdmit });
      hosts.push(host);
      return host;
    };
    beforeEach(async () => {
      handle = await factory.create();
      hosts = [];
    });
    afterEach(async () => {
      for (const host of hosts) await host.dispose();
      await handle.cleanup();
    });
    const outcomes = (sessionId: SessionId) =>
      handle.store
        .read(sessionId)
        .flatMap((e) => (e.type === 'turn/ended' ? [e.outcome] : e.type === 'turn/started' ? [e.rerunOf ? 'rerun' : 'started'] : []));

    /** A session whose turn blocks forever in `dead` (a process that stopped mid-turn, never disposed). */
    async function crashedMidTurn() {
      const stuck = stuckTurn();
      const dead = start(new ScriptedDriver().then(stuck.script));
      const sessionId = dead.openSession({ title: 'T' });
      await say(dead, sessionId, 'work');
      await stuck.running;
      hosts.splice(hosts.indexOf(dead), 1); // never disposed: it stopped
      return { sessionId, stuck };
    }

    it('a second host ends the interrupted turn and reruns it once; a third finds nothing to do', async () => {
      const { sessionId } = await crashedMidTurn();
      const driver = new ScriptedDriver();
      const host = start(driver);
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(outcomes(sessionId), ['started', 'interrupted', 'rerun', 'completed']);
      assert.equal(driver.turns.length, 1);
      const third = new ScriptedDriver();
      start(third).getView(sessionId);
      assert.equal(third.turns.length, 0);
      assert.deepEqual(outcomes(sessionId), ['started', 'interrupted', 'rerun', 'completed']);
    });

    it('a turn that showed a Task Surface before the stop is not rerun: the agent waits for the submission', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const dead = start(
        new ScriptedDriver().then(async (turn) => {
          turn.step();
          await turn.callTool('show_task_surface', { model: sampleModel() });
          started();
          await new Promise(() => {});
        }),
      );
      const sessionId = dead.openSession({ title: 'T' });
      await say(dead, sessionId, 'show me');
      await running;
      hosts.splice(hosts.indexOf(dead), 1);
      const driver = new ScriptedDriver();
      const host = start(driver);
      const surface = host.getView(sessionId).taskSurface.active;
      await host.whenIdle(sessionId);
      assert.equal(driver.turns.length, 0);
      assert.deepEqual(outcomes(sessionId), ['started', 'interrupted']);
      assert.ok(surface);
      const submitted = await host.taskSurface.submit({
        sessionId,
        surfaceId: surface.surfaceId as TaskSurfaceId,
        submissionId: ids.submission(),
        values: goodValues,
      });
      assert.ok(submitted.accepted);
      await host.whenIdle(sessionId);
      assert.equal(driver.turns.length, 1);
      assert.deepEqual(outcomes(sessionId), ['started', 'interrupted', 'started', 'completed']);
    });

    it('a fork taken mid-turn inherits the unended turn but starts nothing', async () => {
      const { sessionId } = await crashedMidTurn();
      const driver = new ScriptedDriver();
      const host = start(driver);
      const fork = host.fork(sessionId, { throughSeq: handle.store.lastSeq(sessionId) });
      await host.whenIdle(fork);
      assert.equal(host.getView(fork).turn, 'idle');
      assert.deepEqual(outcomes(fork), ['started']);
    });

    it('a rewind back to a user message does not make that message unanswered work', async () => {
      const host = start();
      const sessionId = host.openSession({ title: 'T' });
      await say(host, sessionId, 'hello');
      await host.whenIdle(sessionId);
      const userSeq = handle.store.read(sessionId).find((e) => e.type === 'user/message')!.seq;
      host.rewind(sessionId, userSeq);
      await host.dispose();
      await handle.reopen();
      const driver = new ScriptedDriver();
      start(driver).getView(sessionId);
      assert.equal(driver.turns.length, 0);
    });

    it('a durable message no turn started for (stopped between the two) gets a turn on the next start', async () => {
      const first = start(new ScriptedDriver(), false);
      const sessionId = first.openSession({ title: 'T' });
      await say(first, sessionId, 'one');
      await say(first, sessionId, 'two');
      const a = first.inbox.claimNext(sessionId)!;
      first.inbox.claimNext(sessionId);
      a.commit(); // durable; the turn waits for the other open claim, and the process stops here
      hosts.splice(hosts.indexOf(first), 1);
      const driver = new ScriptedDriver();
      const host = start(driver);
      host.getView(sessionId);
      await host.whenIdle(sessionId);
      assert.deepEqual(
        driver.turns.map((t) => t.input.map((m) => m.text)),
        [['one'], ['two']],
      );
      assert.deepEqual(outcomes(sessionId), ['started', 'completed', 'started', 'completed']);
    });

    it('a session closed and opened again while its turn still runs here is not a crash: nothing is rerun', async () => {
      const stuck = stuckTurn();
      const driver = new ScriptedDriver().then(stuck.script);
      const host = start(driver);
      const sessionId = host.openSession({ title: 'T' });
      await host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'work' });
      await stuck.running;
      host.closeSession(sessionId); // the driver ignores the abort: the turn is still running
      host.getView(sessionId);
      stuck.release();
      await host.dispose(); // waits for the closed inbox's turn to end
      assert.equal(driver.turns.length, 1);
      assert.deepEqual(outcomes(sessionId), ['started', 'cancelled']);
    });
  });
}
