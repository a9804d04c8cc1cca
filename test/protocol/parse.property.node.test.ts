import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  DEFAULT_LIMITS,
  parseTaskSurfaceModel,
  TaskSurfaceModelV1Schema,
  type ModelIssue,
  type TaskSurfaceLimits,
  type TaskSurfaceModelV1,
} from '../../protocol/index.js';
import { modelArb } from './fixtures/arbitraries.js';

const RUNS = { numRuns: 100 };
const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function parsed(model: unknown, limits: TaskSurfaceLimits = DEFAULT_LIMITS) {
  const result = parseTaskSurfaceModel(model, limits);
  if (!result.ok) assert.fail(`rejected a valid model: ${JSON.stringify(result.issues)}\n${JSON.stringify(model)}`);
  return result.model;
}

describe('parseTaskSurfaceModel properties', () => {
  it('accepts every generated valid model; normalising is idempotent and survives a JSON round trip', () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        const normalized = parsed(model);
        assert.deepStrictEqual(parsed(normalized), normalized);
        assert.deepStrictEqual(parsed(clone(normalized)), normalized);
        assert.equal(JSON.stringify(parsed(clone(model))), JSON.stringify(normalized));
      }),
      RUNS,
    );
  });

  it('normalises into a model the zod schema accepts, with every default explicit', () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        const normalized = parsed(model);
        assert.equal(TaskSurfaceModelV1Schema.safeParse(normalized).success, true);
        assert.ok(Array.isArray(normalized.fields));
        for (const section of normalized.sections) assert.ok(section.layout);
        for (const field of normalized.fields) {
          if (field.kind === 'text')
            assert.deepEqual([typeof field.multiline, typeof field.required, typeof field.initial], ['boolean', 'boolean', 'string']);
          if (field.kind === 'toggle') assert.equal(typeof field.initial, 'boolean');
          if (field.kind === 'multi-choice') assert.ok(Array.isArray(field.initial));
          if (field.kind === 'order') assert.deepEqual([...field.initial].sort(), field.options.map((o) => o.id).sort());
        }
      }),
      RUNS,
    );
  });

  it('measures the normalised model exactly as UTF-8 bytes of its JSON', () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        const bytes = utf8(parsed(model));
        assert.equal(parseTaskSurfaceModel(model, { ...DEFAULT_LIMITS, modelBytes: bytes }).ok, true);
        const over = parseTaskSurfaceModel(model, { ...DEFAULT_LIMITS, modelBytes: bytes - 1 });
        assert.deepEqual(over.ok ? [] : over.issues.map((i) => [i.code, i.path]), [['model-too-large', []]]);
      }),
      RUNS,
    );
  });

  it('rejects a valid model with exactly one part broken, at the broken part', () => {
    fc.assert(
      fc.property(modelArb, fc.nat(), fc.nat(), (model, which, pick) => {
        const broken = breakOnePart(clone(model), which, pick);
        fc.pre(broken !== undefined);
        const result = parseTaskSurfaceModel(broken.model, broken.limits);
        assert.equal(result.ok, false, `accepted a model broken by ${broken.code} at ${JSON.stringify(broken.path)}`);
        const issues = (result as { issues: ModelIssue[] }).issues;
        assert.deepEqual(
          issues.map((i) => ({ code: i.code, path: i.path })),
          [{ code: broken.code, path: broken.path }],
        );
        assert.ok(issues[0]!.message.length > 10);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary values, and never accepts what the zod schema rejects', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything({ withNullPrototype: true, withObjectString: true })), (value) => {
        const result = parseTaskSurfaceModel(value);
        if (result.ok) assert.equal(TaskSurfaceModelV1Schema.safeParse(value).success, true);
        else assert.ok(result.issues.length > 0);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on a valid model with one node replaced by anything; what it accepts is schema-valid and stable', () => {
    fc.assert(
      fc.property(modelArb, fc.nat(), fc.anything({ maxDepth: 3 }), (model, pick, replacement) => {
        const mutated = replaceNode(clone(model), pick, replacement);
        const result = parseTaskSurfaceModel(mutated);
        if (!result.ok) return;
        assert.equal(TaskSurfaceModelV1Schema.safeParse(mutated).success, true, JSON.stringify(mutated));
        assert.deepStrictEqual(parsed(result.model), result.model);
      }),
      { numRuns: 200 },
    );
  });
});

interface Broken {
  model: TaskSurfaceModelV1;
  limits: TaskSurfaceLimits;
  code: ModelIssue['code'];
  path: (string | number)[];
}

/** Breaks one part of a valid model (chosen by `which`, placed by `pick`); undefined when it has no such part. */
function breakOnePart(model: TaskSurfaceModelV1, which: number, pick: number): Broken | undefined {
  const limits = { ...DEFAULT_LIMITS };
  const fields = model.fields ?? [];
  const blocks = model.sections.flatMap((s, si) => s.blocks.map((b, bi) => ({ block: b, path: ['sections', si, 'blocks', bi] })));
  const withOptions = fields.flatMap((f, i) => ('options' in f ? [{ field: f, i }] : []));
  switch (which % 9) {
    case 0: {
      // a duplicate section or field id
      const owners = [
        ...model.sections.map((s, i) => ({ o: s as { id: string }, path: ['sections', i] })),
        ...fields.map((f, i) => ({ o: f as { id: string }, path: ['fields', i] })),
      ];
      if (owners.length < 2) return undefined;
      const later = 1 + (pick % (owners.length - 1));
      owners[later]!.o.id = owners[pick % later]!.o.id;
      return { model, limits, code: 'duplicate-id', path: [...owners[later]!.path, 'id'] };
    }
    case 1: {
      // a duplicate option id within a field
      const target = withOptions.find(({ field }) => field.options.length >= 2);
      if (target === undefined) return undefined;
      const { field, i } = target;
      if (field.kind === 'choice' || field.kind === 'multi-choice' || field.kind === 'order') delete field.initial;
      field.options[1]!.id = field.options[0]!.id;
      return { model, limits, code: 'duplicate-id', path: ['fields', i, 'options', 1, 'id'] };
    }
    case 2: {
      // a duplicate column id
      const target = blocks.find(({ block }) => block.kind === 'table' && block.columns.length >= 2 && block.rows.length === 0);
      if (target === undefined || target.block.kind !== 'table') return undefined;
      target.block.columns[1]!.id = target.block.columns[0]!.id;
      return { model, limits, code: 'duplicate-id', path: [...target.path, 'columns', 1, 'id'] };
    }
    case 3: {
      // a choice initial that is not among its options
      const target = withOptions.find(({ field }) => field.kind === 'choice');
      if (target === undefined || target.field.kind !== 'choice') return undefined;
      target.field.initial = 'not-an-option';
      return { model, limits, code: 'invalid-initial', path: ['fields', target.i, 'initial'] };
    }
    case 4: {
      // a multi-choice or order initial with an unknown id
      const target = withOptions.find(({ field }) => field.kind !== 'choice');
      if (target === undefined || target.field.kind === 'choice') return undefined;
      const initial = [...(target.field.initial ?? [])];
      const at = pick % (initial.length + 1);
      initial.splice(at, 0, 'not-an-option');
      target.field.initial = initial;
      return { model, limits, code: 'invalid-initial', path: ['fields', target.i, 'initial', at] };
    }
    case 5: {
      // one row over the table row limit
      const target = blocks.find(({ block }) => block.kind === 'table' && block.rows.length > 0);
      if (target === undefined || target.block.kind !== 'table') return undefined;
      const rows = target.block.rows.length;
      const otherRows = blocks.filter((b) => b !== target && b.block.kind === 'table' && b.block.rows.length >= rows);
      if (otherRows.length > 0) return undefined; // the limit must break only this table
      limits.tableRows = rows - 1 || 1;
      if (rows - 1 === 0) return undefined; // limits are positive; a one-row table cannot be one over
      return { model, limits, code: 'too-many-rows', path: [...target.path, 'rows', rows - 1] };
    }
    case 6: {
      // one block over the block limit
      if (blocks.length < 2) return undefined;
      limits.blocks = blocks.length - 1;
      return { model, limits, code: 'too-many-blocks', path: blocks[blocks.length - 1]!.path };
    }
    case 7: {
      // one field over the field limit
      if (fields.length < 2) return undefined;
      limits.fields = fields.length - 1;
      return { model, limits, code: 'too-many-fields', path: ['fields', fields.length - 1] };
    }
    default: {
      // a block kind version 1 does not have
      if (blocks.length === 0) return undefined;
      const target = blocks[pick % blocks.length]!;
      (target.block as { kind: string }).kind = 'chart';
      return { model, limits, code: 'unknown-kind', path: [...target.path, 'kind'] };
    }
  }
}

/** Replaces the `pick`-th node (in a depth-first walk, the root excluded) with `replacement`. */
function replaceNode(model: TaskSurfaceModelV1, pick: number, replacement: unknown): unknown {
  const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node))
      node.forEach((child, i) => {
        slots.push({ parent: node, key: i });
        walk(child);
      });
    else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        slots.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
    }
  };
  walk(model);
  const slot = slots[pick % slots.length]!;
  (slot.parent as Record<string | number, unknown>)[slot.key] = replacement;
  return model;
}
