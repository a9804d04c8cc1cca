// The action-cards fold, event by event: what each event changes and what it reports to the views
// (an empty list means "nothing to redraw"). Forks, rewinds, replayed and inherited events, failed
// and malformed results, notices and turn ends. (The first mutation run over
// host/actionCards/projection.ts left these unpinned: the card tests go through whole turns.)
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCardsState, foldCardsEvent, type CardsState } from '../../host/actionCards/projection.js';
import type { SessionEvent } from '../../protocol/index.js';

const ARGS = { action: 'create_page', title: 'Save as a page', brief: 'Saves it.', details: { pageTitle: 'P' } };
const call = (seq: number, callId: string, name = 'propose_action', args: unknown = ARGS, turnId = 't1', agent = 'root') =>
  ({ type: 'tool/call', seq, at: 0, callId, name, args, origin: 'model', agent, turnId }) as unknown as SessionEvent;
const result = (seq: number, callId: string, ok = true, turnId = 't1') =>
  ({ type: 'tool/result', seq, at: 0, callId, ok, content: 'ok', turnId }) as unknown as SessionEvent;
const decision = (seq: number, callId: string, phase = 'creating') =>
  ({ type: 'action-cards/decision', seq, at: 0, callId, action: 'create_page', phase, data: {} }) as unknown as SessionEvent;
const other = (seq: number, type: string, rest: object = {}) => ({ type, seq, at: 0, ...rest }) as unknown as SessionEvent;

function fold(state: CardsState, ...events: SessionEvent[]) {
  return events.map((e) => foldCardsEvent(state, e));
}

it('proposes a card from a successful propose_action result, and replaces the unstarted one before it', () => {
  const state = createCardsState();
  assert.deepEqual(fold(state, call(1, 'c1'), result(2, 'c1')), [[], [{ type: 'proposed', callId: 'c1' }]]);
  assert.deepEqual(fold(state, call(3, 'c2'), result(4, 'c2')), [
    [],
    [
      { type: 'replaced', callId: 'c1' },
      { type: 'proposed', callId: 'c2' },
    ],
  ]);
  assert.equal(state.cards.get('c1')!.replacedAt, 4);
  assert.deepEqual([...state.unstarted], ['c2']);
  assert.deepEqual([...state.cardTurns], ['t1']);
});

it('ignores an event at or before the last folded seq (a replay)', () => {
  const state = createCardsState();
  fold(state, call(1, 'c1'), result(2, 'c1'));
  assert.deepEqual(fold(state, decision(2, 'c1'), decision(1, 'c1')), [[], []]);
  assert.equal(state.cards.get('c1')!.decision, undefined);
  assert.deepEqual(state.unreported, []);
});

it('makes no card from a failed result, a malformed logged proposal, or a result without its call', () => {
  const state = createCardsState();
  assert.deepEqual(fold(state, call(1, 'c1'), result(2, 'c1', false), result(3, 'c1')), [[], [], []]);
  assert.deepEqual(fold(state, call(4, 'c2', 'propose_action', { action: 'create_page' }), result(5, 'c2')), [[], []]);
  assert.deepEqual(fold(state, result(6, 'c9')), [[]]);
  assert.deepEqual(fold(state, call(7, 'c3', 'search'), result(8, 'c3')), [[], []]);
  assert.equal(state.cards.size, 0);
  assert.deepEqual(state.pending.size, 0);
});

it('records a decision of a known card, reports it until a notice covers it, and ignores one for no card', () => {
  const state = createCardsState();
  fold(state, call(1, 'c1'), result(2, 'c1'));
  assert.deepEqual(fold(state, decision(3, 'c1'), decision(4, 'nope')), [[{ type: 'decided', callId: 'c1', phase: 'creating' }], []]);
  assert.deepEqual([...state.unstarted], []);
  fold(state, decision(5, 'c1', 'created'));
  assert.deepEqual(
    state.unreported.map((d) => d.seq),
    [3, 5],
  );
  assert.deepEqual(fold(state, other(6, 'action-cards/notice', { through: 3, text: 'n' })), [[]]);
  assert.deepEqual(
    state.unreported.map((d) => d.seq),
    [5],
  );
  fold(state, other(7, 'action-cards/notice', { through: 1, text: 'n' }));
  assert.equal(state.noticeThrough, 3, 'an older notice does not move it back');
});

