// The refusals a model meets when its Task Surface model is malformed, compared whole: every
// issue's path, code and message, and nothing else reported beside them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseShowTaskSurfaceArgs, parseTaskSurfaceModel, type ModelIssue } from '../../protocol/index.js';
import { minimal } from './fixtures/parsing.js';

type Issue = [path: ModelIssue['path'], code: ModelIssue['code'], message: string];
const refused = (...issues: Issue[]) => ({ ok: false, issues: issues.map(([path, code, message]) => ({ path, code, message })) });

const markdown = (text: string) => ({ kind: 'markdown', text });
/** The minimal model with its one section changed by `change`. */
const section = (change: object) => ({ ...minimal(), sections: [{ id: 'intro', blocks: [markdown('Hello')], ...change }] });
const ID_RULE = "must be 1–128 characters, start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'";
const MODEL_KEYS = 'version, title, description, sections, fields, submit';

const MODEL_CASES: [string, unknown, Issue[]][] = [
  ['null', null, [[[], 'invalid-type', 'the model must be an object, not null']]],
  ['an array', [], [[[], 'invalid-type', 'the model must be an object, not an array']]],
  ['a string', 'x', [[[], 'invalid-type', 'the model must be an object, not a string']]],
  ['nothing', undefined, [[[], 'invalid-type', 'the model must be an object, not nothing']]],
  ['no version', { title: 'x' }, [[['version'], 'unsupported-version', 'version must be 1; it is missing']]],
  ['version 2', { ...minimal(), version: 2 }, [[['version'], 'unsupported-version', 'version must be 1; got 2']]],
  ['version "1"', { ...minimal(), version: '1' }, [[['version'], 'unsupported-version', 'version must be 1; got "1"']]],
  ['an unknown key', { ...minimal(), extra: 1 }, [[['extra'], 'unknown-key', `the model has no key "extra"; allowed: ${MODEL_KEYS}`]]],
  ['no title', { ...minimal(), title: undefined }, [[['title'], 'missing-key', 'the model needs "title"']]],
  ['a number title', { ...minimal(), title: 3 }, [[['title'], 'invalid-type', 'the title must be a string, not a number']]],
  ['an object title', { ...minimal(), title: {} }, [[['title'], 'invalid-type', 'the title must be a string, not an object']]],
  ['a blank title', { ...minimal(), title: ' ' }, [[['title'], 'invalid-value', 'the title must not be blank']]],
  [
    'a number description',
    { ...minimal(), description: 1 },
    [[['description'], 'invalid-type', 'the description must be a string, not a number']],
  ],
  [
    'an empty description',
    { ...minimal(), description: '' },
    [[['description'], 'invalid-value', 'the description must not be blank; omit it instead']],
  ],
  ['no sections', { ...minimal(), sections: undefined }, [[['sections'], 'missing-key', 'the model needs "sections"']]],
  ['a string for sections', { ...minimal(), sections: 'x' }, [[['sections'], 'invalid-type', 'sections must be an array, not a string']]],
  [
    'no block and no field',
    { ...minimal(), sections: [] },
    [[['sections'], 'invalid-value', 'a task surface needs at least one block or field']],
  ],
  ['an object for fields', { ...minimal(), fields: {} }, [[['fields'], 'invalid-type', 'fields must be an array, not an object']]],
  ['no submit', { ...minimal(), submit: undefined }, [[['submit'], 'missing-key', 'the model needs "submit"']]],
  ['a string submit', { ...minimal(), submit: 'Send' }, [[['submit'], 'invalid-type', 'submit must be an object, not a string']]],
  ['a submit without label', { ...minimal(), submit: {} }, [[['submit', 'label'], 'missing-key', 'submit needs "label"']]],
  [
    'a number submit label',
    { ...minimal(), submit: { label: 1 } },
    [[['submit', 'label'], 'invalid-type', 'the submit label must be a string, not a number']],
  ],
  ['a string section', { ...minimal(), sections: ['x'] }, [[['sections', 0], 'invalid-type', 'a section must be an object, not a string']]],
  [
    'a section without id',
    { ...minimal(), sections: [{ blocks: [markdown('H')] }] },
    [[['sections', 0, 'id'], 'missing-key', 'a section needs "id"']],
  ],
  ['a number section id', section({ id: 7 }), [[['sections', 0, 'id'], 'invalid-type', 'a section id must be a string, not a number']]],
  ['a bad section id', section({ id: '-x' }), [[['sections', 0, 'id'], 'invalid-value', `a section id "-x" ${ID_RULE}`]]],
  [
    'a blank section title',
    section({ title: ' ' }),
    [[['sections', 0, 'title'], 'invalid-value', 'a section title must not be blank; omit it instead']],
  ],
  [
    'a section without blocks',
    { ...minimal(), sections: [{ id: 's' }] },
    [[['sections', 0, 'blocks'], 'missing-key', 'a section needs "blocks"']],
  ],
  ['no blocks', section({ blocks: [] }), [[['sections', 0, 'blocks'], 'invalid-value', 'blocks must not be empty']]],
  ['a string for blocks', section({ blocks: 'x' }), [[['sections', 0, 'blocks'], 'invalid-type', 'blocks must be an array, not a string']]],
  [
    'a repeated section id',
    { ...minimal(), sections: [minimal().sections[0], minimal().sections[0]] },
    [[['sections', 1, 'id'], 'duplicate-id', 'id "intro" is already used at sections[0].id']],
  ],
  [
    'a string layout',
    section({ layout: 'grid' }),
    [[['sections', 0, 'layout'], 'invalid-type', 'a layout must be an object, not a string']],
  ],
  [
    'a layout without kind',
    section({ layout: {} }),
    [[['sections', 0, 'layout', 'kind'], 'missing-key', 'a layout needs "kind" (one of stack, grid)']],
  ],
  [
    'an unknown layout',
    section({ layout: { kind: 'flex' } }),
    [[['sections', 0, 'layout', 'kind'], 'unknown-kind', 'a layout kind must be one of stack, grid, not "flex"']],
  ],
  [
    'a stack with columns',
    section({ layout: { kind: 'stack', columns: 2 } }),
    [[['sections', 0, 'layout', 'columns'], 'unknown-key', 'a stack layout has no key "columns"; allowed: kind']],
  ],
  [
    'a grid with a gap',
    section({ layout: { kind: 'grid', columns: 2, gap: 1 } }),
    [[['sections', 0, 'layout', 'gap'], 'unknown-key', 'a grid layout has no key "gap"; allowed: kind, columns']],
  ],
  // Missing columns is one issue, not also "must be 2 or 3".
  [
    'a grid without columns',
    section({ layout: { kind: 'grid' } }),
    [[['sections', 0, 'layout', 'columns'], 'missing-key', 'a grid layout needs "columns"']],
  ],
  [
    'a grid of 4 columns',
    section({ layout: { kind: 'grid', columns: 4 } }),
    [[['sections', 0, 'layout', 'columns'], 'invalid-value', 'grid columns must be 2 or 3, not 4']],
  ],
];

