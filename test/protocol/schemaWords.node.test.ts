import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod/mini';
import {
  DismissTaskSurfaceRequestSchema,
  GetActiveTaskSurfaceRequestSchema,
  GetTaskSurfaceOutcomeRequestSchema,
  isSystem,
  MESSAGE_MAX_LENGTH,
  PrincipalIdSchema,
  PrincipalSchema,
  PROPOSE_ACTION,
  SendMessageRequestSchema,
  SKILL_TOOL,
  SYSTEM_PRINCIPAL,
  TaskSurfaceCorrelationSchema,
  TaskSurfaceModelV1Schema,
  TaskSurfacePresentationMetaEnvelopeSchema,
  UpdateQueueRequestSchema,
} from '../../protocol/index.js';
import { checkRow, passesWhole, type SchemaRow } from './fixtures/schemaTable.js';

/*
 * The rest of the protocol's schemas: who acts (a host developer's `host.as(principal)`), the
 * requests a client sends, the Task Surface envelope and correlation, and the words each refusal
 * carries (a client's problem text and a developer's parse error show them as they are).
 */

const badId = ['', 'a b', 7, null];
const issues = (schema: z.ZodMiniType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => ({ path: issue.path, message: issue.message }));

describe('principals', () => {
  it('an id of 1 to 256 characters without control characters passes whole', () => {
    for (const id of ['a', 'ann@example.com', 'Zoë Ünal', 'x'.repeat(256), ' spaced ']) passesWhole(PrincipalIdSchema, id);
  });

  it('each wrong id is refused with its own words', () => {
    const control = [{ path: [], message: 'principal id must not contain control characters' }];
    assert.deepEqual(issues(PrincipalIdSchema, ''), [{ path: [], message: 'principal id must not be empty' }, ...control]);
    assert.deepEqual(issues(PrincipalIdSchema, 'x'.repeat(257)), [{ path: [], message: 'principal id must be at most 256 characters' }]);
    for (const id of ['\u0001ann', 'ann\n', 'an\u0000n', 'ann\u007f', '\u001f'])
      assert.deepEqual(issues(PrincipalIdSchema, id), control, JSON.stringify(id));
  });

  it('a principal is strict: its id, a name and roles', () => {
    checkRow({
      name: 'principal',
      schemas: [PrincipalSchema],
      valid: [
        { id: 'ann', name: 'Ann', roles: ['admin'] },
        { id: 'bob', name: '', roles: [] },
      ],
      wrong: {
        id: ['', 'a\u0000', 7, null],
        name: ['x'.repeat(257), 7, null],
        roles: [[''], ['x'.repeat(65)], Array.from({ length: 65 }, (_, i) => `r${i}`), 'admin', [7]],
      },
      strict: true,
      optional: ['name', 'roles'],
    });
  });

  it("host code's principal is `system`, recognised by identity only", () => {
    assert.deepEqual(SYSTEM_PRINCIPAL, { id: 'system', name: 'system' });
    assert.equal(Object.isFrozen(SYSTEM_PRINCIPAL), true);
    assert.equal(isSystem(SYSTEM_PRINCIPAL), true);
    assert.equal(isSystem({ id: 'system', name: 'system' }), false);
    assert.equal(isSystem({ id: 'ann' }), false);
  });
});

describe('what a client sends', () => {
  const send = { sessionId: 's1', messageId: 'm1', rpcId: 'r1', text: 'hello' };

  it('a message of 1 to 32 KiB characters passes whole; others are refused with their own words', () => {
    passesWhole(SendMessageRequestSchema, send);
    passesWhole(SendMessageRequestSchema, { ...send, text: 'x'.repeat(MESSAGE_MAX_LENGTH) });
    assert.deepEqual(issues(SendMessageRequestSchema, { ...send, text: '' }), [{ path: ['text'], message: 'message must not be empty' }]);
    assert.deepEqual(issues(SendMessageRequestSchema, { ...send, text: 'x'.repeat(MESSAGE_MAX_LENGTH + 1) }), [
      { path: ['text'], message: 'message must be at most 32768 characters' },
    ]);
  });

  const queueOp = (op: string, more: Record<string, unknown> = {}, wrong: Record<string, unknown[]> = {}): SchemaRow => ({
    name: `updateQueue ${op}`,
    schemas: [UpdateQueueRequestSchema],
    valid: [{ op, sessionId: 's1', itemId: 'i1', ...more }],
    wrong: { op: ['', 'delete', null], sessionId: badId, itemId: badId, ...wrong },
    strict: true,
  });
  const requests: SchemaRow[] = [
    queueOp('remove'),
    queueOp('steer'),
    queueOp('edit', { text: 'better' }, { text: ['', 'x'.repeat(MESSAGE_MAX_LENGTH + 1), 7] }),
    {
      name: 'getActive',
      schemas: [GetActiveTaskSurfaceRequestSchema],
      valid: [{ sessionId: 's1', surfaceId: 'ts1' }],
      wrong: { sessionId: badId, surfaceId: badId },
      strict: true,
    },
    {
      name: 'getOutcome',
      schemas: [GetTaskSurfaceOutcomeRequestSchema],
      valid: [{ sessionId: 's1', surfaceId: 'ts1' }],
      wrong: { sessionId: badId, surfaceId: badId },
      strict: true,
    },
    {
      name: 'dismiss',
      schemas: [DismissTaskSurfaceRequestSchema],
      valid: [{ sessionId: 's1', surfaceId: 'ts1', dismissalId: 'd1' }],
      wrong: { sessionId: badId, surfaceId: badId, dismissalId: badId },
      strict: true,
    },
  ];
  for (const row of requests) it(`${row.name}: passes whole, strict, each wrong field refused`, () => checkRow(row));
});

