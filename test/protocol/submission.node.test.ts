import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  DEFAULT_LIMITS,
  initialValues,
  validateSubmission,
  type JsonValue,
  type NormalizedTaskSurfaceModel,
  type SubmissionIssue,
} from '../../protocol/index.js';
import { modelArb } from './fixtures/arbitraries.js';
import { everyKindModel } from '../../fixtures/models.js';
import { modelOf } from './fixtures/parsing.js';
import { goodValues as good } from './fixtures/values.js';

const normalized = (input: unknown = everyKindModel()): NormalizedTaskSurfaceModel => modelOf(input);

function issues(values: unknown, note?: unknown, limits = DEFAULT_LIMITS): [string, string][] {
  const input = note === undefined ? { values } : { values, note };
  const result = validateSubmission(normalized(), input as { values: Record<string, JsonValue> }, limits);
  assert.equal(result.ok, false, 'expected the submission to be rejected');
  return (result as { issues: SubmissionIssue[] }).issues.map((i) => [i.code, i.path.join('.')]);
}

describe('initialValues', () => {
  it('starts from every initial, with defaults, and leaves an unselected choice out', () => {
    assert.deepEqual(initialValues(normalized()), {
      env: 'staging',
      targets: ['worker'],
      migrate: true,
      sequence: ['web', 'api', 'worker'],
      reason: '',
      ticket: '',
    });
    const noChoice = normalized({
      version: 1,
      title: 'T',
      sections: [],
      fields: [{ kind: 'choice', id: 'c', label: 'C', options: [{ id: 'a', label: 'A' }] }],
      submit: { label: 'Go' },
    });
    assert.deepEqual(initialValues(noChoice), {});
  });

  it('returns fresh arrays the editor may change without touching the model', () => {
    const model = normalized();
    const values = initialValues(model);
    (values.targets as string[]).push('api');
    assert.deepEqual(initialValues(model).targets, ['worker']);
  });
});

