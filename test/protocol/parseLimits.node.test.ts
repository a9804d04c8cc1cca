import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, effectiveLimits, MAX_MODEL_ISSUES, parseTaskSurfaceModel } from '../../protocol/index.js';
import { codesAt, issuesOf, minimal, modelOf } from './fixtures/parsing.js';

describe('parseTaskSurfaceModel: limits', () => {
  const blocks = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'markdown' as const, text: `block ${i}` }));
  const toggles = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'toggle' as const, id: `t${i}`, label: `T${i}` }));

  it('counts blocks across all sections and reports the first one over', () => {
    const at = {
      ...minimal(),
      sections: [
        { id: 'a', blocks: blocks(40) },
        { id: 'b', blocks: blocks(24) },
      ],
    };
    assert.equal(parseTaskSurfaceModel(at).ok, true);
    const over = {
      ...minimal(),
      sections: [
        { id: 'a', blocks: blocks(40) },
        { id: 'b', blocks: blocks(25) },
      ],
    };
    assert.deepEqual(codesAt(over), [['too-many-blocks', 'sections.1.blocks.24']]);
  });

  it('limits fields and rows per table, pointing at the first one over', () => {
    assert.equal(parseTaskSurfaceModel({ ...minimal(), fields: toggles(32) }).ok, true);
    assert.deepEqual(codesAt({ ...minimal(), fields: toggles(33) }), [['too-many-fields', 'fields.32']]);
    const table = (rows: number) => ({
      ...minimal(),
      sections: [
        {
          id: 's',
          blocks: [{ kind: 'table', columns: [{ id: 'n', label: 'N' }], rows: Array.from({ length: rows }, (_, i) => ({ n: i })) }],
        },
      ],
    });
    assert.equal(parseTaskSurfaceModel(table(200)).ok, true);
    assert.deepEqual(codesAt(table(201)), [['too-many-rows', 'sections.0.blocks.0.rows.200']]);
  });

  it('measures the normalised model in UTF-8 bytes, not characters', () => {
    const model = modelOf(minimal());
    const bytes = new TextEncoder().encode(JSON.stringify(model)).length;
    const wide = { ...minimal(), title: '中'.repeat(100) }; // 100 characters, 300 bytes
    const wideBytes = bytes - 'Pick one'.length + 300;
    assert.equal(parseTaskSurfaceModel(wide, { ...DEFAULT_LIMITS, modelBytes: wideBytes }).ok, true);
    const issues = issuesOf(wide, { ...DEFAULT_LIMITS, modelBytes: wideBytes - 1 });
    assert.deepEqual(
      issues.map((i) => [i.code, i.path]),
      [['model-too-large', []]],
    );
    assert.match(issues[0]!.message, new RegExp(`${wideBytes} bytes.*limit is ${wideBytes - 1}`));
  });

  it('counts defaults the normaliser adds toward the byte limit', () => {
    const sparse = { ...minimal(), fields: toggles(32) };
    const rawBytes = new TextEncoder().encode(JSON.stringify(sparse)).length;
    assert.deepEqual(codesAt(sparse, { ...DEFAULT_LIMITS, modelBytes: rawBytes }), [['model-too-large', '']]);
  });
});

describe('parseTaskSurfaceModel: hostile input', () => {
  it('never throws on cyclic objects', () => {
    const model: Record<string, unknown> = { ...minimal() };
    model.self = model;
    const section: Record<string, unknown> = { id: 's', blocks: [] };
    (section.blocks as unknown[]).push(section);
    model.sections = [section];
    assert.deepEqual(codesAt(model), [
      ['unknown-key', 'self'],
      ['missing-key', 'sections.0.blocks.0.kind'],
    ]);
  });

  it('never throws on throwing getters and proxies', () => {
    const getter = { ...minimal() };
    Object.defineProperty(getter, 'title', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    assert.deepEqual(codesAt(getter), [['invalid-type', '']]);
    const boom = () => {
      throw new Error('boom');
    };
    const proxy = new Proxy({}, { ownKeys: boom, get: boom, has: boom, getOwnPropertyDescriptor: boom });
    assert.deepEqual(codesAt(proxy), [['invalid-type', '']]);
  });

  it('stays bounded on huge inputs: few issues, and no walk past a limit', () => {
    const many = { ...minimal(), fields: Array.from({ length: 100_000 }, () => ({ kind: 'nope' })) };
    assert.deepEqual(codesAt(many), [
      ['too-many-fields', 'fields.32'],
      ...Array.from({ length: 31 }, (_, i) => ['unknown-kind', `fields.${i}.kind`]),
    ]);
    const badOptions = {
      ...minimal(),
      fields: [{ kind: 'choice', id: 'c', label: 'C', options: Array.from({ length: 10_000 }, () => 1) }],
    };
    assert.equal(issuesOf(badOptions).length, MAX_MODEL_ISSUES);
    const hugeText = { ...minimal(), title: 'x'.repeat(5_000_000) };
    assert.deepEqual(codesAt(hugeText), [['model-too-large', '']]);
  });
});

describe('limits', () => {
  it('fills in defaults for limits a caller left out or got wrong, so no limit is ever off', () => {
    const toggles = Array.from({ length: 33 }, (_, i) => ({ kind: 'toggle' as const, id: `t${i}`, label: `T${i}` }));
    for (const limits of [{}, { fields: 0 }, { fields: Number.NaN }, { fields: undefined }, { fields: '5' as unknown as number }]) {
      assert.deepEqual(codesAt({ ...minimal(), fields: toggles }, limits as never), [['too-many-fields', 'fields.32']]);
    }
    assert.deepEqual(codesAt({ ...minimal(), fields: toggles.slice(0, 3) }, { fields: 2 } as never), [['too-many-fields', 'fields.2']]);
    assert.deepEqual(effectiveLimits({ blocks: 10 }), { ...DEFAULT_LIMITS, blocks: 10 });
  });
});

describe('huge lists', () => {
  it('refuses a list that cannot fit the byte limit before walking it', () => {
    const options = Array.from({ length: 40_000 }, (_, i) => ({ id: `o${i}`, label: `O${i}` }));
    assert.deepEqual(codesAt({ ...minimal(), fields: [{ kind: 'choice', id: 'c', label: 'C', options }] }), [
      ['model-too-large', 'fields.0.options'],
    ]);
    const sections = Array.from({ length: 40_000 }, (_, i) => ({ id: `s${i}`, blocks: [{ kind: 'markdown', text: 'x' }] }));
    assert.deepEqual(codesAt({ ...minimal(), sections }), [['model-too-large', 'sections']]);
    const fewer = sections.slice(0, 20_000);
    assert.deepEqual(codesAt({ ...minimal(), sections: fewer }), [['too-many-blocks', 'sections.64.blocks.0']]);
  });
});
