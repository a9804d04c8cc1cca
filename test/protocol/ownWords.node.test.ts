// Classic `zod` registers an English locale for the whole process the first time one of its schemas
// is built (the MCP SDK, the AI SDK and many apps load it). The refusals a client, a model or host
// code reads must not change wording because of that: these run with classic zod loaded.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as classic from 'zod';
import { createHost } from '../../host/index.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { KindRegistry } from '../../host/actionCards/registry.js';
import { createProposeActionTool, type ToolDeps } from '../../host/actionCards/tools.js';
import { createCardsState } from '../../host/actionCards/projection.js';
import type { ToolContext, ToolOutcome } from '../../host/types.js';
import { parseClientRequest, type CallId, type SessionId, type TurnId } from '../../protocol/index.js';
import { dismissTaskSurface } from '../../ai-sdk/checks.js';
import { handleViewCall } from '../../mcp/viewTool.js';
import { testKind } from '../action-cards/helpers.js';
import { ScriptedDriver } from '../host/helpers.js';

// Building one classic schema is what registers its locale.
const ClassicDetails = classic.strictObject({ n: classic.number() });

function propose(args: unknown) {
  const registry = new KindRegistry();
  registry.register(testKind({ details: ClassicDetails }));
  const state = createCardsState();
  state.skillLoads.set('t1', new Set(['test-skill']));
  const deps: ToolDeps = {
    api: { isLiveRoot: () => true, queuedMessageCount: () => 0 },
    registry,
    queuedMessageLimit: 1,
    state: () => state,
    activate: () => undefined,
    isActive: () => true,
  };
  const ctx: ToolContext = {
    sessionId: 's1' as SessionId,
    callId: 'c1' as CallId,
    turnId: 't1' as TurnId,
    origin: 'model',
    agent: 'root',
    concludeTurn: () => undefined,
  };
  return createProposeActionTool(deps).execute(args as never, ctx) as ToolOutcome;
}

it('classic zod is loaded and words its own issues in English (the premise of this file)', () => {
  const parsed = classic.strictObject({}).safeParse({ extra: 1 });
  assert.equal(parsed.success, false);
  assert.equal(parsed.error?.issues[0]?.message, 'Unrecognized key: "extra"');
});

it('a malformed wire request is refused in the project’s words', () => {
  const answer = parseClientRequest(JSON.stringify({ id: 'r1', type: 'ping', extra: 1 }));
  assert.deepEqual(answer, {
    ok: false,
    error: { type: 'error', id: 'r1', code: 'bad-request', message: 'invalid ping request: unknown field "extra"' },
  });
});

it('propose_action refuses malformed arguments and details in the project’s words', () => {
  assert.deepEqual(propose({ action: 'a', title: 'b', brief: 'c', details: {}, extra: 1 }), {
    ok: false,
    content: 'Invalid arguments: (arguments): unknown field "extra".',
  });
  const details = propose({ action: 'test_action', title: 'Try it', brief: 'Runs it.', details: { n: 'one' } });
  assert.equal(details.ok, false);
  assert.match(details.content, /n: expected number/);
});

it('host code’s malformed input is refused in the project’s words', async (t) => {
  const host = createHost({ store: createMemoryStore(), driver: new ScriptedDriver() });
  t.after(() => host.dispose());
  assert.throws(() => host.openSession({ colour: 'red' } as never), {
    name: 'HostInputError',
    message: 'openSession: invalid input: unknown field "colour"',
  });
});

it('the MCP view tool and the AI SDK dismissal refuse malformed input in the project’s words', async () => {
  const view = await handleViewCall({} as never, { action: 'read', viewId: 'v1', extra: 1 });
  assert.deepEqual(view, { isError: true, content: [{ type: 'text', text: 'arguments: unknown field "extra"' }] });
  assert.deepEqual(dismissTaskSurface([], { surfaceId: 's1', dismissalId: 'd1', extra: 1 }), {
    dismissed: false,
    reason: 'invalid-request',
    message: '(root): unknown field "extra"',
  });
});
