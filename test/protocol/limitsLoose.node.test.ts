import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, effectiveLimits, validateSubmission } from '../../protocol/index.js';
import { modelOf } from './fixtures/parsing.js';

/*
 * A limit a host developer sets loosely (a fraction, Infinity, a string from an environment
 * variable) falls back to its default: no spelling of a limit can switch it off.
 */

const oneText = modelOf({
  version: 1,
  title: 'T',
  sections: [],
  submit: { label: 'Go' },
  fields: [{ kind: 'text', id: 'r', label: 'R', required: true }],
});

describe('effectiveLimits', () => {
  it('keeps the default submission limit for a value that is not a positive integer', () => {
    const text = 'x'.repeat(32_769);
    for (const submissionBytes of [Infinity, 1.5, 100.5, Number.NaN, 0, -5, '100', null, true]) {
      assert.deepStrictEqual(
        validateSubmission(oneText, { values: { r: text } }, { submissionBytes } as never),
        {
          ok: false,
          issues: [
            { path: [], code: 'submission-too-large', message: 'the submission has 32769 characters of text; the limit is 32768 bytes' },
          ],
        },
        String(submissionBytes),
      );
    }
  });

  it('takes each positive integer the caller gave, the default for the rest', () => {
    assert.deepStrictEqual(effectiveLimits({ modelBytes: 10, tableRows: 2.5, fields: Infinity }), { ...DEFAULT_LIMITS, modelBytes: 10 });
    assert.deepStrictEqual(effectiveLimits(), { modelBytes: 65_536, blocks: 64, fields: 32, tableRows: 200, submissionBytes: 32_768 });
    assert.deepStrictEqual(effectiveLimits(DEFAULT_LIMITS), DEFAULT_LIMITS);
  });
});