it('counts a skill loaded by the root agent’s own direct call for its turn, until the turn ends', () => {
  const state = createCardsState();
  assert.deepEqual(fold(state, call(1, 's1', 'skill', { name: 'create-page' }), result(2, 's1')), [[], []]);
  fold(state, call(3, 's2', 'skill', { name: 'by-subagent' }, 't1', 'subagent'), result(4, 's2'));
  fold(state, call(5, 's3', 'skill', { name: 7 }), result(6, 's3'));
  assert.deepEqual([...state.skillLoads.get('t1')!], ['create-page']);
  assert.deepEqual(fold(state, other(7, 'turn/ended', { turnId: 't1' })), [[]]);
  assert.equal(state.skillLoads.has('t1'), false);
});

it('a rewind asks for a refold; other events change nothing', () => {
  assert.deepEqual(fold(createCardsState(), other(1, 'session/rewound', { toSeq: 0 })), [[{ type: 'reset' }]]);
  assert.deepEqual(fold(createCardsState(), other(1, 'user/message', { text: 'hi' }), other(2, 'turn/started')), [[], []]);
});

it('a fork marker forgets what it inherited: cards, calls still pending, decisions, skill loads and card turns', () => {
  const state = createCardsState();
  fold(state, call(1, 'c1'), result(2, 'c1'), decision(3, 'c1'), call(4, 's1', 'skill', { name: 'create-page' }), call(5, 'c2'));
  assert.deepEqual(fold(state, other(6, 'session/forked', { throughSeq: 5 })), [[{ type: 'reset' }]]);
  assert.equal(state.cards.size, 0);
  assert.equal(state.pending.size, 0, 'calls at or before the fork are forgotten');
  assert.deepEqual(state.unreported, []);
  assert.equal(state.cardTurns.size, 0);
  assert.deepEqual(fold(state, result(7, 'c2')), [[]], 'an inherited call’s result makes no card');
  // A second marker with an older throughSeq does not shrink what was inherited.
  assert.deepEqual(fold(state, other(8, 'session/forked', { throughSeq: 2 })), [[]]);
  assert.equal(state.inheritedThrough, 5);
});

it('a fork keeps what came after its throughSeq, and reports nothing when it forgot no card', () => {
  const state = createCardsState();
  state.inheritedThrough = 0;
  fold(state, call(1, 'c1'), result(2, 'c1'), decision(3, 'c1'), call(4, 'c2'));
  assert.deepEqual(fold(state, other(5, 'session/forked', { throughSeq: 1 })), [[]]);
  assert.deepEqual([...state.cards.keys()], ['c1']);
  assert.deepEqual([...state.pending.keys()], ['c2']);
  assert.deepEqual(
    state.unreported.map((d) => d.seq),
    [3],
    'a decision of a kept card stays unreported',
  );
  assert.deepEqual(fold(state, decision(6, 'c1', 'created')), [[{ type: 'decided', callId: 'c1', phase: 'created' }]]);
  // A card whose result is the fork's throughSeq itself was inherited.
  assert.deepEqual(fold(state, other(7, 'session/forked', { throughSeq: 2 })), [[{ type: 'reset' }]]);
  assert.equal(state.cards.size, 0);
});

it('events inherited by a fork (seq at or before its throughSeq) create no card and no decision', () => {
  const state = createCardsState();
  state.inheritedThrough = 10;
  assert.deepEqual(fold(state, call(1, 'c1'), result(2, 'c1'), decision(3, 'c1')), [[], [], []]);
  assert.equal(state.cards.size, 0);
  assert.equal(state.pending.size, 0);
  state.cards.set('c9', { proposal: { callId: 'c9' } as never, turnId: 't1' as never, decision: undefined, replacedAt: undefined });
  assert.deepEqual(fold(state, decision(10, 'c9')), [[]], 'a decision at the throughSeq itself is inherited');
  assert.deepEqual(fold(state, call(11, 'c2'), result(12, 'c2')), [[], [{ type: 'proposed', callId: 'c2' }]]);
});
