// How a refusal is worded (issueText, describeIssues), the error frames a host builds (wireError),
// and which server frames a client accepts (ServerMessageSchema).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyView, sid } from '../components/fakeTransport.js';
import { describeIssues, issueText, ServerMessageSchema, wireError, type WireIssue } from '../../protocol/wire.js';

const generic = (more: Omit<WireIssue, 'path' | 'message'>, message = 'Invalid input'): WireIssue => ({ path: [], message, ...more });

describe('issueText', () => {
  it('keeps a message a schema worded itself', () => {
    assert.equal(issueText(generic({ code: 'too_big', maximum: 500 }, 'limit must be at most 500')), 'limit must be at most 500');
    assert.equal(issueText(generic({ code: 'custom' }, 'Invalid inputs are fine here')), 'Invalid inputs are fine here');
  });

  it('words each generic issue zod leaves as "Invalid input" or "Invalid input: …"', () => {
    const cases: [Omit<WireIssue, 'path' | 'message'>, string][] = [
      [{ code: 'unrecognized_keys', keys: ['admin'] }, 'unknown field "admin"'],
      [{ code: 'unrecognized_keys', keys: ['a', 'b'] }, 'unknown fields "a", "b"'],
      [{ code: 'unrecognized_keys' }, 'unknown fields '],
      [{ code: 'invalid_type', expected: 'nonoptional' }, 'is required'],
      [{ code: 'invalid_type', expected: 'string' }, 'expected string'],
      [{ code: 'invalid_value', values: ['edit', 2, null] }, 'expected "edit" or 2 or null'],
      [{ code: 'invalid_value' }, 'expected '],
      [{ code: 'too_small', minimum: 1 }, 'must be at least 1'],
      [{ code: 'too_big', maximum: 64 }, 'must be at most 64'],
      [{ code: 'invalid_union' }, 'matches none of the allowed shapes'],
    ];
    for (const [more, text] of cases) {
      assert.equal(issueText(generic(more)), text, JSON.stringify(more));
      assert.equal(issueText(generic(more, 'Invalid input: expected something else')), text, JSON.stringify(more));
    }
  });

  it('leaves an issue it has no words for as zod sent it', () => {
    assert.equal(issueText(generic({ code: 'invalid_format' })), 'Invalid input');
    assert.equal(issueText(generic({}, 'Invalid input: odd')), 'Invalid input: odd');
  });
});

describe('describeIssues', () => {
  const at = (path: PropertyKey[], message: string): WireIssue => ({ path, message });

  it('prefixes each issue with its dotted path, none when the issue is about the whole value', () => {
    assert.equal(
      describeIssues([at(['params', 'values', 0], 'bad'), at([], 'whole'), at(['x'], 'Invalid input')]),
      'params.values.0: bad; whole; x: Invalid input',
    );
  });

  it('names five issues; past five it counts the rest', () => {
    const issues = (n: number) => Array.from({ length: n }, (_, i) => at([`f${i}`], `m${i}`));
    const five = 'f0: m0; f1: m1; f2: m2; f3: m3; f4: m4';
    assert.equal(describeIssues(issues(5)), five);
    assert.equal(describeIssues(issues(6)), `${five} (and 1 more)`);
    assert.equal(describeIssues(issues(9)), `${five} (and 4 more)`);
    assert.equal(describeIssues([]), '');
  });
});

describe('wireError', () => {
  it('carries retryAfterMs only when given one', () => {
    assert.deepEqual(wireError('r1', 'unknown-session', 'gone'), { type: 'error', id: 'r1', code: 'unknown-session', message: 'gone' });
    assert.deepEqual(Object.keys(wireError(null, 'bad-request', 'x')), ['type', 'id', 'code', 'message']);
    assert.deepEqual(wireError(null, 'busy', 'later', 0), { type: 'error', id: null, code: 'busy', message: 'later', retryAfterMs: 0 });
  });
});

const VIEW = emptyView(sid('s1'));

describe('ServerMessageSchema', () => {
  const accepted = (frame: unknown) => {
    const parsed = ServerMessageSchema.safeParse(frame);
    return parsed.success ? parsed.data : 'refused';
  };

  it('accepts a result, an error and a pushed view, each with exactly its data', () => {
    const frames = [
      { type: 'result', id: 'r1', result: { anything: [1] } },
      { type: 'error', id: null, code: 'bad-request', message: 'no' },
      { type: 'error', id: 'r1', code: 'busy', message: 'later', retryAfterMs: 5 },
      { type: 'session.view', sessionId: 's1', view: VIEW },
    ];
    for (const frame of frames) assert.deepEqual(accepted(frame), frame);
  });

  it('refuses a frame of another type, a wrong field or an extra one', () => {
    const frames = [
      { type: 'hello' },
      { type: 'result', id: '', result: 1 },
      { type: 'result', id: 'r1', result: 1, admin: true },
      { type: 'error', id: 'r1', code: 'teapot', message: 'm' },
      { type: 'error', id: 'r1', code: 'busy', message: 'm', retryAfterMs: -1 },
      { type: 'session.view', sessionId: 's1', view: { ...VIEW, turn: 'sleeping' } },
    ];
    for (const frame of frames) assert.equal(accepted(frame), 'refused', JSON.stringify(frame));
  });
});
