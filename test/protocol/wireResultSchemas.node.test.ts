import { describe, it } from 'node:test';
import {
  ActResultSchema,
  ActionCardsViewSchema,
  CardDecisionSchema,
  CardProposalSchema,
  DismissResultSchema,
  GetActiveResultSchema,
  LogPageSchema,
  PendingSubmissionSchema,
  QueuedMessageSchema,
  SendMessageResultSchema,
  SessionSummarySchema,
  SessionViewSchema,
  SubmitResultSchema,
  TaskSurfaceOutcomeSchema,
  UpdateQueueResultSchema,
} from '../../protocol/wireResults.js';
import { checkRow, type SchemaRow } from './fixtures/schemaTable.js';

/*
 * The schemas a WebSocket client checks every answer and pushed view with. They are loose (a newer
 * host may add fields, and the client keeps them), so each valid example comes back whole with an
 * unknown key kept, and each field made wrong is refused.
 */

const badId = ['', 'a b', 7, null];
const badSeq = [-1, 1.5, '3', null];
const badPositive = [0, -1, 1.5, '3'];
const badText = [7, null, ['x']];
const badJsonObject = ['x', [1], null, { n: Infinity }];
const source = { kind: 'user', rpcId: 'r1' };
const pending = { submissionId: 'sub1', messageId: 'm1', phase: 'queued' };
const queued = { id: 'i1', messageId: 'm1', placement: 'queued', source, text: 'hello\nthere', preview: 'hello' };
const proposal = { callId: 'c1', action: 'deploy', title: 'Deploy', brief: 'Ship it', details: { env: 'prod' }, seq: 4 };
const decision = { callId: 'c1', action: 'deploy', phase: 'approved', data: { by: 'ann' }, seq: 5 };
const model = { version: 1, title: 'Pick', sections: [], submit: { label: 'Send' } };
const view = {
  sessionId: 's1',
  lastSeq: 0,
  readOnly: false,
  turn: 'idle',
  taskSurface: { active: null },
  queue: [],
  actionCards: { proposals: [], decisions: {} },
  streaming: { turnId: 't1', text: 'Thinking' },
  waiting: 'model',
};
const event = { seq: 1, at: 0, type: 'session/opened', owner: 'ann' };

