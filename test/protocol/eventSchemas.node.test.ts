import { describe, it } from 'node:test';
import {
  ActionCardsDecisionEventSchema,
  ActionCardsNoticeEventSchema,
  AssistantMessageEventSchema,
  SessionEventSchema,
  SessionForkedEventSchema,
  SessionOpenedEventSchema,
  SessionRewoundEventSchema,
  TaskSurfaceDismissedEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  ToolsChangedEventSchema,
  TurnEndedEventSchema,
  TurnStartedEventSchema,
  UserMessageEventSchema,
} from '../../protocol/events.js';
import { checkRow, type SchemaRow } from './fixtures/schemaTable.js';

/*
 * The session log's events, as a store checks each one when it is appended by a plugin and when it
 * is read back. Every event is strict: a valid one comes back whole, through its own schema and the
 * union, and an unknown key, a missing field or a field made wrong is refused.
 */

const badId = ['', 'a b', 7, null];
const badText = [7, null, ['x']];
const badName = ['', 7, null];
const badPrincipal = ['', 'a\u0000b', 'x'.repeat(257), 7, null];
const badCount = [-1, 1.5, '3', null];
const badJson = [Infinity, NaN, undefined, { n: Infinity }];
const badJsonObject = ['x', [1], null, { n: Infinity }];
const stamp = { seq: 1, at: 0 };
const common = { seq: [0, -1, 1.5, '1', null], at: [-1, 1.5, '0', null] };

const wrongType = (type: string): unknown[] => ['', type.toUpperCase(), `${type}s`, null];

/** A row for one event: its own schema and the union both check it. */
function row(
  schema: SchemaRow['schemas'][number],
  type: string,
  fields: Record<string, unknown>,
  wrong: Record<string, unknown[]>,
  more: { others?: Record<string, unknown>[]; optional?: string[] } = {},
): SchemaRow {
  const valid = { ...stamp, type, ...fields };
  return {
    name: type,
    schemas: [schema, SessionEventSchema],
    valid: [valid, { ...valid, seq: 12, at: 1_760_000_000_000 }, ...(more.others ?? []).map((o) => ({ ...valid, ...o }))],
    wrong: { ...common, type: wrongType(type), ...wrong },
    strict: true,
    optional: more.optional,
  };
}

const rows: SchemaRow[] = [
  row(
    UserMessageEventSchema,
    'user/message',
    { messageId: 'm1', text: '', source: { kind: 'user', rpcId: 'r1', by: 'ann' } },
    {
      messageId: badId,
      text: badText,
      source: [{ kind: 'user' }, { kind: 'agent', rpcId: 'r1' }, { kind: 'user', rpcId: 'r1', x: 1 }, 'user'],
    },
  ),
  row(
    AssistantMessageEventSchema,
    'assistant/message',
    { messageId: 'm1', turnId: 't1', text: 'Done.' },
    { messageId: badId, turnId: badId, text: badText },
  ),
  row(
    ToolCallEventSchema,
    'tool/call',
    { callId: 'c1', turnId: 't1', name: 'show_task_surface', args: { a: [1, null, 'x'] }, origin: 'model', agent: 'root' },
    {
      callId: badId,
      turnId: badId,
      name: badName,
      args: badJson,
      origin: ['user', '', null],
      agent: ['child', '', null],
    },
    {
      others: [
        { origin: 'code', agent: 'subagent', args: null },
        { origin: 'model', agent: 'subagent', args: 'x' },
      ],
    },
  ),
  row(
    ToolResultEventSchema,
    'tool/result',
    { callId: 'c1', turnId: 't1', name: 'skill', ok: true, content: 'loaded', meta: { kind: 'task-surface' } },
    { callId: badId, turnId: badId, name: badName, ok: ['true', 1, null], content: badText, meta: badJson.filter((v) => v !== undefined) },
    { others: [{ ok: false, meta: 3 }], optional: ['meta'] },
  ),
  row(
    TaskSurfaceDismissedEventSchema,
    'task-surface/dismissed',
    { callId: 'c1', surfaceId: 'ts1', dismissalId: 'd1', by: 'ann' },
    { callId: badId, surfaceId: badId, dismissalId: badId, by: badPrincipal },
    { optional: ['by'] },
  ),
  row(
    ActionCardsDecisionEventSchema,
    'action-cards/decision',
    { callId: 'c1', action: 'deploy', phase: 'approved', data: { env: 'prod' }, by: 'ann@example.com' },
    { callId: badId, action: badName, phase: badName, data: badJsonObject, by: badPrincipal },
    { optional: ['by'] },
  ),
  row(
    ActionCardsNoticeEventSchema,
    'action-cards/notice',
    { through: 3, text: 'Card c1 approved' },
    { through: [0, -1, 1.5, '3', null], text: badText },
  ),
  row(
    ToolsChangedEventSchema,
    'tools/changed',
    { added: ['propose_action'], removed: [] },
    { added: [[''], 'skill', [7], null], removed: [[''], 'skill', null] },
    { others: [{ added: [], removed: ['a', 'b'] }] },
  ),
  row(
    TurnStartedEventSchema,
    'turn/started',
    { turnId: 't2', rerunOf: 't1' },
    { turnId: badId, rerunOf: badId },
    { optional: ['rerunOf'] },
  ),
  row(
    TurnEndedEventSchema,
    'turn/ended',
    { turnId: 't1', outcome: 'completed', error: 'boom' },
    { turnId: badId, outcome: ['done', 'Completed', '', null], error: badText },
    { others: ['concluded', 'failed', 'cancelled', 'interrupted'].map((outcome) => ({ outcome })), optional: ['error'] },
  ),
  row(SessionOpenedEventSchema, 'session/opened', { owner: 'ann' }, { owner: badPrincipal }),
  row(
    SessionForkedEventSchema,
    'session/forked',
    { from: 's1', owner: 'ann', throughSeq: 4 },
    { from: badId, owner: badPrincipal, throughSeq: badCount },
    { others: [{ throughSeq: 0 }], optional: ['owner'] },
  ),
  row(SessionRewoundEventSchema, 'session/rewound', { toSeq: 0 }, { toSeq: badCount }, { others: [{ toSeq: 9 }] }),
];

describe('what a store accepts as a session event', () => {
  for (const r of rows) it(`${r.name}: passes whole, strict, and each wrong field is refused`, () => checkRow(r));
});
