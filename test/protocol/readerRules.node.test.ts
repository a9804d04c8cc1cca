import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, MAX_MODEL_ISSUES, type ModelIssue } from '../../protocol/index.js';
import { Reader } from '../../protocol/parseReader.js';
import { issuesOf, minimal, modelOf } from './fixtures/parsing.js';

/* The reader's refusals as a model sending a malformed model meets them: whole issues, word for word. */

const issue = (path: (string | number)[], code: ModelIssue['code'], message: string): ModelIssue => ({ path, code, message });
const withSection = (section: Record<string, unknown>) => ({
  ...minimal(),
  sections: [{ id: 's', blocks: [{ kind: 'markdown', text: 'Hi' }], ...section }],
});
const ID_RULE = "must be 1–128 characters, start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'";

describe('reader: parts of the wrong shape', () => {
  it('names the part that must be an object and what it got instead', () => {
    assert.deepEqual(issuesOf({ ...minimal(), submit: 'Send' }), [
      issue(['submit'], 'invalid-type', 'submit must be an object, not a string'),
    ]);
    assert.deepEqual(issuesOf(withSection({ layout: 'grid' })), [
      issue(['sections', 0, 'layout'], 'invalid-type', 'a layout must be an object, not a string'),
    ]);
  });

  it('asks for a missing kind and lists the kinds it may be', () => {
    assert.deepEqual(issuesOf(withSection({ layout: {} })), [
      issue(['sections', 0, 'layout', 'kind'], 'missing-key', 'a layout needs "kind" (one of stack, grid)'),
    ]);
  });

  it('quotes an unknown kind: strings in quotes, numbers and booleans as written', () => {
    const kinds: [unknown, string][] = [
      ['chart', '"chart"'],
      [5, '5'],
      [true, 'true'],
      [null, 'null'],
    ];
    for (const [kind, shown] of kinds) {
      assert.deepEqual(issuesOf(withSection({ blocks: [{ kind, text: 'x' }] })), [
        issue(
          ['sections', 0, 'blocks', 0, 'kind'],
          'unknown-kind',
          `a block kind must be one of markdown, metrics, table, diff, notice, not ${shown}`,
        ),
      ]);
    }
  });

  it('quotes a string of 40 characters whole and cuts a longer one after 40', () => {
    const forty = 'k'.repeat(40);
    assert.deepEqual(issuesOf(withSection({ layout: { kind: forty } })), [
      issue(['sections', 0, 'layout', 'kind'], 'unknown-kind', `a layout kind must be one of stack, grid, not "${forty}"`),
    ]);
    assert.deepEqual(issuesOf(withSection({ layout: { kind: `${forty}xyz` } })), [
      issue(['sections', 0, 'layout', 'kind'], 'unknown-kind', `a layout kind must be one of stack, grid, not "${forty}…"`),
    ]);
  });

  it('refuses an unknown key and lists the allowed ones', () => {
    assert.deepEqual(issuesOf({ ...minimal(), colour: 'red' }), [
      issue(['colour'], 'unknown-key', 'the model has no key "colour"; allowed: version, title, description, sections, fields, submit'),
    ]);
  });

  it('keeps the first MAX_MODEL_ISSUES issues of a model with more', () => {
    const extra = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    assert.equal(MAX_MODEL_ISSUES, 32);
    assert.deepEqual(
      issuesOf({ ...minimal(), ...extra }),
      Array.from({ length: 32 }, (_, i) =>
        issue([`k${i}`], 'unknown-key', `the model has no key "k${i}"; allowed: version, title, description, sections, fields, submit`),
      ),
    );
  });

  it('stops reading a list once the issue list is full', () => {
    const options: unknown[] = Array.from({ length: 32 }, (_, i) => ({ id: `o${i}` }));
    // An option past the full issue list that throws when read: reading it would fail the whole parse.
    Object.defineProperty(options, 32, {
      enumerable: true,
      get() {
        throw new Error('read past the full issue list');
      },
    });
    const fields = [{ kind: 'choice', id: 'c', label: 'Pick', options }];
    assert.deepEqual(
      issuesOf({ ...minimal(), fields }),
      Array.from({ length: 32 }, (_, i) => issue(['fields', 0, 'options', i, 'label'], 'missing-key', 'an option needs "label"')),
    );
  });
});

