import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTaskSurfaceModel, type ModelIssue, type ModelIssueCode, type TaskSurfaceLimits } from '../../protocol/index.js';

/*
 * What a model that sent one malformed block gets back: every issue whole (path, code, message),
 * and nothing else. A block that is valid comes back exactly, with no key it did not have.
 */

const model = (block: unknown) => ({
  version: 1,
  title: 'T',
  sections: [{ id: 's', blocks: [block] }],
  submit: { label: 'Go' },
});
const parse = (block: unknown, limits?: Partial<TaskSurfaceLimits>) => parseTaskSurfaceModel(model(block), limits);

/** The block's own path, then the keys below it. */
const B = (...keys: (string | number | undefined)[]) => ['sections', 0, 'blocks', 0, ...keys] as (string | number)[];
const issue = (path: (string | number)[], code: ModelIssueCode, message: string): ModelIssue => ({ path, code, message });
const NOT_A_CELL = 'a table cell must be a string, number, boolean or null, not';

const refusals: [string, unknown, ModelIssue[]][] = [
  [
    'a markdown block with an unknown key and no text',
    { kind: 'markdown', extra: 1 },
    [
      issue(B('extra'), 'unknown-key', 'a markdown block has no key "extra"; allowed: kind, text'),
      issue(B('text'), 'missing-key', 'a markdown block needs "text"'),
    ],
  ],
  [
    'markdown text that is a number',
    { kind: 'markdown', text: 5 },
    [issue(B('text'), 'invalid-type', 'markdown text must be a string, not a number')],
  ],
  [
    'a metrics block with an unknown key and no items',
    { kind: 'metrics', extra: 1 },
    [
      issue(B('extra'), 'unknown-key', 'a metrics block has no key "extra"; allowed: kind, items'),
      issue(B('items'), 'missing-key', 'a metrics block needs "items"'),
    ],
  ],
  [
    'metrics items that are not a list',
    { kind: 'metrics', items: 'many' },
    [issue(B('items'), 'invalid-type', 'metrics items must be an array, not a string')],
  ],
  [
    'metrics that are not objects, lack keys or have unknown ones',
    { kind: 'metrics', items: [5, {}, { label: 'L', value: '1', extra: 1 }] },
    [
      issue(B('items', 0), 'invalid-type', 'a metric must be an object, not a number'),
      issue(B('items', 1, 'label'), 'missing-key', 'a metric needs "label"'),
      issue(B('items', 1, 'value'), 'missing-key', 'a metric needs "value"'),
      issue(B('items', 2, 'extra'), 'unknown-key', 'a metric has no key "extra"; allowed: label, value, detail'),
    ],
  ],
  [
    'a metric whose label, value and detail are numbers',
    { kind: 'metrics', items: [{ label: 1, value: 2, detail: 3 }] },
    [
      issue(B('items', 0, 'label'), 'invalid-type', 'a metric label must be a string, not a number'),
      issue(B('items', 0, 'value'), 'invalid-type', 'a metric value must be a string, not a number'),
      issue(B('items', 0, 'detail'), 'invalid-type', 'a metric detail must be a string, not a number'),
    ],
  ],
  [
    'a table block with an unknown key, no columns and no rows',
    { kind: 'table', extra: 1 },
    [
      issue(B('extra'), 'unknown-key', 'a table block has no key "extra"; allowed: kind, columns, rows'),
      issue(B('columns'), 'missing-key', 'a table block needs "columns"'),
      issue(B('rows'), 'missing-key', 'a table block needs "rows"'),
    ],
  ],
  [
    'a table with columns but no rows',
    { kind: 'table', columns: [{ id: 'a', label: 'A' }] },
    [issue(B('rows'), 'missing-key', 'a table block needs "rows"')],
  ],
  [
    'table columns and rows that are not lists',
    { kind: 'table', columns: 'a', rows: 'b' },
    [
      issue(B('columns'), 'invalid-type', 'table columns must be an array, not a string'),
      issue(B('rows'), 'invalid-type', 'table rows must be an array, not a string'),
    ],
  ],
  [
    'a table without columns',
    { kind: 'table', columns: [], rows: [] },
    [issue(B('columns'), 'invalid-value', 'table columns must not be empty')],
  ],
  [
    'columns that are not objects, lack keys or have unknown ones',
    { kind: 'table', columns: [5, {}, { id: 'a', label: 'A', extra: 1 }], rows: [] },
    [
      issue(B('columns', 0), 'invalid-type', 'a table column must be an object, not a number'),
      issue(B('columns', 1, 'id'), 'missing-key', 'a table column needs "id"'),
      issue(B('columns', 1, 'label'), 'missing-key', 'a table column needs "label"'),
      issue(B('columns', 2, 'extra'), 'unknown-key', 'a table column has no key "extra"; allowed: id, label'),
    ],
  ],
  [
    'a column whose id and label are numbers',
    { kind: 'table', columns: [{ id: 1, label: 2 }], rows: [] },
    [
      issue(B('columns', 0, 'id'), 'invalid-type', 'a column id must be a string, not a number'),
      issue(B('columns', 0, 'label'), 'invalid-type', 'a column label must be a string, not a number'),
    ],
  ],
  [
    'two columns with one id',
    {
      kind: 'table',
      columns: [
        { id: 'a', label: 'A' },
        { id: 'a', label: 'B' },
      ],
      rows: [],
    },
    [issue(B('columns', 1, 'id'), 'duplicate-id', 'column id "a" is already used at sections[0].blocks[0].columns[0].id')],
  ],
  [
    // A column without an id has no cells: the row's key "undefined" is just unknown.
    'a column without an id, and a row keyed "undefined"',
    { kind: 'table', columns: [{ label: 'A' }], rows: [{ undefined: {} }] },
    [
      issue(B('columns', 0, 'id'), 'missing-key', 'a table column needs "id"'),
      issue(B('rows', 0, 'undefined'), 'unknown-key', 'a table row may only use declared column ids; "undefined" is not one'),
    ],
  ],
  [
    // A column without a label has no cells either, though its id is declared.
    'a column without a label, and a row with a bad cell in it',
    { kind: 'table', columns: [{ id: 'a' }], rows: [{ a: {} }] },
    [issue(B('columns', 0, 'label'), 'missing-key', 'a table column needs "label"')],
  ],
  [
    'rows that are not objects',
    { kind: 'table', columns: [{ id: 'a', label: 'A' }], rows: [5, null] },
    [
      issue(B('rows', 0), 'invalid-type', 'a table row must be an object keyed by column id, not a number'),
      issue(B('rows', 1), 'invalid-type', 'a table row must be an object keyed by column id, not null'),
    ],
  ],
  [
    'a row keyed by an undeclared column, as many keys as columns',
    { kind: 'table', columns: [{ id: 'a', label: 'A' }], rows: [{ b: 'x' }] },
    [issue(B('rows', 0, 'b'), 'unknown-key', 'a table row may only use declared column ids; "b" is not one')],
  ],
  [
    'cells that are objects, lists, not finite or set to undefined',
    {
      kind: 'table',
      columns: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, label: id })),
      rows: [{ a: {}, b: [], c: Number.NaN, d: Number.POSITIVE_INFINITY, e: undefined }],
    },
    [
      issue(B('rows', 0, 'a'), 'invalid-type', `${NOT_A_CELL} an object`),
      issue(B('rows', 0, 'b'), 'invalid-type', `${NOT_A_CELL} an array`),
      issue(B('rows', 0, 'c'), 'invalid-value', 'a table cell must be a finite number, not NaN'),
      issue(B('rows', 0, 'd'), 'invalid-value', 'a table cell must be a finite number, not Infinity'),
      issue(B('rows', 0, 'e'), 'invalid-type', `${NOT_A_CELL} nothing`),
    ],
  ],
  [
    'a diff block with an unknown key and no before or after',
    { kind: 'diff', extra: 1 },
    [
      issue(B('extra'), 'unknown-key', 'a diff block has no key "extra"; allowed: kind, path, before, after, language'),
      issue(B('before'), 'missing-key', 'a diff block needs "before"'),
      issue(B('after'), 'missing-key', 'a diff block needs "after"'),
    ],
  ],
  [
    'a diff whose path, before, after and language are numbers',
    { kind: 'diff', path: 1, before: 2, after: 3, language: 4 },
    [
      issue(B('path'), 'invalid-type', 'a diff path must be a string, not a number'),
      issue(B('before'), 'invalid-type', 'diff "before" (a string, or null for a new file) must be a string, not a number'),
      issue(B('after'), 'invalid-type', 'diff "after" must be a string, not a number'),
      issue(B('language'), 'invalid-type', 'a diff language must be a string, not a number'),
    ],
  ],
  [
    'a notice block with an unknown key and no tone or text',
    { kind: 'notice', extra: 1 },
    [
      issue(B('extra'), 'unknown-key', 'a notice block has no key "extra"; allowed: kind, tone, text'),
      issue(B('tone'), 'missing-key', 'a notice block needs "tone"'),
      issue(B('text'), 'missing-key', 'a notice block needs "text"'),
    ],
  ],
  [
    'a notice with a tone it does not have, and numeric text',
    { kind: 'notice', tone: 'loud', text: 5 },
    [
      issue(B('text'), 'invalid-type', 'notice text must be a string, not a number'),
      issue(B('tone'), 'invalid-value', 'a notice tone must be one of neutral, info, warning, not "loud"'),
    ],
  ],
  [
    'a notice with a numeric tone',
    { kind: 'notice', tone: 2, text: 'Hi' },
    [issue(B('tone'), 'invalid-value', 'a notice tone must be one of neutral, info, warning, not 2')],
  ],
];

