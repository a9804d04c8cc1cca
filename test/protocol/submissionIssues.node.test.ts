import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initialValues, validateSubmission, type JsonValue, type NormalizedTaskSurfaceModel } from '../../protocol/index.js';
import { everyKindModel } from '../../fixtures/models.js';
import { modelOf } from './fixtures/parsing.js';
import { goodValues as good } from './fixtures/values.js';

/*
 * What a Dock (or a hostile client) is told when a submission is refused: the whole issue list,
 * paths, codes and messages, compared as the client receives it.
 */

const model: NormalizedTaskSurfaceModel = modelOf(everyKindModel());

const validate = (input: unknown, limits?: { submissionBytes: number }) => validateSubmission(model, input as never, limits);
type Issue = [(string | number)[], string, string];
const refused = (...issues: Issue[]) => ({
  ok: false,
  issues: issues.map(([path, code, message]) => ({ path, code, message })),
});

describe('a submission refused as a whole', () => {
  it('is not an object', () => {
    for (const [input, type] of [
      [null, 'null'],
      ['values', 'a string'],
      [[], 'an array'],
      [3, 'a number'],
      [undefined, 'nothing'],
    ] as const) {
      assert.deepStrictEqual(
        validate(input),
        refused([[], 'invalid-type', `a submission must be an object { values, note? }, not ${type}`]),
      );
    }
  });

  it('has keys other than values and note, or a note that is not a string', () => {
    assert.deepStrictEqual(
      validate({ values: good(), note: 7, extra: 1 }),
      refused(
        [['extra'], 'unknown-key', 'a submission has no key "extra"'],
        [['note'], 'invalid-type', 'the note must be a string, not a number'],
      ),
    );
  });

  it('has values that are not an object (the issues found before it are kept)', () => {
    assert.deepStrictEqual(
      validate({ values: null }),
      refused([['values'], 'invalid-type', 'values must be an object keyed by field id, not null']),
    );
    assert.deepStrictEqual(
      validate({ extra: 1, values: [] }),
      refused(
        [['extra'], 'unknown-key', 'a submission has no key "extra"'],
        [['values'], 'invalid-type', 'values must be an object keyed by field id, not an array'],
      ),
    );
  });

  it('cannot be read at all', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
      },
    );
    assert.deepStrictEqual(validate(hostile), refused([[], 'invalid-type', 'the submission could not be read']));
  });

  it('lists at most 32 issues', () => {
    const values: Record<string, JsonValue> = { ...good() };
    for (let i = 0; i < 40; i++) values[`k${i}`] = i;
    const expected = Array.from({ length: 32 }, (_, i): Issue => [['values', `k${i}`], 'unknown-key', `there is no field "k${i}"`]);
    assert.deepStrictEqual(validate({ values }), refused(...expected));
  });
});

describe("each field's refusal, in the words the client shows", () => {
  it('a value that does not match its field', () => {
    assert.deepStrictEqual(
      validate({
        values: { env: 'mars', targets: ['api', 'api'], migrate: 'yes', sequence: ['api'], reason: '   ', ticket: 'two\nlines' },
      }),
      refused(
        [['values', 'env'], 'invalid-value', '"Environment" has no option "mars"'],
        [['values', 'targets', 1], 'invalid-value', '"Targets" lists option "api" twice'],
        [['values', 'migrate'], 'invalid-type', '"Run migrations" must be true or false, not a string'],
        [['values', 'sequence'], 'invalid-value', '"Rollout order" must order every option; missing "worker", "web"'],
        [['values', 'reason'], 'required', '"Reason" is required'],
        [['values', 'ticket'], 'invalid-value', '"Ticket" is a single line; it must not contain line breaks'],
      ),
    );
  });

  it('a value of the wrong type, or an option that is not there', () => {
    assert.deepStrictEqual(
      validate({ values: { ...good(), env: 3, targets: [5], sequence: 'api', reason: 5 } }),
      refused(
        [['values', 'env'], 'invalid-type', '"Environment" must be an option id, not a number'],
        [['values', 'targets', 0], 'invalid-value', '"Targets" has no option 5'],
        [['values', 'sequence'], 'invalid-type', '"Rollout order" must be an array of option ids, not a string'],
        [['values', 'reason'], 'invalid-type', '"Reason" must be text, not a number'],
      ),
    );
  });

  it('a missing value, and an unknown field', () => {
    const { migrate: _m, sequence: _s, ...rest } = good();
    assert.deepStrictEqual(
      validate({ values: { ...rest, typo: 1 } }),
      refused(
        [['values', 'typo'], 'unknown-key', 'there is no field "typo"'],
        [['values', 'migrate'], 'missing-value', '"Run migrations" has no value'],
        [['values', 'sequence'], 'missing-value', '"Rollout order" has no value'],
      ),
    );
  });

  it('a choice cleared to null is unanswered: accepted and left out', () => {
    const { env: _env, ...rest } = good();
    const unanswered = validate({ values: rest });
    assert.ok(unanswered.ok && !('env' in unanswered.values));
    assert.deepStrictEqual(validate({ values: { ...good(), env: null } }), unanswered);
  });
});