const rows: SchemaRow[] = [
  {
    name: 'a queued message',
    schemas: [QueuedMessageSchema],
    valid: [queued, { ...queued, placement: 'steering' }],
    wrong: {
      id: badId,
      messageId: badId,
      placement: ['later', '', null],
      source: [{ kind: 'user' }, { ...source, extra: 1 }, 'user'],
      text: badText,
      preview: badText,
    },
    strict: false,
  },
  {
    name: 'a card proposal',
    schemas: [CardProposalSchema],
    valid: [proposal, { ...proposal, seq: 0 }],
    wrong: { callId: badId, action: badText, title: badText, brief: badText, details: badJsonObject, seq: badSeq },
    strict: false,
  },
  {
    name: 'a card decision',
    schemas: [CardDecisionSchema],
    valid: [decision],
    wrong: { callId: badId, action: badText, phase: badText, data: badJsonObject, seq: badSeq },
    strict: false,
  },
  {
    name: 'the action cards view',
    schemas: [ActionCardsViewSchema],
    valid: [{ proposals: [proposal], decisions: { c1: decision } }],
    wrong: { proposals: [[{ ...proposal, seq: -1 }], proposal, null], decisions: [{ c1: { ...decision, data: 1 } }, [decision], null] },
    strict: false,
  },
  {
    name: 'a pending submission',
    schemas: [PendingSubmissionSchema],
    valid: [pending, { ...pending, phase: 'claiming' }],
    wrong: { submissionId: badId, messageId: badId, phase: ['claimed', '', null] },
    strict: false,
  },
  {
    name: 'the pushed session view',
    schemas: [SessionViewSchema],
    valid: [
      view,
      {
        ...view,
        lastSeq: 9,
        readOnly: true,
        turn: 'running',
        taskSurface: { active: { callId: 'c1', surfaceId: 'ts1', pending }, since: 3 },
        queue: [queued],
        actionCards: { proposals: [proposal], decisions: { c1: decision } },
      },
      { ...view, taskSurface: { active: { callId: 'c1', surfaceId: 'ts1', pending: null, extra: true } } },
    ],
    wrong: {
      sessionId: badId,
      lastSeq: badSeq,
      readOnly: ['false', 0, null],
      turn: ['paused', '', null],
      taskSurface: [
        {},
        { active: 'ts1' },
        { active: { callId: 'c1', surfaceId: 'ts1' } },
        { active: { callId: 'c1', pending: null } },
        { active: { surfaceId: 'ts1', pending: null } },
        { active: { callId: '', surfaceId: 'ts1', pending: null } },
        { active: { callId: 'c1', surfaceId: 'ts1', pending: { ...pending, phase: 'done' } } },
        null,
      ],
      queue: [[{ ...queued, placement: 'later' }], queued, null],
      actionCards: [{ proposals: [] }, { decisions: {} }, null],
      streaming: [{ turnId: 't1' }, { text: 'x' }, { turnId: 't1', text: 'x', extra: 1 }, { turnId: '', text: 'x' }, 'x', null],
      waiting: ['user', '', true, null],
    },
    strict: false,
    optional: ['streaming', 'waiting'],
  },
  {
    name: 'a session summary',
    schemas: [SessionSummarySchema],
    valid: [{ sessionId: 's1', title: 'Plans', lastSeq: 0 }],
    wrong: { sessionId: badId, title: badText, lastSeq: badSeq },
    strict: false,
  },
  {
    name: 'a page of the log',
    schemas: [LogPageSchema],
    valid: [
      { events: [event], hasMore: true, lastSeq: 7 },
      { events: [], hasMore: false, lastSeq: 0 },
    ],
    wrong: { events: [[{ ...event, seq: 0 }], [{ ...event, extra: 1 }], event, null], hasMore: ['yes', null], lastSeq: badSeq },
    strict: false,
  },
  {
    name: 'getActive: an open surface',
    schemas: [GetActiveResultSchema],
    valid: [
      { active: true, callId: 'c1', surfaceId: 'ts1', model, pending: null },
      { active: true, callId: 'c1', surfaceId: 'ts1', model, pending },
    ],
    wrong: {
      active: ['true', null, 1],
      callId: badId,
      surfaceId: badId,
      model: [{ ...model, version: 2 }, { ...model, extra: 1 }, null],
      pending: [{ ...pending, phase: 'x' }, 'sub1'],
    },
    strict: false,
  },
  {
    name: 'getActive: none open',
    schemas: [GetActiveResultSchema],
    valid: [{ active: false, reason: 'not-open' }],
    wrong: { active: ['false', 0, null], reason: ['stale', '', null] },
    strict: false,
  },
  {
    name: 'getOutcome: open',
    schemas: [TaskSurfaceOutcomeSchema],
    valid: [
      { status: 'open', callId: 'c1', pending: null },
      { status: 'open', callId: 'c1', pending },
    ],
    wrong: { status: ['opened', '', null], callId: badId, pending: [{ ...pending, phase: 'x' }, 'sub1'] },
    strict: false,
  },
  {
    name: 'getOutcome: submitted',
    schemas: [TaskSurfaceOutcomeSchema],
    valid: [{ status: 'submitted', callId: 'c1', seq: 6, messageId: 'm1', values: { pick: ['a', 'b'], ok: true } }],
    wrong: { status: ['', null], callId: badId, seq: badPositive, messageId: badId, values: badJsonObject },
    strict: false,
  },
  ...(['dismissed', 'bypassed'] as const).map((status): SchemaRow => ({
    name: `getOutcome: ${status}`,
    schemas: [TaskSurfaceOutcomeSchema],
    valid: [{ status, callId: 'c1', seq: 1 }],
    wrong: { status: ['', null], callId: badId, seq: badPositive },
    strict: false,
  })),
  {
    name: 'getOutcome: unknown',
    schemas: [TaskSurfaceOutcomeSchema],
    valid: [{ status: 'unknown' }],
    wrong: { status: ['', 'Unknown', null] },
    strict: false,
  },
  {
    name: 'submit: accepted',
    schemas: [SubmitResultSchema],
    valid: [{ accepted: true, messageId: 'm1', phase: 'queued' }],
    wrong: { accepted: ['true', null], messageId: badId, phase: ['claiming', '', null] },
    strict: false,
  },
  {
    name: 'submit: refused',
    schemas: [SubmitResultSchema],
    valid: [
      ...['not-open', 'stale', 'invalid-submission', 'submission-pending', 'quota-exceeded', 'too-busy'].map((reason) => ({
        accepted: false,
        reason,
        message: 'why',
        retryAfterMs: 0,
      })),
      { accepted: false, reason: 'quota-exceeded', message: 'this principal sent 30 messages in the last minute', retryAfterMs: 2000 },
    ],
    wrong: { accepted: ['false', null], reason: ['queue-full', '', null], message: [1, null], retryAfterMs: [-1, 0.5, '10', null] },
    strict: false,
    optional: ['message', 'retryAfterMs'],
  },
  {
    name: 'dismiss: dismissed',
    schemas: [DismissResultSchema],
    valid: [{ dismissed: true, eventSeq: 1 }],
    wrong: { dismissed: ['true', null], eventSeq: badPositive },
    strict: false,
  },
  {
    name: 'dismiss: refused',
    schemas: [DismissResultSchema],
    valid: ['not-open', 'stale', 'submission-pending'].map((reason) => ({ dismissed: false, reason })),
    wrong: { dismissed: ['false', null], reason: ['too-busy', '', null] },
    strict: false,
  },
  {
    name: 'sendMessage: accepted',
    schemas: [SendMessageResultSchema],
    valid: [{ accepted: true, messageId: 'm1', itemId: 'i1' }],
    wrong: { accepted: ['true', null], messageId: badId, itemId: badId },
    strict: false,
  },
  {
    name: 'sendMessage: refused',
    schemas: [SendMessageResultSchema],
    valid: [
      ...['unknown-session', 'read-only', 'queue-full', 'quota-exceeded', 'too-busy'].map((reason) => ({
        accepted: false,
        reason,
        message: 'why',
        retryAfterMs: 0,
      })),
      { accepted: false, reason: 'too-busy', message: '4 sessions of this principal are running a turn', retryAfterMs: 1500 },
    ],
    wrong: { accepted: ['false', null], reason: ['stale', '', null], message: [1, null], retryAfterMs: [-1, 0.5, '10', null] },
    strict: false,
    optional: ['message', 'retryAfterMs'],
  },
  {
    name: 'updateQueue: done',
    schemas: [UpdateQueueResultSchema],
    valid: [{ ok: true }],
    wrong: { ok: ['true', 1, null] },
    strict: false,
  },
  {
    name: 'updateQueue: refused',
    schemas: [UpdateQueueResultSchema],
    valid: ['queue-item-not-found', 'task-surface-row'].map((reason) => ({ ok: false, reason })),
    wrong: { ok: ['false', 0, null], reason: ['read-only', '', null] },
    strict: false,
  },
  ...(['accepted', 'settled'] as const).map((status): SchemaRow => ({
    name: `act: ${status}`,
    schemas: [ActResultSchema],
    valid: [{ status, phase: 'approved' }],
    wrong: { status: ['', 'Accepted', null], phase: badText },
    strict: false,
  })),
  {
    name: 'act: refused',
    schemas: [ActResultSchema],
    valid: [{ status: 'refused', reason: 'closing' }],
    wrong: { status: ['', null], reason: badText },
    strict: false,
  },
  {
    name: 'act: unconfirmed',
    schemas: [ActResultSchema],
    valid: [{ status: 'unconfirmed' }],
    wrong: { status: ['', 'pending', null] },
    strict: false,
  },
];

describe('what a client accepts from a host', () => {
  for (const row of rows) it(`${row.name}: passes whole with unknown keys kept, and each wrong field is refused`, () => checkRow(row));
});