describe('parseTaskSurfaceModel refusals', () => {
  for (const [name, input, issues] of MODEL_CASES) {
    it(`refuses ${name} with exactly these issues`, () => {
      assert.deepEqual(parseTaskSurfaceModel(input), refused(...issues));
    });
  }

  it('reports the block limit once and reads nothing past it, in later blocks or sections', () => {
    const TOO_MANY = 'a task surface may have at most 1 blocks in all sections together';
    const sections = [
      { id: 'a', blocks: [markdown('1')] },
      { id: 'b', blocks: [markdown('2')] },
      { id: '-c', blocks: [markdown('3')] },
    ];
    assert.deepEqual(
      parseTaskSurfaceModel({ ...minimal(), sections }, { blocks: 1 }),
      refused([['sections', 1, 'blocks', 0], 'too-many-blocks', TOO_MANY]),
    );
    const oneSection = [{ id: 'a', blocks: [markdown('1'), markdown('2'), { kind: 'chart' }] }];
    assert.deepEqual(
      parseTaskSurfaceModel({ ...minimal(), sections: oneSection }, { blocks: 1 }),
      refused([['sections', 0, 'blocks', 1], 'too-many-blocks', TOO_MANY]),
    );
  });

  // Blocks have a count limit of their own: a flood of them is named by it, not by the byte limit.
  it('refuses 40,000 blocks at the 65th, with the default limits', () => {
    const blocks = Array.from({ length: 40_000 }, () => markdown('x'));
    assert.deepEqual(
      parseTaskSurfaceModel(section({ blocks })),
      refused([['sections', 0, 'blocks', 64], 'too-many-blocks', 'a task surface may have at most 64 blocks in all sections together']),
    );
  });

  it('keeps a description and a section title only where they were given', () => {
    const input = {
      ...minimal(),
      description: 'Why',
      sections: [
        { id: 'a', title: 'A', layout: { kind: 'grid', columns: 3 }, blocks: [markdown('1')] },
        { id: 'b', blocks: [markdown('2')] },
      ],
    };
    assert.deepEqual(parseTaskSurfaceModel(input), {
      ok: true,
      model: {
        version: 1,
        title: 'Pick one',
        description: 'Why',
        sections: [
          { id: 'a', title: 'A', layout: { kind: 'grid', columns: 3 }, blocks: [markdown('1')] },
          { id: 'b', layout: { kind: 'stack' }, blocks: [markdown('2')] },
        ],
        fields: [],
        submit: { label: 'Send' },
      },
    });
    const plain = parseTaskSurfaceModel(minimal());
    assert.equal(plain.ok && Object.hasOwn(plain.model, 'description'), false);
  });
});