describe('a malformed block is refused with every issue named', () => {
  for (const [name, block, issues] of refusals) {
    it(name, () => assert.deepStrictEqual(parse(block), { ok: false, issues }));
  }
});

describe('a valid block comes back exactly as sent', () => {
  const accepted: [string, unknown][] = [
    [
      'metrics with and without a detail',
      {
        kind: 'metrics',
        items: [
          { label: 'Up', value: '99%' },
          { label: 'Down', value: '1%', detail: 'last week' },
        ],
      },
    ],
    ['a diff with a path and a language', { kind: 'diff', path: 'a.ts', before: 'x', after: 'y', language: 'ts' }],
    ['a diff of a new file, without a path or a language', { kind: 'diff', before: null, after: 'y' }],
    ['a notice', { kind: 'notice', tone: 'warning', text: 'Careful' }],
  ];
  for (const [name, block] of accepted) {
    it(name, () => {
      const result = parse(block);
      assert.deepStrictEqual(result.ok && result.model.sections[0]!.blocks, [block]);
    });
  }
});

describe('table rows under a small byte limit', () => {
  // Rows have a count limit of their own: the whole model is measured, not the row count.
  it('refuses the normalised model, not the list of rows', () => {
    const rows = Array.from({ length: 60 }, () => ({}));
    const result = parse({ kind: 'table', columns: [{ id: 'a', label: 'A' }], rows }, { modelBytes: 100 });
    // The model as normalised: a stack layout, no fields, and each absent cell null.
    const table = { kind: 'table', columns: [{ id: 'a', label: 'A' }], rows: rows.map(() => ({ a: null })) };
    const normalised = {
      version: 1,
      title: 'T',
      sections: [{ id: 's', layout: { kind: 'stack' }, blocks: [table] }],
      fields: [],
      submit: { label: 'Go' },
    };
    const bytes = JSON.stringify(normalised).length;
    assert.deepStrictEqual(result, {
      ok: false,
      issues: [issue([], 'model-too-large', `the normalised model is ${bytes} bytes of JSON; the limit is 100`)],
    });
  });
});