describe('reader: missing keys and lists', () => {
  it('reports a missing key once, at the key', () => {
    const { submit: _submit, ...noSubmit } = minimal();
    assert.deepEqual(issuesOf(noSubmit), [issue(['submit'], 'missing-key', 'the model needs "submit"')]);
    const { sections: _sections, ...noSections } = minimal();
    assert.deepEqual(issuesOf(noSections), [issue(['sections'], 'missing-key', 'the model needs "sections"')]);
    assert.deepEqual(issuesOf({ ...minimal(), sections: [{ blocks: [{ kind: 'markdown', text: 'Hi' }] }] }), [
      issue(['sections', 0, 'id'], 'missing-key', 'a section needs "id"'),
    ]);
  });

  it('names a list that is not one, or is empty where it must not be', () => {
    assert.deepEqual(issuesOf({ ...minimal(), sections: 'intro' }), [
      issue(['sections'], 'invalid-type', 'sections must be an array, not a string'),
    ]);
    assert.deepEqual(issuesOf(withSection({ blocks: [] })), [
      issue(['sections', 0, 'blocks'], 'invalid-value', 'blocks must not be empty'),
    ]);
  });

  it('refuses a list longer than half the byte limit before reading it, and reads one of exactly half', () => {
    const sections = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, blocks: [{ kind: 'markdown', text: 'Hi' }] }));
    const atHalf = { ...minimal(), sections: sections(5) };
    const bytes = new TextEncoder().encode(JSON.stringify(modelOf(atHalf))).length;
    const limits = { ...DEFAULT_LIMITS, modelBytes: 10 };
    assert.deepEqual(issuesOf(atHalf, limits), [
      issue([], 'model-too-large', `the normalised model is ${bytes} bytes of JSON; the limit is 10`),
    ]);
    assert.deepEqual(issuesOf({ ...minimal(), sections: sections(6) }, limits), [
      issue(['sections'], 'model-too-large', 'sections has 6 items; no model with them fits the limit of 10 bytes'),
    ]);
  });

  it('leaves out an option it refused and says why, without failing on the rest', () => {
    const fields = [{ kind: 'order', id: 'o', label: 'Order', options: [{ id: 'a', label: 'A' }, { id: 'b' }] }];
    assert.deepEqual(issuesOf({ ...minimal(), fields }), [
      issue(['fields', 0, 'options', 1, 'label'], 'missing-key', 'an option needs "label"'),
    ]);
  });

  it('fails the walk when a part is left out, even one whose reader gave no reason', () => {
    const r = new Reader(DEFAULT_LIMITS);
    const out = r.objects([{ id: 'a' }, {}], null, 'an item', new Set(['id']), (item) =>
      typeof item.id === 'string' ? item.id : undefined,
    );
    assert.deepEqual(out, ['a']);
    assert.deepEqual(r.issues, []);
    assert.equal(r.failed, true);
  });
});

describe('reader: strings, labels, ids and booleans', () => {
  it('refuses a blank label, whitespace beyond ASCII included', () => {
    for (const title of ['', '   ', '\u00a0', '\u3000\t']) {
      assert.deepEqual(
        issuesOf({ ...minimal(), title }),
        [issue(['title'], 'invalid-value', 'the title must not be blank')],
        JSON.stringify(title),
      );
    }
    assert.equal(modelOf({ ...minimal(), title: '\u00e9t\u00e9' }).title, '\u00e9t\u00e9');
  });

  it('asks for an optional label to be left out rather than blank, and to be a string', () => {
    assert.deepEqual(issuesOf({ ...minimal(), description: ' ' }), [
      issue(['description'], 'invalid-value', 'the description must not be blank; omit it instead'),
    ]);
    assert.deepEqual(issuesOf({ ...minimal(), description: 5 }), [
      issue(['description'], 'invalid-type', 'the description must be a string, not a number'),
    ]);
  });

  it('takes an id of 128 characters and refuses 129, an empty one, or a string that is not one', () => {
    const longest = 'a'.repeat(128);
    assert.equal(modelOf(withSection({ id: longest })).sections[0]!.id, longest);
    assert.deepEqual(issuesOf(withSection({ id: `${longest}b` })), [
      issue(['sections', 0, 'id'], 'invalid-value', `a section id "${'a'.repeat(40)}…" ${ID_RULE}`),
    ]);
    assert.deepEqual(issuesOf(withSection({ id: '' })), [issue(['sections', 0, 'id'], 'invalid-value', `a section id "" ${ID_RULE}`)]);
    assert.deepEqual(issuesOf(withSection({ id: 7 })), [
      issue(['sections', 0, 'id'], 'invalid-type', 'a section id must be a string, not a number'),
    ]);
  });

  it('refuses a flag that is not a boolean', () => {
    const fields = [{ kind: 'text', id: 't', label: 'Note', multiline: 'yes' }];
    assert.deepEqual(issuesOf({ ...minimal(), fields }), [
      issue(['fields', 0, 'multiline'], 'invalid-type', '"multiline" must be a boolean, not a string'),
    ]);
  });
});
