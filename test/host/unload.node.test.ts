import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentTurn } from '../../host/types.js';
import type { SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient, until } from '../transport/helpers.js';
import { admitNext, goodValues, ids, makeHost, manualSurface, say, ScriptedDriver } from './helpers.js';
import { storeFactories } from './stores.js';
import { closeLastFirst } from '../closeWhenDone.js';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

/** Everything a client can read about a session. */
async function snapshot(host: ReturnType<typeof makeHost>, sessionId: SessionId, surfaceId: string) {
  return {
    view: host.getView(sessionId),
    log: await host.readLog(sessionId, { limit: 500 }),
    active: await host.taskSurface.getActive({ sessionId, surfaceId } as Parameters<typeof host.taskSurface.getActive>[0]),
    summary: host.sessionSummary(sessionId),
  };
}

for (const factory of storeFactories) {
  describe(`unloading idle sessions (${factory.name} store)`, () => {
    it('keeps the sessions in memory bounded when many are opened', async (t) => {
      const handle = await factory.create();
      const closing = closeLastFirst(t);
      closing({ close: () => handle.cleanup() });
      const host = makeHost(handle, { maxLoadedSessions: 50 });
      closing({ close: () => host.dispose() });
      const opened = Array.from({ length: 400 }, (_, i) => host.openSession({ title: `s${i}` }));
      // Unloading runs once the burst of opens is over (never inside a load).
      await until(() => host.loadedSessionCount() <= 50);
      assert.equal(host.loadedSessionCount(), 50);
      // Each comes back on its next use (after `load`: a PostgreSQL store dropped its copy too).
      assert.equal(await host.load(opened[0]!), true);
      assert.deepEqual(host.sessionSummary(opened[0]!), { sessionId: opened[0], title: 's0', lastSeq: host.getView(opened[0]!).lastSeq });
    });

    it('an unloaded session answers exactly as before: view, log, getActive, summary, queued rows', async (t) => {
      const handle = await factory.create();
      const closing = closeLastFirst(t);
      closing({ close: () => handle.cleanup() });
      const driver = new ScriptedDriver();
      const host = makeHost(handle, { driver, autoAdmit: false, maxLoadedSessions: 1 });
      closing({ close: () => host.dispose() });
      const { sessionId, surfaceId } = await manualSurface(host, driver);
      const queued = await say(host, sessionId, 'one more thing');
      assert.ok(queued.accepted);
      const before = await snapshot(host, sessionId, surfaceId);
      host.openSession({ title: 'another' });
      await until(() => host.loadedSessionCount() === 1); // the first session was unloaded
      assert.equal(await host.load(sessionId), true);
      assert.deepEqual(await snapshot(host, sessionId, surfaceId), before);
      // The stored row is the same row: admitting it makes the same message durable, once.
      const event = host.inbox.claimNext(sessionId)!.commit();
      assert.equal(event.messageId, queued.messageId);
    });

    it('never unloads a session with a watcher or a pending submission; unloads idle ones after sessionIdleMs', async (t) => {
      const handle = await factory.create();
      const closing = closeLastFirst(t);
      closing({ close: () => handle.cleanup() });
      const driver = new ScriptedDriver();
      const host = makeHost(handle, { driver, autoAdmit: false, sessionIdleMs: 20 });
      closing({ close: () => host.dispose() });
      const watched = host.openSession({ title: 'watched' });
      const stop = host.watchSession(watched, () => {});
      // Watched while it is set up: between a message and its claim an idle session may leave
      // memory (a slow store's flush can outlast sessionIdleMs), and the claim would find it gone.
      const pending = host.openSession({ title: 'T' });
      const setup = host.watchSession(pending, () => {});
      driver.showSurface();
      await say(host, pending, 'please show a form');
      await admitNext(host, pending);
      const surfaceId = host.getView(pending).taskSurface.active!.surfaceId as TaskSurfaceId;
      const submitted = await host.taskSurface.submit({
        sessionId: pending,
        surfaceId,
        submissionId: ids.submission(),
        values: goodValues,
      });
      assert.ok(submitted.accepted);
      setup(); // from here only the pending submission keeps it
      const idle = host.openSession({ title: 'idle' });
      await until(() => host.loadedSessionCount() === 2); // only the idle session leaves memory
      await tick(60);
      assert.equal(host.loadedSessionCount(), 2, 'the watched session and the pending submission stay');
      const active = await host.taskSurface.getActive({ sessionId: pending, surfaceId });
      assert.ok(active.active && active.pending?.phase === 'queued', 'the process-local submission is still queued');
      assert.equal(await host.load(idle), true);
      assert.equal(host.getView(idle).sessionId, idle);
      stop();
    });

    it('a session unloaded mid-turn stops its turn quietly: the driver is aborted, nothing more is written', async (t) => {
      const handle = await factory.create();
      const closing = closeLastFirst(t);
      closing({ close: () => handle.cleanup() });
      const errors: Error[] = [];
      let signal: AbortSignal | undefined;
      let settled!: () => void;
      const done = new Promise<void>((resolve) => (settled = resolve));
      // A driver that notices the abort late and still tries to answer.
      const driver = {
        async runTurn(turn: AgentTurn) {
          signal = turn.signal;
          await new Promise((resolve) => turn.signal.addEventListener('abort', resolve, { once: true }));
          await tick();
          try {
            turn.reply('too late');
          } catch {
            // the turn has ended
          }
          settled();
        },
      };
      const host = makeHost(handle, { driver, onError: (error) => errors.push(error) });
      closing({ close: () => host.dispose() });
      const sessionId = host.openSession({ title: 'T' });
      await say(host, sessionId, 'start a turn');
      await until(() => signal !== undefined);
      const lastSeq = host.getView(sessionId).lastSeq;
      host.unload(sessionId);
      assert.equal(signal!.aborted, true, 'the driver is aborted at once');
      await done;
      await tick(30);
      assert.deepEqual(errors.map(String), [], 'nothing is reported');
      assert.equal(host.loadedSessionCount(), 0, 'the session stays unloaded');
      assert.equal(await host.load(sessionId), true);
      const after = (await host.readLog(sessionId, { limit: 500 })).events.filter((event) => event.seq > lastSeq);
      assert.ok(
        after.every((event) => event.type !== 'assistant/message' && !(event.type === 'turn/ended' && event.outcome === 'cancelled')),
        `nothing written by the stopped turn: ${JSON.stringify(after.map((event) => event.type))}`,
      );
    });
  });
}

describe('session.open over WebSocket', () => {
  it('opens 2,000 sessions with memory bounded, each answered with its summary', async (t) => {
    const handle = await storeFactories[0]!.create();
    const closing = closeLastFirst(t);
    closing({ close: () => handle.cleanup() });
    const host = makeHost(handle, { maxLoadedSessions: 100 });
    closing({ close: () => host.dispose() });
    let listed = 0;
    const counted = {
      ...host,
      listSessions: () => {
        listed++;
        return host.listSessions();
      },
    };
    const server = closing(await createWebSocketServer({ allowAnonymous: true, host: counted, port: 0, heartbeatMs: 0, rateLimit: false }));
    const client = connectClient(server.port, { heartbeatMs: 0 });
    closing({ close: () => client.dispose() });
    for (let i = 0; i < 2_000; i++) {
      const summary = await client.openSession({ title: `chat ${i}` });
      assert.equal(summary.title, `chat ${i}`);
      assert.equal(summary.lastSeq, 0);
    }
    assert.equal(listed, 0, 'session.open never lists the store');
    await until(() => host.loadedSessionCount() <= 100);
    assert.equal(host.listSessions().length, 2_000);
  });
});
