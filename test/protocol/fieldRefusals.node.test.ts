import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTaskSurfaceModel, type ModelIssue, type ModelIssueCode } from '../../protocol/index.js';

/*
 * What a model that sent one malformed field gets back: every issue whole (path, code, message),
 * and nothing else. A field that is valid comes back exactly, with no key it did not have.
 */

const model = (field: unknown) => ({
  version: 1,
  title: 'T',
  sections: [{ id: 's', blocks: [{ kind: 'markdown', text: 'Hi' }] }],
  fields: [field],
  submit: { label: 'Go' },
});
const parse = (field: unknown) => parseTaskSurfaceModel(model(field));

/** The field's own path, then the keys below it. */
const F = (...keys: (string | number)[]) => ['fields', 0, ...keys];
const issue = (path: (string | number)[], code: ModelIssueCode, message: string): ModelIssue => ({ path, code, message });
const A = { id: 'a', label: 'A' };
const B = { id: 'b', label: 'B' };

const refusals: [string, unknown, ModelIssue[]][] = [
  ['a field that is not an object', 5, [issue(F(), 'invalid-type', 'a field must be an object, not a number')]],
  [
    'a field without a kind',
    { id: 'x', label: 'X' },
    [issue(F('kind'), 'missing-key', 'a field needs "kind" (one of text, choice, multi-choice, toggle, order)')],
  ],
  [
    'a toggle with options',
    { kind: 'toggle', id: 'x', label: 'X', options: [A] },
    [issue(F('options'), 'unknown-key', 'a toggle field has no key "options"; allowed: kind, id, label, initial')],
  ],
  [
    'a text field whose id and label are numbers',
    { kind: 'text', id: 1, label: 2 },
    [
      issue(F('id'), 'invalid-type', 'a field id must be a string, not a number'),
      issue(F('label'), 'invalid-type', 'a field label must be a string, not a number'),
    ],
  ],
  [
    'a choice field without options',
    { kind: 'choice', id: 'x', label: 'X' },
    [issue(F('options'), 'missing-key', 'a choice field needs "options"')],
  ],
  [
    'a text field whose multiline and required are strings',
    { kind: 'text', id: 'x', label: 'X', multiline: 'yes', required: 'no' },
    [
      issue(F('multiline'), 'invalid-type', '"multiline" must be a boolean, not a string'),
      issue(F('required'), 'invalid-type', '"required" must be a boolean, not a string'),
    ],
  ],
  [
    'a text initial that is a number',
    { kind: 'text', id: 'x', label: 'X', initial: 5 },
    [issue(F('initial'), 'invalid-initial', 'a text initial must be a string, not a number')],
  ],
  [
    'a single-line text initial with a line break',
    { kind: 'text', id: 'x', label: 'X', initial: 'a\nb' },
    [issue(F('initial'), 'invalid-initial', 'a single-line text initial must not contain line breaks')],
  ],
  [
    'a toggle initial that is a string',
    { kind: 'toggle', id: 'x', label: 'X', initial: 'yes' },
    [issue(F('initial'), 'invalid-initial', 'a toggle initial must be true or false, not "yes"')],
  ],
  [
    'options that are not a list',
    { kind: 'choice', id: 'x', label: 'X', options: 'a' },
    [issue(F('options'), 'invalid-type', 'options must be an array, not a string')],
  ],
  ['no options', { kind: 'choice', id: 'x', label: 'X', options: [] }, [issue(F('options'), 'invalid-value', 'options must not be empty')]],
  [
    'two options with one id',
    { kind: 'choice', id: 'x', label: 'X', options: [A, { id: 'a', label: 'B' }] },
    [issue(F('options', 1, 'id'), 'duplicate-id', 'option id "a" is already used at fields[0].options[0].id')],
  ],
  [
    // With an option missing, the initial is not checked against the ones left.
    'options that are not objects, lack keys or have unknown ones; and an initial',
    { kind: 'choice', id: 'x', label: 'X', options: [5, {}, { ...A, extra: 1 }], initial: 'zz' },
    [
      issue(F('options', 0), 'invalid-type', 'an option must be an object, not a number'),
      issue(F('options', 1, 'id'), 'missing-key', 'an option needs "id"'),
      issue(F('options', 1, 'label'), 'missing-key', 'an option needs "label"'),
      issue(F('options', 2, 'extra'), 'unknown-key', 'an option has no key "extra"; allowed: id, label, detail'),
    ],
  ],
  [
    'an option that is not an object, and an initial',
    { kind: 'choice', id: 'x', label: 'X', options: [A, 5], initial: 'zz' },
    [issue(F('options', 1), 'invalid-type', 'an option must be an object, not a number')],
  ],
  [
    'an option without an id, and an initial',
    { kind: 'choice', id: 'x', label: 'X', options: [{ label: 'A' }], initial: 'zz' },
    [issue(F('options', 0, 'id'), 'missing-key', 'an option needs "id"')],
  ],
  [
    'an option without a label, and an initial',
    { kind: 'multi-choice', id: 'x', label: 'X', options: [{ id: 'a' }], initial: ['zz'] },
    [issue(F('options', 0, 'label'), 'missing-key', 'an option needs "label"')],
  ],
  [
    'an option whose id, label and detail are numbers',
    { kind: 'order', id: 'x', label: 'X', options: [{ id: 1, label: 2, detail: 3 }] },
    [
      issue(F('options', 0, 'id'), 'invalid-type', 'an option id must be a string, not a number'),
      issue(F('options', 0, 'label'), 'invalid-type', 'an option label must be a string, not a number'),
      issue(F('options', 0, 'detail'), 'invalid-type', 'an option detail must be a string, not a number'),
    ],
  ],
  [
    'a choice initial that is not an option id',
    { kind: 'choice', id: 'x', label: 'X', options: [A], initial: 'b' },
    [issue(F('initial'), 'invalid-initial', 'a choice initial must be one of its option ids, not "b"')],
  ],
  [
    'a multi-choice initial that is not a list',
    { kind: 'multi-choice', id: 'x', label: 'X', options: [A], initial: 'a' },
    [issue(F('initial'), 'invalid-initial', 'a multi-choice initial must be an array of option ids, not a string')],
  ],
  [
    'an order initial that is not a list',
    { kind: 'order', id: 'x', label: 'X', options: [A], initial: 'a' },
    [issue(F('initial'), 'invalid-initial', 'an order initial must be an array of option ids, not a string')],
  ],
  [
    'a multi-choice initial with ids it does not have',
    { kind: 'multi-choice', id: 'x', label: 'X', options: [A, B], initial: ['a', 'zz', 5] },
    [
      issue(F('initial', 1), 'invalid-initial', 'a multi-choice initial may only hold its option ids, not "zz"'),
      issue(F('initial', 2), 'invalid-initial', 'a multi-choice initial may only hold its option ids, not 5'),
    ],
  ],
  [
    'an order initial that lists an option twice',
    { kind: 'order', id: 'x', label: 'X', options: [A, B], initial: ['b', 'a', 'b'] },
    [issue(F('initial', 2), 'invalid-initial', 'an order initial lists option "b" twice')],
  ],
];

describe('a malformed field is refused with every issue named', () => {
  for (const [name, field, issues] of refusals) {
    it(name, () => assert.deepStrictEqual(parse(field), { ok: false, issues }));
  }
});

describe('a valid field comes back exactly, with its defaults made explicit', () => {
  const accepted: [string, unknown, unknown][] = [
    [
      'a multiline, required text field',
      { kind: 'text', id: 'x', label: 'X', multiline: true, required: true, initial: 'a\nb' },
      { kind: 'text', id: 'x', label: 'X', multiline: true, required: true, initial: 'a\nb' },
    ],
    [
      'a choice without an initial, one option with a detail and one without',
      { kind: 'choice', id: 'x', label: 'X', options: [A, { ...B, detail: 'the second' }] },
      { kind: 'choice', id: 'x', label: 'X', options: [A, { ...B, detail: 'the second' }] },
    ],
    ['a toggle without an initial', { kind: 'toggle', id: 'x', label: 'X' }, { kind: 'toggle', id: 'x', label: 'X', initial: false }],
  ];
  for (const [name, field, normalised] of accepted) {
    it(name, () => {
      const result = parse(field);
      assert.deepStrictEqual(result.ok && result.model.fields, [normalised]);
    });
  }
});
