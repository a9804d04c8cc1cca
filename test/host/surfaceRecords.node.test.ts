// The pending-submission records follow the log: an ordinary message steered ahead of a queued
// submission closes its occurrence as bypassed, a submission of another surface leaves it pending,
// and the actors that hold nothing are stopped (one spare per session; none after unload or dispose).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { InspectionEvent } from 'xstate';
import type { TaskSurfaceHostService } from '../../host/taskSurface/index.js';
import type { Host } from '../../host/types.js';
import type { CallId, SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { admitNext, goodValues, ids, makeHost, manualSurface, say, ScriptedDriver } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

const memory = storeFactories.find((factory) => factory.name === 'memory')!;
type Inspected = { logic?: { id?: string }; getSnapshot(): { status: string; value: unknown } };

describe('the pending-submission records', () => {
  let handle: StoreHandle;
  let driver: ScriptedDriver;
  let host: Host;
  let inspected: InspectionEvent[];
  beforeEach(async () => {
    handle = await memory.create();
    driver = new ScriptedDriver();
    inspected = [];
    host = makeHost(handle, { driver, autoAdmit: false, inspect: (e) => inspected.push(e) });
  });
  afterEach(async () => {
    await host.dispose();
    await handle.cleanup();
  });
  /** The surface actors the inspector saw created. */
  const surfaceActors = () =>
    inspected.flatMap((e) =>
      e.type === '@xstate.actor' && (e.actorRef as unknown as Inspected).logic?.id === 'taskSurface'
        ? [e.actorRef as unknown as Inspected]
        : [],
    );
  const running = () => surfaceActors().filter((actor) => actor.getSnapshot().status === 'active').length;
  const submit = async (sessionId: SessionId, surfaceId: TaskSurfaceId) => {
    const result = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
    assert.ok(result.accepted);
    return result;
  };
  /** An ordinary message steered ahead of the queued submission, then admitted: the bypass. */
  const bypass = async (sessionId: SessionId) => {
    const sent = await say(host, sessionId, 'never mind the form');
    assert.ok(sent.accepted);
    await host.session.updateQueue({ sessionId, op: 'steer', itemId: sent.itemId });
    await admitNext(host, sessionId);
  };

  it('an ordinary message admitted before a queued submission closes its occurrence as bypassed', async () => {
    const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
    const submitted = await submit(sessionId, surfaceId);
    await bypass(sessionId);
    assert.equal(host.getView(sessionId).taskSurface.active, null);
    const records = (host.taskSurface as TaskSurfaceHostService).pendingRecords(sessionId);
    assert.deepEqual(records, [{ callId, messageId: submitted.messageId, state: JSON.stringify({ closed: 'bypassed' }) }]);
    assert.deepEqual(
      surfaceActors().map((actor) => actor.getSnapshot().value),
      [{ closed: 'bypassed' }],
    );
  });

  it("a submission of the next surface leaves the bypassed one's record; released actors are stopped", async () => {
    const { sessionId, surfaceId } = await manualSurface(host, driver);
    await submit(sessionId, surfaceId);
    driver.showSurface();
    await bypass(sessionId);
    const next = host.getView(sessionId).taskSurface.active!;
    const nextSubmission = await submit(sessionId, next.surfaceId as TaskSurfaceId);
    const bypassedRow = host.inbox.claimNext(sessionId)!;
    const nextRow = host.inbox.claimNext(sessionId)!;
    assert.equal(nextRow.commit().messageId, nextSubmission.messageId);
    await host.whenIdle(sessionId);
    assert.equal(host.getView(sessionId).taskSurface.active, null);
    assert.equal(
      (host.taskSurface as TaskSurfaceHostService).pendingRecords(sessionId).length,
      1,
      'the bypassed row still awaits its outcome',
    );
    assert.equal(surfaceActors().length, 2);
    bypassedRow.discard();
    assert.deepEqual((host.taskSurface as TaskSurfaceHostService).pendingRecords(sessionId), []);
    assert.equal(running(), 1, 'one spare is kept, the other actor stopped');
    host.unload(sessionId);
    assert.equal(running(), 0, 'unloading stops the spare');
  });

  it('a rewind stops the surface actors of the session it cuts, the queued submission’s with them', async () => {
    const { sessionId, surfaceId } = await manualSurface(host, driver);
    const openSeq = host.getView(sessionId).lastSeq;
    await submit(sessionId, surfaceId);
    assert.equal(running(), 1);
    host.rewind(sessionId, openSeq);
    assert.equal(running(), 0, 'no actor is kept for a cut log');
    assert.deepEqual((host.taskSurface as TaskSurfaceHostService).pendingRecords(sessionId), []);
    const active = await host.taskSurface.getActive({ sessionId, surfaceId });
    assert.ok(active.active, 'the surface is open again');
    assert.equal(active.pending, null);
  });

  it('dispose stops the surface actors', async () => {
    const { sessionId, surfaceId } = await manualSurface(host, driver);
    await submit(sessionId, surfaceId);
    assert.equal(running(), 1);
    await host.dispose();
    assert.equal(running(), 0);
  });

  for (const [name, other] of [
    ['the same call but another surfaceId', (callId: CallId) => ({ callId, surfaceId: 'surface-other' as TaskSurfaceId })],
    ['another call with the same surfaceId', (_: CallId, surfaceId: TaskSurfaceId) => ({ callId: 'call-other' as CallId, surfaceId })],
  ] as const) {
    it(`a logged submission for ${name} leaves the queued submission pending`, async () => {
      const { sessionId, surfaceId, callId } = await manualSurface(host, driver);
      const submitted = await submit(sessionId, surfaceId);
      const taskSurface = { version: 1 as const, submissionId: ids.submission(), values: goodValues, ...other(callId, surfaceId) };
      host.plugins.append(sessionId, {
        type: 'user/message',
        messageId: ids.message(),
        text: 'elsewhere',
        source: { kind: 'user', rpcId: ids.rpc(), taskSurface },
      });
      const active = await host.taskSurface.getActive({ sessionId, surfaceId });
      assert.ok(active.active);
      assert.equal(active.pending?.messageId, submitted.messageId);
    });
  }
});
