// Two edges of the kind registry the first mutation run found unpinned: an action that is a String
// object (it reads like a valid name but is not a string), and a declared purpose with blank ends.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KindRegistry, skillPurpose } from '../../host/actionCards/registry.js';
import { testKind } from './helpers.js';

it('refuses an action that is not a string, even one that spells a valid name', () => {
  assert.throws(
    () => new KindRegistry().register(testKind({ action: new String('create_page') as never })),
    (error: unknown) =>
      error instanceof Error &&
      error.message === `action-cards: kind "create_page": action must be 1–64 lowercase letters, digits or '_', starting with a letter`,
  );
});

it('trims a declared purpose to one line without blank ends', () => {
  assert.equal(skillPurpose({ text: 'Ignored.', purpose: '  Save an answer\n as a page.  ' }), 'Save an answer as a page.');
  assert.equal(skillPurpose({ text: ' \n ' }), '', 'a blank text has no purpose line');
});