/** A model of one required text, so the sizes below are easy to count. */
const oneText = modelOf({
  version: 1,
  title: 'T',
  sections: [],
  submit: { label: 'Go' },
  fields: [{ kind: 'text', id: 'r', label: 'R', required: true, multiline: true }],
});
const sized = (input: unknown, limits?: { submissionBytes: number }) => validateSubmission(oneText, input as never, limits);
const tooLarge = (message: string) => refused([[], 'submission-too-large', message]);

describe('the size of a submission', () => {
  it('counts the characters of every text and of the note before anything else', () => {
    const limit = { submissionBytes: 100 };
    assert.deepStrictEqual(
      sized({ values: { r: 'x'.repeat(60) }, note: 'n'.repeat(41) }, limit),
      tooLarge('the submission has 101 characters of text; the limit is 100 bytes'),
    );
    assert.deepStrictEqual(
      sized({ values: { r: 'ok' }, note: 'n'.repeat(101) }, limit),
      tooLarge('the submission has 103 characters of text; the limit is 100 bytes'),
    );
    assert.deepStrictEqual(
      sized({ values: { r: 'x'.repeat(101) } }, limit),
      tooLarge('the submission has 101 characters of text; the limit is 100 bytes'),
    );
  });

  it('keeps the default limit of 32 KiB (32768 bytes)', () => {
    assert.deepStrictEqual(
      sized({ values: { r: 'x'.repeat(32_769) } }),
      tooLarge('the submission has 32769 characters of text; the limit is 32768 bytes'),
    );
    // {"values":{"r":"…"}} adds 19 bytes to the text.
    assert.deepStrictEqual(sized({ values: { r: 'x'.repeat(32_749) } }), { ok: true, values: { r: 'x'.repeat(32_749) } });
    assert.deepStrictEqual(
      sized({ values: { r: 'x'.repeat(32_750) } }),
      tooLarge('the submission is 32769 bytes of JSON; the limit is 32768'),
    );
  });

  it('then counts the UTF-8 bytes of the JSON of { values, note }', () => {
    const limit = { submissionBytes: 100 };
    // Exactly at the limit in characters passes that count; the JSON is larger.
    assert.deepStrictEqual(
      sized({ values: { r: 'x'.repeat(100) } }, limit),
      tooLarge('the submission is 119 bytes of JSON; the limit is 100'),
    );
    // 30 characters, 90 bytes of UTF-8: no note.
    assert.deepStrictEqual(
      sized({ values: { r: '中'.repeat(30) } }, limit),
      tooLarge('the submission is 109 bytes of JSON; the limit is 100'),
    );
    // 89 bytes alone; with the note, {"values":{"r":"…"},"note":"注"} is 102.
    assert.deepStrictEqual(sized({ values: { r: 'x'.repeat(70) } }, limit), { ok: true, values: { r: 'x'.repeat(70) } });
    assert.deepStrictEqual(
      sized({ values: { r: 'x'.repeat(70) }, note: '注' }, limit),
      tooLarge('the submission is 102 bytes of JSON; the limit is 100'),
    );
  });
});

describe('initialValues', () => {
  it("gives fresh arrays for every multi-choice and order: editing them leaves the model's initials alone", () => {
    const before = JSON.stringify(initialValues(model));
    const edited = initialValues(model);
    (edited.targets as string[]).push('api');
    (edited.sequence as string[]).reverse();
    assert.equal(JSON.stringify(initialValues(model)), before);
  });
});