describe('validateSubmission', () => {
  it('accepts good values and returns them canonical: field order, multi-choice in option order', () => {
    const result = validateSubmission(normalized(), { values: good(), note: 'ship it' });
    assert.deepEqual(result, {
      ok: true,
      values: {
        env: 'prod',
        targets: ['api', 'web'],
        migrate: false,
        sequence: ['worker', 'api', 'web'],
        reason: 'Because\nreasons',
        ticket: 'OPS-1',
      },
      note: 'ship it',
    });
    assert.deepEqual(Object.keys((result as { values: object }).values), ['env', 'targets', 'migrate', 'sequence', 'reason', 'ticket']);
  });

  it('drops a blank note and keeps a note exactly otherwise', () => {
    assert.equal('note' in validateSubmission(normalized(), { values: good(), note: '  \n ' }), false);
    const result = validateSubmission(normalized(), { values: good(), note: '  keep  ' });
    assert.equal(result.ok && result.note, '  keep  ');
  });

  it('accepts the initial values of any valid model once required texts are filled', () => {
    fc.assert(
      fc.property(modelArb, (input) => {
        const model = normalized(input);
        const values: Record<string, JsonValue> = initialValues(model);
        for (const field of model.fields) if (field.kind === 'text' && field.required) values[field.id] = 'filled';
        const result = validateSubmission(model, { values });
        assert.equal(result.ok, true, JSON.stringify(result));
      }),
      { numRuns: 100 },
    );
  });

  it('accepts any values that match their fields, and its canonical values validate to themselves', () => {
    const withValues = modelArb.map((input) => normalized(input)).chain((model) => fc.tuple(fc.constant(model), valuesArb(model)));
    fc.assert(
      fc.property(withValues, ([model, values]) => {
        const first = validateSubmission(model, { values });
        if (!first.ok) assert.fail(JSON.stringify(first.issues));
        assert.deepStrictEqual(validateSubmission(model, { values: first.values }), first);
      }),
      { numRuns: 100 },
    );
  });

  it('allows an unanswered choice; requires every other field', () => {
    const { env: _env, ...rest } = good();
    assert.equal(validateSubmission(normalized(), { values: rest }).ok, true);
    const cleared = validateSubmission(normalized(), { values: { ...good(), env: null } });
    assert.equal(cleared.ok && 'env' in cleared.values, false, 'null is unanswered, and left out');
    assert.deepEqual(issues({ ...good(), migrate: null }), [['invalid-type', 'values.migrate']]);
    const { migrate: _migrate, targets: _targets, ...missing } = good();
    assert.deepEqual(issues(missing), [
      ['missing-value', 'values.targets'],
      ['missing-value', 'values.migrate'],
    ]);
  });

  it('rejects unknown keys, including __proto__, and keys inherited from prototypes do not count', () => {
    const values = JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(good()).slice(1)}`) as Record<string, JsonValue>;
    assert.deepEqual(issues({ ...good(), extra: 1 }), [['unknown-key', 'values.extra']]);
    assert.deepEqual(issues(values), [['unknown-key', 'values.__proto__']]);
    const inherited = Object.create(good()) as Record<string, JsonValue>;
    assert.equal(issues(inherited).length, 5); // every field but the optional choice is missing
  });

  it('checks each value against its field', () => {
    const values = {
      env: 'mars',
      targets: ['api', 'api'],
      migrate: 'yes',
      sequence: ['api', 'worker'],
      reason: '   ',
      ticket: 'two\nlines',
    };
    assert.deepEqual(issues(values), [
      ['invalid-value', 'values.env'],
      ['invalid-value', 'values.targets.1'],
      ['invalid-type', 'values.migrate'],
      ['invalid-value', 'values.sequence'],
      ['required', 'values.reason'],
      ['invalid-value', 'values.ticket'],
    ]);
    assert.deepEqual(issues({ ...good(), env: 3, targets: 'api', sequence: ['api', 'worker', 'web', 'zzz'], reason: 5 }), [
      ['invalid-type', 'values.env'],
      ['invalid-type', 'values.targets'],
      ['invalid-value', 'values.sequence.3'],
      ['invalid-type', 'values.reason'],
    ]);
  });

  it('names the field in its messages', () => {
    const result = validateSubmission(normalized(), { values: { ...good(), reason: '' } });
    assert.equal(result.ok, false);
    assert.match((result as { issues: SubmissionIssue[] }).issues[0]!.message, /"Reason" is required/);
  });

  it('limits the UTF-8 bytes of { values, note }', () => {
    const values = good();
    const bytes = new TextEncoder().encode(
      JSON.stringify({ values: (validateSubmission(normalized(), { values }) as { values: object }).values, note: '中文' }),
    ).length;
    assert.equal(validateSubmission(normalized(), { values, note: '中文' }, { ...DEFAULT_LIMITS, submissionBytes: bytes }).ok, true);
    assert.deepEqual(issues(values, '中文', { ...DEFAULT_LIMITS, submissionBytes: bytes - 1 }), [['submission-too-large', '']]);
    assert.deepEqual(issues({ ...values, reason: 'x'.repeat(40_000) }), [['submission-too-large', '']]);
  });

  it('never throws on hostile submissions', () => {
    const cyclic: Record<string, unknown> = { ...good() };
    cyclic.self = cyclic;
    const deep: unknown[] = [];
    let cursor = deep;
    for (let i = 0; i < 10_000; i++) {
      const next: unknown[] = [];
      cursor.push(next);
      cursor = next;
    }
    for (const input of [
      null,
      'values',
      { values: null },
      { values: [] },
      { values: cyclic },
      { values: { ...good(), targets: deep } },
      { values: good(), note: 7 },
      { values: good(), extra: 1 },
    ]) {
      const result = validateSubmission(normalized(), input as never);
      assert.equal(result.ok, false, JSON.stringify(Object.keys(input ?? {})));
    }
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (values, note) => {
        validateSubmission(normalized(), { values, note } as never);
      }),
      { numRuns: 200 },
    );
  });
});

/** Values a person could submit for `model`: any option subsets and orders, any single-line text. */
function valuesArb(model: NormalizedTaskSurfaceModel): fc.Arbitrary<Record<string, JsonValue>> {
  const entries = model.fields.map((field): fc.Arbitrary<[string, JsonValue | undefined]> => {
    const ids = 'options' in field ? field.options.map((o) => o.id) : [];
    const value: fc.Arbitrary<JsonValue | undefined> = (() => {
      switch (field.kind) {
        case 'text':
          return fc
            .string({ unit: 'binary' })
            .map((t) => (field.multiline ? t : t.replace(/[\r\n]/g, ' ')))
            .map((t) => (field.required && !/\S/.test(t) ? `${t}x` : t));
        case 'toggle':
          return fc.boolean();
        case 'choice':
          return fc.option(fc.constantFrom(...ids), { nil: undefined });
        case 'multi-choice':
          return fc.shuffledSubarray(ids);
        case 'order':
          return fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length });
      }
    })();
    return value.map((v) => [field.id, v]);
  });
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)) as Record<string, JsonValue>);
}
