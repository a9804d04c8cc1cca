import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  formatSubmission,
  initialValues,
  submissionLocaleOf,
  validateSubmission,
  type JsonValue,
  type NormalizedTaskSurfaceModel,
  type TaskSurfaceValues,
} from '../../protocol/index.js';
import { modelArb } from './fixtures/arbitraries.js';
import { everyKindModel } from '../../fixtures/models.js';
import { modelOf } from './fixtures/parsing.js';

const normalized = (input: unknown = everyKindModel()): NormalizedTaskSurfaceModel => modelOf(input);

function submitted(model: NormalizedTaskSurfaceModel, values: Record<string, JsonValue>, note?: string) {
  const result = validateSubmission(model, note === undefined ? { values } : { values, note });
  if (!result.ok) assert.fail(JSON.stringify(result.issues));
  return result;
}

const VALUES = {
  env: 'prod',
  targets: ['web', 'api'],
  migrate: false,
  sequence: ['worker', 'api', 'web'],
  reason: 'Because\nreasons',
  ticket: '',
};

describe('formatSubmission', () => {
  it('writes the title, each label and value, then the note (en)', () => {
    const model = normalized();
    const { values, note } = submitted(model, VALUES, 'ship it');
    assert.equal(
      formatSubmission(model, values, note, { locale: 'en' }),
      [
        'Release 4.2 rollout',
        'Environment: Production',
        'Targets: API, Web',
        'Run migrations: no',
        'Rollout order:',
        '  1. Worker',
        '  2. API',
        '  3. Web',
        'Reason:',
        '  Because',
        '  reasons',
        'Note: ship it',
      ].join('\n'),
    );
  });

  it('leaves empty optional fields out of the text; the structured values keep them', () => {
    const model = normalized();
    const { env: _env, ...rest } = VALUES;
    const result = submitted(model, { ...rest, ticket: '   ' });
    assert.equal(result.values['ticket'], '   ', 'the values keep the blank text');
    assert.equal('env' in result.values, false);
    for (const locale of ['en', 'zh'] as const) {
      const text = formatSubmission(model, result.values, undefined, { locale });
      assert.doesNotMatch(text, /Ticket|Environment/, `${locale}: ${text}`);
      assert.doesNotMatch(text, /empty|no selection|（空）|（未选择）/);
    }
    const none = formatSubmission(model, submitted(model, { ...VALUES, targets: [] }).values, undefined, { locale: 'en' });
    assert.match(none, /^Targets: \(none\)$/m, 'an empty multi-choice is an answer and stays');
  });

  it('reads zh-Hans and other zh tags as Chinese, anything else as English', () => {
    const model = normalized();
    const { values } = submitted(model, VALUES);
    const zh = formatSubmission(model, values, undefined, { locale: 'zh' });
    for (const locale of ['zh-Hans', 'zh-CN', 'ZH'])
      assert.equal(formatSubmission(model, values, undefined, { locale: locale as 'zh' }), zh);
    const en = formatSubmission(model, values, undefined, { locale: 'en' });
    for (const locale of ['fr', '__proto__', 'constructor', ''])
      assert.equal(formatSubmission(model, values, undefined, { locale: locale as 'en' }), en);
    assert.equal(submissionLocaleOf('zh-Hant-TW'), 'zh');
    assert.equal(submissionLocaleOf(undefined), 'en');
  });

  it('uses the locale for yes/no, separators and placeholders (zh)', () => {
    const model = normalized();
    const { env: _env, ...rest } = VALUES;
    const { values, note } = submitted(model, { ...rest, migrate: true, targets: [] }, '第一行\n第二行');
    assert.equal(
      formatSubmission(model, values, note, { locale: 'zh' }),
      [
        'Release 4.2 rollout',
        'Targets：（无）',
        'Run migrations：是',
        'Rollout order：',
        '  1. Worker',
        '  2. API',
        '  3. Web',
        'Reason：',
        '  Because',
        '  reasons',
        '备注：',
        '  第一行',
        '  第二行',
      ].join('\n'),
    );
    const zh = formatSubmission(model, submitted(model, VALUES).values, undefined, { locale: 'zh' });
    assert.match(zh, /^Targets：API、Web$/m);
    assert.match(zh, /^Run migrations：否$/m);
  });

  it('shows choices by label, and adds the id only when two options share a label', () => {
    const model = normalized({
      version: 1,
      title: 'T',
      sections: [],
      submit: { label: 'Go' },
      fields: [
        {
          kind: 'multi-choice',
          id: 'm',
          label: 'Pick',
          options: [
            { id: 'a', label: 'Same' },
            { id: 'b', label: 'Same' },
            { id: 'c', label: 'Other' },
          ],
        },
      ],
    });
    assert.equal(formatSubmission(model, { m: ['a', 'b', 'c'] }, undefined, { locale: 'en' }), 'T\nPick: Same (a), Same (b), Other');
    assert.equal(
      formatSubmission(model, { m: ['a', 'b'] }, undefined, { locale: 'zh' }),
      'T\nPick：Same（a）、Same（b）',
      'full-width parentheses in zh',
    );
  });

  it('never repeats display blocks and leaves out a blank note', () => {
    const model = normalized();
    const text = formatSubmission(model, submitted(model, VALUES).values, '   ', { locale: 'en' });
    for (const phrase of ['release', 'Error rate', 'migration.', 'replicas', 'p95', 'Overview', 'Start rollout']) {
      assert.equal(text.includes(phrase), false, `repeats ${phrase}`);
    }
    assert.equal(text.includes('Note'), false);
  });

  it('keeps a label on one line', () => {
    const model = normalized({
      version: 1,
      title: 'Two\nlines',
      sections: [],
      submit: { label: 'Go' },
      fields: [{ kind: 'toggle', id: 't', label: 'Is\nit  ok?' }],
    });
    assert.equal(formatSubmission(model, { t: true }, undefined, { locale: 'en' }), 'Two lines\nIs it ok?: yes');
  });

  it('is deterministic, compact and keeps every submitted value (any valid model)', () => {
    fc.assert(
      fc.property(modelArb, fc.constantFrom('en' as const, 'zh' as const), (input, locale) => {
        const model = normalized(input);
        const values: TaskSurfaceValues = initialValues(model);
        for (const field of model.fields) if (field.kind === 'text' && field.required) values[field.id] = 'filled in';
        const result = submitted(model, values, 'the note');
        const text = formatSubmission(model, result.values, result.note, { locale });
        assert.equal(formatSubmission(model, result.values, result.note, { locale }), text);
        assert.ok(text.endsWith(locale === 'en' ? 'Note: the note' : '备注：the note'));
        for (const field of model.fields) {
          const value = result.values[field.id];
          if (field.kind === 'text' && typeof value === 'string') {
            for (const line of value.split(/\r\n|\r|\n/))
              if (/\S/.test(line)) assert.ok(text.includes(line), `lost text ${JSON.stringify(line)}`);
          }
          if ((field.kind === 'order' || field.kind === 'multi-choice') && Array.isArray(value)) {
            for (const id of value) {
              const label = field.options
                .find((o) => o.id === id)!
                .label.replace(/\s+/g, ' ')
                .trim();
              assert.ok(text.includes(label), `lost option ${JSON.stringify(label)}`);
            }
          }
        }
        // Compact: a line per field plus the lines of multi-line values, the title and the note.
        const extraLines = model.fields.reduce((n, f) => {
          const v = result.values[f.id];
          if (f.kind === 'choice' && v === undefined) return n - 1; // unselected: left out
          if (f.kind === 'text' && !f.required && typeof v === 'string' && !/\S/.test(v)) return n - 1; // blank optional text: left out
          if (f.kind === 'order') return n + (v as string[]).length;
          if (f.kind === 'text' && typeof v === 'string' && /\S/.test(v)) {
            const k = v.split(/\r\n|\r|\n/).length;
            return n + (k > 1 ? k : 0);
          }
          return n;
        }, 0);
        assert.equal(text.split('\n').length, 2 + model.fields.length + extraLines);
      }),
      { numRuns: 100 },
    );
  });

  it('shows malformed values raw instead of dropping them', () => {
    const model = normalized();
    const text = formatSubmission(model, { env: 'gone', targets: 'x', migrate: 'maybe' } as unknown as TaskSurfaceValues, undefined, {
      locale: 'en',
    });
    assert.match(text, /^Environment: "gone"$/m);
    assert.match(text, /^Targets: "x"$/m);
    assert.match(text, /^Run migrations: "maybe"$/m);
  });
});
