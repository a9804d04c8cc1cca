import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initialValuesOf, mergeDraft, missingRequired } from '../../components/shared/values.js';
import { everyKindModel } from './models.js';

describe('draft values', () => {
  it('starts from the initial values (order: the options, choice: none)', () => {
    assert.deepEqual(initialValuesOf(everyKindModel), {
      name: '',
      notes: 'none',
      targets: ['web'],
      notify: false,
      steps: ['build', 'test', 'deploy'],
    });
  });

  it('keeps only draft values that still fit their field', () => {
    const merged = mergeDraft(everyKindModel, {
      name: 'ok',
      notes: true as never,
      plan: 'zzz',
      targets: ['ios', 'ios'],
      notify: 'yes' as never,
      steps: ['build', 'test'],
      unknown: 'x',
    });
    assert.deepEqual(merged, { name: 'ok', notes: 'none', targets: ['ios'], notify: false, steps: ['build', 'test', 'deploy'] });
  });

  it('lists blank required text fields', () => {
    assert.deepEqual(missingRequired(everyKindModel, { name: '  ' }), ['name']);
    assert.deepEqual(missingRequired(everyKindModel, { name: 'x' }), []);
  });
});