describe('the Task Surface envelope and correlation', () => {
  it('the presentation envelope is loose (its limits are kept) and needs a model of any shape', () => {
    checkRow({
      name: 'envelope',
      schemas: [TaskSurfacePresentationMetaEnvelopeSchema],
      valid: [{ kind: 'task-surface', version: 1, surfaceId: 'ts1', model: { anything: true } }],
      wrong: { kind: ['action-cards', '', null], version: [2, '1', null], surfaceId: badId, model: [] },
      strict: false,
    });
  });

  it("a submission's correlation is strict", () => {
    checkRow({
      name: 'correlation',
      schemas: [TaskSurfaceCorrelationSchema],
      valid: [{ version: 1, submissionId: 'sub1', callId: 'c1', surfaceId: 'ts1', values: { pick: ['a'], ok: false } }],
      wrong: { version: [2, '1', null], submissionId: badId, callId: badId, surfaceId: badId, values: ['x', [1], null, { n: Infinity }] },
      strict: true,
    });
  });
});

describe('the Task Surface model schema', () => {
  const model = { version: 1, title: 'Pick', sections: [], submit: { label: 'Send' } };

  it('a malformed model is refused with the words of each rule', () => {
    const bad = {
      ...model,
      title: ' ',
      sections: [
        { id: '', blocks: [] },
        { id: 'x'.repeat(129), blocks: [{ kind: 'table', columns: [{ id: 'c', label: 'C' }], rows: [{ c: Infinity }] }] },
      ],
      fields: [{ kind: 'choice', id: '-a', label: 'b', options: [] }],
    };
    const pattern = "must start with a letter or digit and use only letters, digits, '_', '.', ':' and '-'";
    assert.deepEqual(issues(TaskSurfaceModelV1Schema, bad), [
      { path: ['title'], message: 'must not be blank' },
      { path: ['sections', 0, 'id'], message: 'must not be empty' },
      { path: ['sections', 0, 'id'], message: pattern },
      { path: ['sections', 0, 'blocks'], message: 'must not be empty' },
      { path: ['sections', 1, 'id'], message: 'must be at most 128 characters' },
      { path: ['sections', 1, 'blocks', 0, 'rows', 0, 'c'], message: 'Invalid input' },
      { path: ['fields', 0, 'id'], message: pattern },
      { path: ['fields', 0, 'options'], message: 'must list at least one option' },
    ]);
  });

  it("a developer's JSON Schema of it carries the descriptions a model reads", () => {
    const found: Record<string, string> = {};
    const walk = (node: unknown, path: string): void => {
      if (node === null || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (typeof record.description === 'string') found[path] = record.description;
      for (const [key, value] of Object.entries(record)) if (key !== 'description') walk(value, `${path}/${key}`);
    };
    walk(z.toJSONSchema(TaskSurfaceModelV1Schema), '');
    assert.deepEqual(
      new Set(Object.values(found)),
      new Set([
        'Markdown; no HTML; images show as their alt text',
        'Each row maps column ids to cells; a missing cell is null',
        'null for a new file',
        'A multi-line box; a single-line text may not contain line breaks',
        'The user must enter something other than blanks',
        'The id of the option selected at first; omit for no selection',
        'Ids of the options selected at first',
        'Option ids, first to last; options left out follow in declared order',
      ]),
    );
  });
});

describe('the action-card tool names', () => {
  it('are the ones the model is told and calls', () => {
    assert.deepEqual([PROPOSE_ACTION, SKILL_TOOL], ['propose_action', 'skill']);
  });
});
