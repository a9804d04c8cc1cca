import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, type NormalizedTaskSurfaceModel, type TaskSurfaceModelV1 } from '../../protocol/index.js';
import { everyKindModel, maximalModel } from '../../fixtures/models.js';
import { codesAt, issuesOf, minimal, modelOf } from './fixtures/parsing.js';

describe('parseTaskSurfaceModel: normalisation', () => {
  it('makes every default explicit, in canonical key order', () => {
    const model = modelOf({
      submit: { label: 'Go' },
      fields: [
        { label: 'Why', id: 'why', kind: 'text' },
        { kind: 'choice', id: 'env', label: 'Env', options: [{ label: 'Prod', id: 'prod' }] },
        {
          kind: 'multi-choice',
          id: 'targets',
          label: 'Targets',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
          initial: ['b', 'a'],
        },
        { kind: 'toggle', id: 'ok', label: 'OK?' },
        {
          kind: 'order',
          id: 'seq',
          label: 'Order',
          options: [
            { id: 'x', label: 'X' },
            { id: 'y', label: 'Y' },
            { id: 'z', label: 'Z' },
          ],
          initial: ['z'],
        },
      ],
      sections: [{ blocks: [{ text: 'Hi', kind: 'markdown' }], id: 's' }],
      title: 'T',
      version: 1,
    });
    assert.equal(
      JSON.stringify(model),
      JSON.stringify({
        version: 1,
        title: 'T',
        sections: [{ id: 's', layout: { kind: 'stack' }, blocks: [{ kind: 'markdown', text: 'Hi' }] }],
        fields: [
          { kind: 'text', id: 'why', label: 'Why', multiline: false, required: false, initial: '' },
          { kind: 'choice', id: 'env', label: 'Env', options: [{ id: 'prod', label: 'Prod' }] },
          {
            kind: 'multi-choice',
            id: 'targets',
            label: 'Targets',
            options: [
              { id: 'a', label: 'A' },
              { id: 'b', label: 'B' },
            ],
            initial: ['a', 'b'],
          },
          { kind: 'toggle', id: 'ok', label: 'OK?', initial: false },
          {
            kind: 'order',
            id: 'seq',
            label: 'Order',
            options: [
              { id: 'x', label: 'X' },
              { id: 'y', label: 'Y' },
              { id: 'z', label: 'Z' },
            ],
            initial: ['z', 'x', 'y'],
          },
        ],
        submit: { label: 'Go' },
      }),
    );
  });

  it('defaults fields to [] and fills missing table cells with null, in column order', () => {
    const model = modelOf({
      ...minimal(),
      sections: [
        {
          id: 't',
          blocks: [
            {
              kind: 'table',
              columns: [
                { id: 'a', label: 'A' },
                { id: 'b', label: 'B' },
              ],
              rows: [{ b: 2 }, {}, { b: -0, a: 'x' }],
            },
          ],
        },
      ],
    });
    assert.deepEqual(model.fields, []);
    const table = model.sections[0]!.blocks[0]!;
    assert.equal(
      JSON.stringify(table),
      '{"kind":"table","columns":[{"id":"a","label":"A"},{"id":"b","label":"B"}],"rows":[{"a":null,"b":2},{"a":null,"b":null},{"a":"x","b":0}]}',
    );
    assert.ok(Object.is((table as unknown as { rows: { b: unknown }[] }).rows[2]!.b, 0), '-0 becomes 0, as JSON has it');
  });

  it('keeps content strings exactly (no trimming) and every kind of block and field', () => {
    const input = everyKindModel();
    const model = modelOf(input);
    assert.equal(model.title, input.title);
    assert.deepEqual(
      model.sections.map((s) => s.blocks.map((b) => b.kind)),
      [
        ['markdown', 'metrics', 'notice'],
        ['table', 'diff', 'diff'],
      ],
    );
    assert.deepEqual(
      model.fields.map((f) => f.kind),
      ['choice', 'multi-choice', 'toggle', 'order', 'text', 'text'],
    );
    assert.deepEqual(modelOf({ ...minimal(), title: '  spaced  ' }).title, '  spaced  ');
  });

  it('returns a normalised model unchanged, and a fresh object that does not alias the input', () => {
    const input = everyKindModel();
    const model = modelOf(input);
    assert.deepStrictEqual(modelOf(model), model);
    assert.notEqual(model.sections[0], input.sections[0]);
    const normalizedTwice = modelOf(JSON.parse(JSON.stringify(model)));
    assert.equal(JSON.stringify(normalizedTwice), JSON.stringify(model));
  });

  it('is a TaskSurfaceModelV1 (what presentation meta persists), and not the other way round', () => {
    const model: TaskSurfaceModelV1 = modelOf(minimal());
    // @ts-expect-error: an agent's model lacks the explicit defaults of a normalised one
    const notNormalized: NormalizedTaskSurfaceModel = minimal();
    assert.ok(model && notNormalized);
  });

  it('accepts the largest model the default limits allow', () => {
    const model = modelOf(maximalModel());
    assert.ok(new TextEncoder().encode(JSON.stringify(model)).length <= DEFAULT_LIMITS.modelBytes);
  });
});