const ARGS_NOT_OBJECT = 'the arguments must be an object { model }, not';
const noKey = (key: string): Issue => [[key], 'unknown-key', `the arguments have no key "${key}"; pass only { model }`];

describe('parseShowTaskSurfaceArgs refusals', () => {
  const cases: [string, unknown, Issue[]][] = [
    ['null', null, [[[], 'invalid-type', `${ARGS_NOT_OBJECT} null`]]],
    ['an array', [], [[[], 'invalid-type', `${ARGS_NOT_OBJECT} an array`]]],
    ['a string', 'x', [[[], 'invalid-type', `${ARGS_NOT_OBJECT} a string`]]],
    ['two extra keys', { model: minimal(), a: 1, b: 2 }, [noKey('a'), noKey('b')]],
    // At most eight unknown keys are named: a flood of keys is not echoed back whole.
    ['ten extra keys', Object.fromEntries([...'abcdefghij'].map((k) => [k, 1])), [...'abcdefgh'].map(noKey)],
    ['no model', {}, [[['model'], 'missing-key', 'the arguments need "model": the panel to show']]],
    ['a null model', { model: null }, [[['model'], 'invalid-type', 'the model must be an object, not null']]],
    ['a blank title', { model: { ...minimal(), title: '' } }, [[['model', 'title'], 'invalid-value', 'the title must not be blank']]],
  ];
  for (const [name, args, issues] of cases) {
    it(`refuses ${name} with exactly these issues`, () => {
      assert.deepEqual(parseShowTaskSurfaceArgs(args), refused(...issues));
    });
  }
});

describe('a hostile object is refused, not thrown', () => {
  const throwing = (error: unknown) =>
    new Proxy(
      {},
      {
        ownKeys: () => {
          throw error;
        },
        getOwnPropertyDescriptor: () => {
          throw error;
        },
      },
    );
  // An error that cannot even be asked whether it is an Error.
  const unreadable = new Proxy(
    {},
    {
      getPrototypeOf: () => {
        throw new Error('no');
      },
    },
  );

  it('names the error a model threw', () => {
    assert.deepEqual(
      parseTaskSurfaceModel(throwing(new SyntaxError('x'))),
      refused([[], 'invalid-type', 'the model could not be read (SyntaxError)']),
    );
    assert.deepEqual(
      parseTaskSurfaceModel(throwing(unreadable)),
      refused([[], 'invalid-type', 'the model could not be read (unreadable error)']),
    );
  });

  it('names the error the arguments threw', () => {
    const read = (name: string) => refused([[], 'invalid-type', `the arguments could not be read (${name})`]);
    assert.deepEqual(parseShowTaskSurfaceArgs(throwing(new RangeError('x'))), read('RangeError'));
    assert.deepEqual(parseShowTaskSurfaceArgs(throwing('no')), read('string'));
    assert.deepEqual(parseShowTaskSurfaceArgs(throwing(unreadable)), read('unreadable error'));
  });
});
