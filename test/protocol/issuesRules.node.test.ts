// How an issue's path and a value's type are worded for the agent, the id schemas' messages, the
// limits a host developer resolves, and the error a reached limit throws.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CallIdSchema,
  DEFAULT_LIMITS,
  describeType,
  formatIssuePath,
  formatModelIssues,
  InboxItemIdSchema,
  LimitExceededError,
  MessageIdSchema,
  resolveLimits,
  RpcIdSchema,
  SessionIdSchema,
  TaskSurfaceDismissalIdSchema,
  TaskSurfaceIdSchema,
  TaskSurfaceSubmissionIdSchema,
  TurnIdSchema,
} from '../../protocol/index.js';

describe('formatIssuePath', () => {
  const long = 'a'.repeat(64);
  const cases: [string, (string | number)[], string | undefined, string][] = [
    ['the model root by default', ['sections', 0, 'blocks', 2], undefined, 'model.sections[0].blocks[2]'],
    ['the arguments root', ['model', 'title'], '', 'model.title'],
    ['an empty path from the arguments', [], '', 'arguments'],
    ['an empty path from the model', [], undefined, 'model'],
    ['a key that is no identifier', ['a b'], undefined, 'model["a b"]'],
    ['a key starting with a digit', ['0x'], undefined, 'model["0x"]'],
    ['an identifier of 64 characters', [long], undefined, `model.${long}`],
    // A long typo is cut at 64 characters, so an issue never echoes a huge key back.
    ['an identifier of 65 characters', [`${long}b`], undefined, `model["${long}…"]`],
    ['a quoted key of 64 characters', [` ${'a'.repeat(63)}`], undefined, `model[" ${'a'.repeat(63)}"]`],
    ['a quoted key of 65 characters', [` ${long}`], undefined, `model[" ${'a'.repeat(63)}…"]`],
  ];
  for (const [name, path, root, expected] of cases) {
    it(`renders ${name}`, () => {
      assert.equal(root === undefined ? formatIssuePath(path) : formatIssuePath(path, root), expected);
    });
  }

  it('starts every line of the agent\'s text at "model" by default', () => {
    assert.equal(
      formatModelIssues([{ path: ['title'], message: 'the title must not be blank' }]),
      [
        'The task surface was not shown because its model is invalid:',
        '- model.title: the title must not be blank',
        'Fix these and call show_task_surface again.',
      ].join('\n'),
    );
  });
});

describe('describeType', () => {
  const cases: [unknown, string][] = [
    [null, 'null'],
    [[], 'an array'],
    ['x', 'a string'],
    [1, 'a number'],
    [true, 'a boolean'],
    [undefined, 'nothing'],
    [{}, 'an object'],
    [1n, 'a bigint'],
    [() => 1, 'a function'],
    [Symbol('s'), 'a symbol'],
  ];
  for (const [value, expected] of cases) {
    it(`names ${expected}`, () => assert.equal(describeType(value), expected));
  }
});

describe('id schemas', () => {
  const RULE = "must start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'";
  const schemas = [
    ['sessionId', SessionIdSchema],
    ['callId', CallIdSchema],
    ['messageId', MessageIdSchema],
    ['rpcId', RpcIdSchema],
    ['inboxItemId', InboxItemIdSchema],
    ['turnId', TurnIdSchema],
    ['surfaceId', TaskSurfaceIdSchema],
    ['submissionId', TaskSurfaceSubmissionIdSchema],
    ['dismissalId', TaskSurfaceDismissalIdSchema],
  ] as const;
  for (const [name, schema] of schemas) {
    it(`names ${name} in each of its messages`, () => {
      const messages = (value: string) => schema.safeParse(value).error?.issues.map((issue) => issue.message);
      assert.deepEqual(messages(''), [`${name} must not be empty`, `${name} ${RULE}`]);
      assert.deepEqual(messages('x'.repeat(129)), [`${name} must be at most 128 characters`]);
      assert.deepEqual(messages('-a'), [`${name} ${RULE}`]);
    });
  }
});

describe('resolveLimits', () => {
  it('gives the defaults without options and fills in what a partial object leaves out', () => {
    assert.equal(resolveLimits(), DEFAULT_LIMITS);
    assert.deepEqual(resolveLimits({ blocks: 5 }), { ...DEFAULT_LIMITS, blocks: 5 });
  });

  it('throws on a limit that is not a positive whole number, or that does not exist', () => {
    const refusal = (input: unknown) => {
      try {
        resolveLimits(input as never);
      } catch (error) {
        return (error as { issues: { code: string; path: PropertyKey[] }[] }).issues.map((i) => [i.code, i.path]);
      }
      return assert.fail('accepted');
    };
    assert.deepEqual(refusal({ blocks: 0 }), [['too_small', ['blocks']]]);
    assert.deepEqual(refusal({ tableRows: 1.5 }), [['invalid_type', ['tableRows']]]);
    assert.deepEqual(refusal({ rows: 5 }), [['unrecognized_keys', []]]);
  });
});

describe('LimitExceededError', () => {
  it('is named so in logs and carries what a transport needs', () => {
    const error = new LimitExceededError('too-busy', 'concurrent-turns', 'two turns are running', 500);
    assert.equal(String(error), 'LimitExceededError: two turns are running');
    assert.deepEqual(
      { name: error.name, code: error.code, limit: error.limit, retryAfterMs: error.retryAfterMs },
      { name: 'LimitExceededError', code: 'too-busy', limit: 'concurrent-turns', retryAfterMs: 500 },
    );
  });
});
