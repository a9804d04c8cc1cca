// What the status notice says in the cases the end-to-end notice tests do not reach: guidance that is
// blank or shared, a decision of a kind this Host never registered (a restart with fewer kinds),
// reported fields that collide with the notice's own, and a decision whose card is not in the state.
// (The first mutation run over host/actionCards/notice.ts left these unpinned.)
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildNotice } from '../../host/actionCards/notice.js';
import { createCardsState, type CardsState } from '../../host/actionCards/projection.js';
import { KindRegistry } from '../../host/actionCards/registry.js';
import { NOTICE_CONTINUE, NOTICE_PREAMBLE } from '../../host/actionCards/texts.js';
import type { CardDecision, CardProposal, JsonObject } from '../../protocol/index.js';
import type { CardKind } from '../../host/types.js';
import { testKind } from './helpers.js';

function state(decisions: CardDecision[], titles: Record<string, string> = {}): CardsState {
  const s = createCardsState();
  for (const [callId, title] of Object.entries(titles)) {
    const proposal = { callId, action: 'test_action', title, brief: 'b', details: {} } as unknown as CardProposal;
    s.cards.set(callId, { proposal, turnId: 't' as never, decision: undefined, replacedAt: undefined });
  }
  s.unreported.push(...decisions);
  return s;
}

const decision = (callId: string, action: string, phase: string, seq: number, data: JsonObject = {}): CardDecision =>
  ({ callId, action, phase, seq, data }) as CardDecision;

function registry(...kinds: Partial<CardKind>[]): KindRegistry {
  const r = new KindRegistry();
  kinds.forEach((k, i) => r.register(testKind({ skill: { name: `skill-${i}`, text: 'Use it.' }, ...k })));
  return r;
}

const paragraphs = (text: string) => text.split('\n\n');

it('has no notice when nothing is unreported', () => {
  assert.equal(buildNotice(createCardsState(), registry({})), undefined);
});

it('leaves out guidance that is blank, and says shared guidance once', () => {
  const r = registry(
    { action: 'blank_kind', statusGuidance: ' \n ' },
    { action: 'first_kind', statusGuidance: '  Said once.  ' },
    { action: 'second_kind', statusGuidance: 'Said once.' },
  );
  const notice = buildNotice(
    state([decision('c1', 'blank_kind', 'done', 3), decision('c2', 'first_kind', 'done', 4), decision('c3', 'second_kind', 'done', 5)], {
      c1: 'One',
      c2: 'Two',
      c3: 'Three',
    }),
    r,
  )!;
  const parts = paragraphs(notice.text);
  assert.deepEqual(parts.slice(0, 3), [NOTICE_PREAMBLE, 'Said once.', NOTICE_CONTINUE]);
  assert.equal(parts.length, 4, 'no blank paragraph for the blank guidance');
  assert.equal(notice.through, 5);
});

it('reports a decision of a kind this Host never registered, without guidance or fields', () => {
  const notice = buildNotice(state([decision('c1', 'gone_kind', 'done', 7, { secret: 'x' })], { c1: 'Old card' }), registry({}))!;
  assert.deepEqual(paragraphs(notice.text), [
    NOTICE_PREAMBLE,
    NOTICE_CONTINUE,
    JSON.stringify([{ action: 'gone_kind', callId: 'c1', title: 'Old card', phase: 'done' }]),
  ]);
});

it('reports only the declared fields the decision has, and never lets one replace the notice’s own', () => {
  const r = registry({ action: 'test_action', reportedFields: ['phase', 'title', 'action', 'callId', 'pageId', 'missing'] });
  const notice = buildNotice(
    state(
      [
        decision('c1', 'test_action', 'created', 2, {
          phase: 'forged',
          title: 'forged',
          action: 'forged',
          callId: 'forged',
          pageId: 'p-1',
          other: 'no',
        }),
      ],
      {
        c1: 'Real title',
      },
    ),
    r,
  )!;
  assert.equal(
    paragraphs(notice.text).at(-1),
    JSON.stringify([{ action: 'test_action', callId: 'c1', title: 'Real title', phase: 'created', pageId: 'p-1' }]),
  );
});

it('names a card it has no record of with an empty title, and the newest seq as through', () => {
  const notice = buildNotice(state([decision('c9', 'test_action', 'done', 9), decision('c8', 'test_action', 'done', 4)]), registry({}))!;
  assert.equal(notice.through, 9);
  assert.equal(
    paragraphs(notice.text).at(-1),
    JSON.stringify([
      { action: 'test_action', callId: 'c9', title: '', phase: 'done' },
      { action: 'test_action', callId: 'c8', title: '', phase: 'done' },
    ]),
  );
});
