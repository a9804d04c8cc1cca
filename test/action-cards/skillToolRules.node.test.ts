// What the model is told by the `skill` tool and `propose_action` where the end-to-end card tests do
// not look: the `skill` declaration itself (with and without loadable skills), its refusals, the
// tools' advertisement, and a blank brief. (The first mutation run over host/actionCards/tools.ts
// left these unpinned.)
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCardsState } from '../../host/actionCards/projection.js';
import { KindRegistry } from '../../host/actionCards/registry.js';
import { createProposeActionTool, createSkillTool, skillDefinition, type ToolDeps } from '../../host/actionCards/tools.js';
import type { ToolContext, ToolOutcome } from '../../host/types.js';
import type { CallId, JsonValue, SessionId, TurnId } from '../../protocol/index.js';
import { testKind } from './helpers.js';

const BARE = {
  name: 'skill',
  description: 'Load a skill by name and read its instructions.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
};

function deps(registry = new KindRegistry()): ToolDeps {
  const state = createCardsState();
  state.skillLoads.set('t1', new Set(['test-skill']));
  return {
    api: { isLiveRoot: () => true, queuedMessageCount: () => 0 },
    registry,
    queuedMessageLimit: 1,
    state: () => state,
    activate: () => undefined,
    isActive: () => true,
  };
}

const ctx: ToolContext = {
  sessionId: 's1' as SessionId,
  callId: 'c1' as CallId,
  turnId: 't1' as TurnId,
  origin: 'model',
  agent: 'root',
  concludeTurn: () => undefined,
};

it('declares skill whole: a bare declaration with no kinds, and the kinds listed with an enum once some register', () => {
  assert.deepEqual(skillDefinition([]), BARE);
  assert.deepEqual(
    skillDefinition([
      { name: 'create-page', purpose: 'Save an answer as a page.' },
      { name: 'follow-up', purpose: 'Schedule a follow-up.' },
    ]),
    {
      ...BARE,
      description:
        'Load a skill by name and read its instructions. Skills you can load:\n- create-page: Save an answer as a page.\n- follow-up: Schedule a follow-up.',
      inputSchema: { ...BARE.inputSchema, properties: { name: { type: 'string', enum: ['create-page', 'follow-up'] } } },
    },
  );
});

it('keeps one skill declaration until a kind registers or unregisters', () => {
  const registry = new KindRegistry();
  const tool = createSkillTool(deps(registry));
  const before = tool.definition;
  assert.equal(tool.definition, before, 'the same object while nothing changed');
  const dispose = registry.register(testKind());
  const listed = tool.definition;
  assert.notEqual(listed, before);
  assert.deepEqual((listed.inputSchema as { properties: { name: { enum: string[] } } }).properties.name.enum, ['test-skill']);
  assert.equal(tool.definition, listed);
  dispose();
  assert.deepEqual(tool.definition, BARE);
});

it('advertises skill in every tool mode as concurrency-safe, and propose_action in native and both only', () => {
  const skill = createSkillTool(deps());
  const propose = createProposeActionTool(deps());
  assert.equal(skill.concurrencySafe, true);
  assert.deepEqual(skill.modes, ['native', 'both', 'code']);
  assert.deepEqual(propose.modes, ['native', 'both']);
});

it('refuses a malformed skill call and an unknown skill in words the model can act on', () => {
  const empty = createSkillTool(deps());
  for (const args of [{}, { name: 5 }, { name: 'x', extra: true }, null, 'create-page']) {
    assert.deepEqual(
      empty.execute(args as JsonValue, ctx),
      { ok: false, content: 'Call skill with {"name": "<skill name>"}.' },
      JSON.stringify(args),
    );
  }
  assert.deepEqual(empty.execute({ name: 'create-page' }, ctx), {
    ok: false,
    content: 'Unknown skill "create-page". Available skills: none.',
  });
  const registry = new KindRegistry();
  registry.register(testKind());
  registry.register(testKind({ action: 'other_action', skill: { name: 'other-skill', text: 'Use it.' } }));
  assert.deepEqual(createSkillTool(deps(registry)).execute({ name: 'nope' }, ctx), {
    ok: false,
    content: 'Unknown skill "nope". Available skills: test-skill, other-skill.',
  });
});

it('refuses a blank brief, a blank title, or both, by name', () => {
  const registry = new KindRegistry();
  registry.register(testKind());
  const propose = (title: string, brief: string) =>
    createProposeActionTool(deps(registry)).execute({ action: 'test_action', title, brief, details: { n: 1 } }, ctx);
  assert.deepEqual(propose('Try it', ' \n '), { ok: false, content: 'Brief must not be blank.' });
  assert.deepEqual(propose('\t', 'Runs it.'), { ok: false, content: 'Title must not be blank.' });
  assert.deepEqual(propose(' ', ' '), { ok: false, content: 'Title and brief must not be blank.' });
  assert.equal((propose('Try it', 'Runs it.') as ToolOutcome).ok, true);
});

it('words malformed propose_action arguments itself: zod/mini says only "Invalid input"', () => {
  const propose = (args: unknown) => createProposeActionTool(deps()).execute(args as never, ctx);
  assert.deepEqual(propose('create a page'), { ok: false, content: 'Invalid arguments: (arguments): expected object.' });
  assert.deepEqual(propose({ action: 'a', title: 'b', brief: 'c', details: {}, extra: 1 }), {
    ok: false,
    content: 'Invalid arguments: (arguments): unknown field "extra".',
  });
  assert.deepEqual(propose({ action: 5, title: 'b', brief: 'c', details: [] }), {
    ok: false,
    content: 'Invalid arguments: action: expected string; details: expected record.',
  });
});
