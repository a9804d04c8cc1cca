// What a rewound turn still writes (a tool result in flight) is stored but changes nothing the
// person sees, even when the rewind kept the call itself: a show_task_surface result opens no
// surface, a propose_action result shows no card, now or after a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPageKind } from '../../host/actionCards/kinds/index.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { SessionLogStore } from '../../host/store/types.js';
import type { AgentTurn, Host } from '../../host/types.js';
import type { JsonValue, SessionId } from '../../protocol/index.js';
import { pageArgs } from '../action-cards/helpers.js';
import { assertProjectionIsFold } from './fixture.js';
import { counterIds, sampleModel, say, ScriptedDriver } from './helpers.js';

/**
 * A host whose store rewinds the session to a tool's call as soon as that call is logged, before
 * its result (as host code reacting to the call would): the turn is cancelled, its result lands late.
 */
function rewindAtCall(t: { after(fn: () => unknown): void }, tool: string, script: (turn: AgentTurn) => Promise<void>) {
  const memory = createMemoryStore();
  const at = { cut: -1 };
  let host: Host | undefined;
  const store: SessionLogStore = Object.assign(Object.create(memory) as typeof memory, {
    append: ((sessionId, event, time) => {
      const stored = memory.append(sessionId, event, time);
      if (event.type === 'tool/call' && event.name === tool) {
        at.cut = stored.seq;
        queueMicrotask(() => host!.rewind(sessionId, at.cut));
      }
      return stored;
    }) satisfies SessionLogStore['append'],
  });
  const start = () => {
    host = createHost({ store, driver: new ScriptedDriver().then(script), ids: counterIds() });
    host.actionCards.register(createPageKind());
    return host;
  };
  const first = start();
  t.after(async () => {
    await host!.dispose();
    memory.close();
  });
  const restart = async () => {
    await host!.dispose();
    return start();
  };
  return { host: first, memory, at, restart };
}

/** One turn, watched as the Dock would (each change builds the view, so its parts fold as they go). */
async function runTurn(host: Host): Promise<SessionId> {
  const sessionId = host.openSession({ title: 'T' });
  const stop = host.watchSession(sessionId, () => {});
  await say(host, sessionId, 'go on');
  await host.whenIdle(sessionId);
  stop();
  return sessionId;
}

function lateResult(memory: ReturnType<typeof createMemoryStore>, sessionId: SessionId, tool: string, cut: number) {
  const events = memory.read(sessionId);
  const result = events.find((e) => e.type === 'tool/result' && e.name === tool);
  assert.ok(result && result.type === 'tool/result', 'the result in flight is still stored');
  assert.equal(result.ok, true, 'the tool itself succeeded');
  assert.ok(result.seq > cut + 1, 'after the rewind marker');
}

describe('a rewound turn writes late', () => {
  it('a show_task_surface result that lands after a rewind to its call opens no surface', async (t) => {
    const { host, memory, at, restart } = rewindAtCall(t, 'show_task_surface', async (turn) => {
      turn.step();
      await turn.callTool('show_task_surface', { model: sampleModel() });
    });
    const sessionId = await runTurn(host);
    lateResult(memory, sessionId, 'show_task_surface', at.cut);
    assert.equal(host.getView(sessionId).taskSurface.active, null);
    assertProjectionIsFold(host, memory, sessionId);
    const page = await host.readLog(sessionId, { limit: 100 });
    assert.deepEqual(
      page.events.filter((e) => e.type.startsWith('tool/')).map((e) => e.type),
      ['tool/call'],
      'the transcript shows the call, not its result',
    );
    assert.equal((await restart()).getView(sessionId).taskSurface.active, null, 'nor after a restart');
  });

  it('a propose_action result that lands after a rewind to its call shows no card', async (t) => {
    const { host, memory, at, restart } = rewindAtCall(t, 'propose_action', async (turn) => {
      turn.step();
      await turn.callTool('skill', { name: 'create-page' });
      await turn.callTool('propose_action', pageArgs() as JsonValue);
    });
    const sessionId = await runTurn(host);
    lateResult(memory, sessionId, 'propose_action', at.cut);
    assert.deepEqual(host.getView(sessionId).actionCards.proposals, []);
    assert.deepEqual((await restart()).getView(sessionId).actionCards.proposals, [], 'nor after a restart');
  });
});