describe('parseTaskSurfaceModel: rejections', () => {
  it('rejects non-objects at the root', () => {
    for (const input of [null, undefined, 'model', 42, true, [], [minimal()]]) {
      assert.deepEqual(codesAt(input), [['invalid-type', '']]);
    }
  });

  it('reports any version but 1 as unsupported-version and interprets nothing else', () => {
    for (const version of [2, 0, '1', null, undefined, 1.5]) {
      const input = { ...minimal(), version, title: 42, extra: true };
      assert.deepEqual(codesAt(input), [['unsupported-version', 'version']]);
    }
  });

  it('rejects unknown keys everywhere, including __proto__, without polluting any prototype', () => {
    const text =
      '{"version":1,"title":"T","__proto__":{"polluted":true},"sections":[{"id":"s","blocks":[{"kind":"table","columns":[{"id":"a","label":"A"}],"rows":[{"a":1,"__proto__":{"polluted":true}}]}],"constructor":{}}],"submit":{"label":"Go","onClick":"x"}}';
    assert.deepEqual(codesAt(JSON.parse(text)), [
      ['unknown-key', '__proto__'],
      ['unknown-key', 'sections.0.constructor'],
      ['unknown-key', 'sections.0.blocks.0.rows.0.__proto__'],
      ['unknown-key', 'submit.onClick'],
    ]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('ignores inherited properties: only own keys count', () => {
    const inherited = Object.create({ version: 1, title: 'T', sections: [], submit: { label: 'Go' } }) as object;
    assert.deepEqual(codesAt(inherited), [['unsupported-version', 'version']]);
  });

  it('reports missing keys, wrong types and blank labels with their paths', () => {
    const input = {
      version: 1,
      title: '   ',
      sections: [
        {
          id: 's',
          title: '',
          blocks: [
            { kind: 'notice', text: 'x' },
            { kind: 'diff', after: 1, before: null },
            { kind: 'metrics', items: [] },
          ],
        },
      ],
      fields: [{ kind: 'text', id: 'a', label: 'A', multiline: 'yes' }],
      submit: { label: 7 },
    };
    assert.deepEqual(codesAt(input), [
      ['invalid-value', 'title'],
      ['invalid-value', 'sections.0.title'],
      ['missing-key', 'sections.0.blocks.0.tone'],
      ['invalid-type', 'sections.0.blocks.1.after'],
      ['invalid-value', 'sections.0.blocks.2.items'],
      ['invalid-type', 'fields.0.multiline'],
      ['invalid-type', 'submit.label'],
    ]);
  });

  it('rejects unknown block, field and layout kinds, and grids of other widths', () => {
    const input = {
      ...minimal(),
      sections: [
        { id: 'a', layout: { kind: 'columns' }, blocks: [{ kind: 'chart', data: [] }] },
        { id: 'b', layout: { kind: 'grid', columns: 4 }, blocks: [{ text: 'no kind' }] },
      ],
      fields: [{ kind: 'file', id: 'f', label: 'F' }],
    };
    assert.deepEqual(codesAt(input), [
      ['unknown-kind', 'sections.0.layout.kind'],
      ['unknown-kind', 'sections.0.blocks.0.kind'],
      ['invalid-value', 'sections.1.layout.columns'],
      ['missing-key', 'sections.1.blocks.0.kind'],
      ['unknown-kind', 'fields.0.kind'],
    ]);
  });

  it('checks ids: a safe pattern, unique across sections and fields, options per field, columns per table', () => {
    const options = [
      { id: 'x', label: 'X' },
      { id: 'x', label: 'X again' },
    ];
    const input = {
      ...minimal(),
      sections: [
        {
          id: 'dup',
          blocks: [
            {
              kind: 'table',
              columns: [
                { id: 'c', label: 'C' },
                { id: 'c', label: 'C2' },
              ],
              rows: [],
            },
          ],
        },
        { id: 'has space', blocks: [{ kind: 'markdown', text: 'x' }] },
      ],
      fields: [
        { kind: 'toggle', id: 'dup', label: 'Dup' },
        { kind: 'choice', id: 'pick', label: 'Pick', options },
        { kind: 'choice', id: 'other', label: 'Other', options: [{ id: 'x', label: 'X' }] },
        { kind: 'toggle', id: '__proto__', label: 'Proto' },
      ],
    };
    assert.deepEqual(codesAt(input), [
      ['duplicate-id', 'sections.0.blocks.0.columns.1.id'],
      ['invalid-value', 'sections.1.id'],
      ['duplicate-id', 'fields.0.id'],
      ['duplicate-id', 'fields.1.options.1.id'],
      ['invalid-value', 'fields.3.id'],
    ]);
    assert.match(issuesOf(input)[2]!.message, /already used at sections\[0\]\.id/);
  });

  it('checks initial values against their declarations', () => {
    const options = [
      { id: 'a', label: 'A' },
      { id: 'b', label: 'B' },
    ];
    const input = {
      ...minimal(),
      fields: [
        { kind: 'choice', id: 'c', label: 'C', options, initial: 'z' },
        { kind: 'multi-choice', id: 'm', label: 'M', options, initial: ['a', 'a'] },
        { kind: 'order', id: 'o', label: 'O', options, initial: ['b', 'q'] },
        { kind: 'order', id: 'o2', label: 'O2', options, initial: 'a' },
        { kind: 'toggle', id: 't', label: 'T', initial: 'yes' },
        { kind: 'text', id: 'x', label: 'X', initial: 'two\nlines' },
        { kind: 'text', id: 'y', label: 'Y', initial: 3 },
      ],
    };
    assert.deepEqual(codesAt(input), [
      ['invalid-initial', 'fields.0.initial'],
      ['invalid-initial', 'fields.1.initial.1'],
      ['invalid-initial', 'fields.2.initial.1'],
      ['invalid-initial', 'fields.3.initial'],
      ['invalid-initial', 'fields.4.initial'],
      ['invalid-initial', 'fields.5.initial'],
      ['invalid-initial', 'fields.6.initial'],
    ]);
    assert.equal(
      modelOf({ ...minimal(), fields: [{ kind: 'text', id: 'x', label: 'X', multiline: true, initial: 'two\nlines' }] }).fields.length,
      1,
    );
  });

  it('rejects table rows with undeclared columns and cells that are not scalars', () => {
    const deep: unknown[] = [];
    let cursor = deep;
    for (let i = 0; i < 10_000; i++) {
      const next: unknown[] = [];
      cursor.push(next);
      cursor = next;
    }
    const input = {
      ...minimal(),
      sections: [
        {
          id: 's',
          blocks: [
            { kind: 'table', columns: [{ id: 'a', label: 'A' }], rows: [{ a: deep }, { b: 1 }, { a: Number.NaN }, { a: { x: 1 } }, 'row'] },
          ],
        },
      ],
    };
    assert.deepEqual(codesAt(input), [
      ['invalid-type', 'sections.0.blocks.0.rows.0.a'],
      ['unknown-key', 'sections.0.blocks.0.rows.1.b'],
      ['invalid-value', 'sections.0.blocks.0.rows.2.a'],
      ['invalid-type', 'sections.0.blocks.0.rows.3.a'],
      ['invalid-type', 'sections.0.blocks.0.rows.4'],
    ]);
  });

  it('reads rows in column order and in any other order alike', () => {
    const columns = [
      { id: 'a', label: 'A' },
      { id: 'b', label: 'B' },
    ];
    const rows = [
      { a: 'x', b: -0 },
      { b: -0, a: 'x' },
      { a: 'x', b: undefined },
      { a: 'x', c: 1 },
      { a: 'x', b: 1, c: 1 },
    ];
    const input = { ...minimal(), sections: [{ id: 's', blocks: [{ kind: 'table', columns, rows }] }] };
    assert.deepEqual(codesAt(input), [
      ['invalid-type', 'sections.0.blocks.0.rows.2.b'],
      ['unknown-key', 'sections.0.blocks.0.rows.3.c'],
      ['unknown-key', 'sections.0.blocks.0.rows.4.c'],
    ]);
    const table = modelOf({ ...input, sections: [{ id: 's', blocks: [{ kind: 'table', columns, rows: rows.slice(0, 2) }] }] }).sections[0]!
      .blocks[0]!;
    assert.equal(JSON.stringify(table.kind === 'table' && table.rows), '[{"a":"x","b":0},{"a":"x","b":0}]');
  });

  it('rejects a model with nothing to show and empty lists where they mean nothing', () => {
    assert.deepEqual(codesAt({ ...minimal(), sections: [] }), [['invalid-value', 'sections']]);
    assert.deepEqual(codesAt({ ...minimal(), sections: [{ id: 's', blocks: [] }] }), [['invalid-value', 'sections.0.blocks']]);
    assert.deepEqual(codesAt({ ...minimal(), fields: [{ kind: 'choice', id: 'c', label: 'C', options: [] }] }), [
      ['invalid-value', 'fields.0.options'],
    ]);
    assert.equal(modelOf({ ...minimal(), sections: [], fields: [{ kind: 'toggle', id: 't', label: 'T' }] }).sections.length, 0);
  });
});
