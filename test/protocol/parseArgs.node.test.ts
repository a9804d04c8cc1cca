// parseShowTaskSurfaceArgs: the tool's arguments, and the issues the agent reads back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatModelIssues, parseShowTaskSurfaceArgs, type ModelIssue } from '../../protocol/index.js';
import { issuesOf, minimal } from './fixtures/parsing.js';

describe('parseShowTaskSurfaceArgs', () => {
  it('parses { model } and reports paths from the arguments', () => {
    assert.equal(parseShowTaskSurfaceArgs({ model: minimal() }).ok, true);
    const result = parseShowTaskSurfaceArgs({ model: { ...minimal(), title: '' }, extra: 1 });
    assert.deepEqual(result.ok ? [] : result.issues.map((i) => [i.code, i.path]), [['unknown-key', ['extra']]]);
    const bad = parseShowTaskSurfaceArgs({ model: { ...minimal(), title: '' } });
    assert.deepEqual(bad.ok ? [] : bad.issues.map((i) => i.path), [['model', 'title']]);
    assert.deepEqual(codesOfArgs('nope'), [['invalid-type', '']]);
    assert.deepEqual(codesOfArgs({}), [['missing-key', 'model']]);
    assert.match(
      formatModelIssues((parseShowTaskSurfaceArgs({}) as { issues: ModelIssue[] }).issues, ''),
      /- model: the arguments need "model": the panel to show/,
    );
    assert.deepEqual(codesOfArgs({ model: null }), [['invalid-type', 'model']]);
  });

  it('words issues about an order field with "an"', () => {
    const order = { kind: 'order', id: 'o', label: 'O', options: [{ id: 'a', label: 'A' }], initial: ['x'] };
    const messages = issuesOf({ ...minimal(), fields: [order, { ...order, id: 'p', initial: 'a' }] }).map((i) => i.message);
    assert.deepEqual(messages, [
      'an order initial may only hold its option ids, not "x"',
      'an order initial must be an array of option ids, not a string',
    ]);
  });

  it('formats issues for the agent with paths it can find in its call', () => {
    const bad = parseShowTaskSurfaceArgs({ model: { ...minimal(), sections: [{ id: 's', blocks: [{ kind: 'chart' }] }] } });
    assert.equal(bad.ok, false);
    const text = formatModelIssues((bad as { issues: ModelIssue[] }).issues, '');
    assert.equal(
      text,
      [
        'The task surface was not shown because its model is invalid:',
        '- model.sections[0].blocks[0].kind: a block kind must be one of markdown, metrics, table, diff, notice, not "chart"',
        'Fix these and call show_task_surface again.',
      ].join('\n'),
    );
    assert.match(formatModelIssues(issuesOf({ ...minimal(), __proto__x: 1 } as unknown)), /- model\.__proto__x: the model has no key/);
  });
});

function codesOfArgs(args: unknown) {
  const result = parseShowTaskSurfaceArgs(args);
  return result.ok ? [] : result.issues.map((i) => [i.code, i.path.join('.')]);
}
