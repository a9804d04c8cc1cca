// The fold of the session log closes the open surface only on an event about that very surface:
// a correlation or a dismissal that names another callId or surfaceId leaves it open, and a
// dismissalId recorded twice answers a retry with its first record.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Host } from '../../host/types.js';
import type { CallId, MessageId, SessionId, TaskSurfaceDismissalId, TaskSurfaceId } from '../../protocol/index.js';
import { goodValues, ids, makeHost, ScriptedDriver, withOpenSurface } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

const memory = storeFactories.find((factory) => factory.name === 'memory')!;

describe('the surface fold (a log another process wrote)', () => {
  let handle: StoreHandle;
  let hosts: Host[];
  beforeEach(async () => {
    handle = await memory.create();
    hosts = [];
  });
  afterEach(async () => {
    for (const host of hosts) await host.dispose();
    await handle.cleanup();
  });
  const start = () => {
    const host = makeHost(handle, { driver: new ScriptedDriver() });
    hosts.push(host);
    return host;
  };

  /** A surface opened by one host, which then stopped; returns it for the events appended next. */
  async function openedElsewhere() {
    const driver = new ScriptedDriver();
    const first = makeHost(handle, { driver });
    const surface = await withOpenSurface(first, driver);
    await first.dispose();
    return surface;
  }
  const submittedFor = (callId: CallId, surfaceId: TaskSurfaceId) => ({
    type: 'user/message' as const,
    messageId: ids.message() as MessageId,
    text: 'an answer',
    source: {
      kind: 'user' as const,
      rpcId: ids.rpc(),
      taskSurface: { version: 1 as const, submissionId: ids.submission(), callId, surfaceId, values: goodValues },
    },
  });
  const dismissedFor = (callId: CallId, surfaceId: TaskSurfaceId, dismissalId: TaskSurfaceDismissalId = ids.dismissal()) => ({
    type: 'task-surface/dismissed' as const,
    callId,
    surfaceId,
    dismissalId,
  });
  const activeIn = (sessionId: SessionId) => start().getView(sessionId).taskSurface.active?.surfaceId;

  const strangers = [
    ['a submission for the same call but another surfaceId', (callId: CallId) => submittedFor(callId, 'surface-other' as TaskSurfaceId)],
    [
      'a submission for another call with the same surfaceId',
      (_: CallId, surfaceId: TaskSurfaceId) => submittedFor('call-other' as CallId, surfaceId),
    ],
    ['a dismissal of the same call but another surfaceId', (callId: CallId) => dismissedFor(callId, 'surface-other' as TaskSurfaceId)],
    [
      'a dismissal of another call with the same surfaceId',
      (_: CallId, surfaceId: TaskSurfaceId) => dismissedFor('call-other' as CallId, surfaceId),
    ],
  ] as const;
  for (const [name, stranger] of strangers) {
    it(`${name} leaves the surface open`, async () => {
      const { sessionId, callId, surfaceId } = await openedElsewhere();
      handle.store.append(sessionId, stranger(callId, surfaceId), 5_000);
      assert.equal(activeIn(sessionId), surfaceId);
    });
  }

  it('a dismissalId the log holds twice answers a retry with the first record', async () => {
    const { sessionId, callId, surfaceId } = await openedElsewhere();
    const dismissalId = ids.dismissal();
    const first = handle.store.append(sessionId, dismissedFor(callId, surfaceId, dismissalId), 5_000);
    handle.store.append(sessionId, dismissedFor(callId, surfaceId, dismissalId), 5_001);
    const host = start();
    assert.equal(host.getView(sessionId).taskSurface.active, null);
    assert.deepEqual(await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId }), { dismissed: true, eventSeq: first.seq });
  });
});
