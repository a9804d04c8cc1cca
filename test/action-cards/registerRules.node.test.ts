// What `actionCards.register` refuses, word for word, and what its disposer does: the checks a host
// developer meets when a card kind is declared wrong. (The first mutation run over
// host/actionCards/registry.ts found no test registering an invalid kind.)
import assert from 'node:assert/strict';
import { it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { skillPurpose } from '../../host/actionCards/registry.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CardKind } from '../../host/types.js';
import * as z from 'zod/mini';

const kind = (change: Partial<CardKind> = {}): CardKind => ({
  action: 'create_page',
  skill: { name: 'create-page', text: 'Create a page.' },
  invitation: 'Save it as a page?',
  details: z.object({ pageTitle: z.string() }),
  verbs: { confirm: { checks: ['writes'], handler: async () => ({ status: 'accepted' }) } },
  ...change,
});

function cards(t: TestContext) {
  const host = createHost({ store: createMemoryStore() });
  t.after(() => host.dispose());
  return host.actionCards;
}

it('refuses a malformed kind with a message that says what is wrong', (t) => {
  const actionRule = "action must be 1–64 lowercase letters, digits or '_', starting with a letter";
  const refused: [Partial<CardKind>, string][] = [
    [{ action: 'Create' }, `action-cards: kind "Create": ${actionRule}`],
    [{ action: '9pages' }, `action-cards: kind "9pages": ${actionRule}`],
    [{ action: 'page!' }, `action-cards: kind "page!": ${actionRule}`],
    [{ action: 'a'.repeat(65) }, `action-cards: kind "${'a'.repeat(65)}": ${actionRule}`],
    [{ action: 7 as never }, `action-cards: kind "7": ${actionRule}`],
    [{ skill: { name: ' ', text: 'Create a page.' } }, 'action-cards: kind "create_page": skill needs a name and a text'],
    [{ skill: { name: 'create-page', text: '\n ' } }, 'action-cards: kind "create_page": skill needs a name and a text'],
    [{ invitation: '  ' }, 'action-cards: kind "create_page": invitation must not be blank'],
    [
      { verbs: { dismiss: { checks: [], handler: async () => ({ status: 'accepted' }) } } as never },
      'action-cards: kind "create_page": "dismiss" is Not now, handled by the service; do not declare it',
    ],
    [{ dismissibleIn: ['proposed'] as never }, 'action-cards: kind "create_page": dismissibleIn must list recorded phases, not "proposed"'],
    [{ dismissibleIn: ['replaced'] as never }, 'action-cards: kind "create_page": dismissibleIn must list recorded phases, not "replaced"'],
  ];
  const registry = cards(t);
  for (const [change, message] of refused) {
    assert.throws(() => registry.register(kind(change)), { message }, JSON.stringify(change));
  }
  assert.doesNotThrow(() => registry.register(kind({ action: `a${'b'.repeat(63)}` })), '64 characters are allowed');
});

it('refuses a second kind for one action or one skill; the disposer frees them, and only its own', (t) => {
  const registry = cards(t);
  const dispose = registry.register(kind());
  assert.throws(() => registry.register(kind({ skill: { name: 'other', text: 'x' } })), {
    message: 'action-cards: action "create_page" is already registered',
  });
  assert.throws(() => registry.register(kind({ action: 'save_page' })), {
    message: 'action-cards: skill "create-page" already belongs to action "create_page"',
  });
  dispose();
  const again = registry.register(kind());
  dispose(); // the first kind's disposer, called again: the new registration stays
  assert.throws(() => registry.register(kind()), { message: 'action-cards: action "create_page" is already registered' });
  again();
  assert.doesNotThrow(() => registry.register(kind()));
});

it("a skill's purpose: its own, else the first non-blank line without markdown marks, at most 120 characters", () => {
  assert.equal(skillPurpose({ text: 'ignored', purpose: 'Save a page.' }), 'Save a page.');
  assert.equal(skillPurpose({ text: '\n  \n## Create   a page\nMore.' }), 'Create a page');
  const long = 'x'.repeat(130);
  assert.equal(skillPurpose({ text: long }), `${'x'.repeat(119)}…`);
  assert.equal(skillPurpose({ text: 'y'.repeat(120) }), 'y'.repeat(120));
});
