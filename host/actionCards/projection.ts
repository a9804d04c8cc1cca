import * as z from 'zod/mini';
import {
  JsonObjectSchema,
  PROPOSE_ACTION,
  SKILL_TOOL,
  type ActionCardsView,
  type CallId,
  type CardDecision,
  type CardProposal,
  type SessionEvent,
  type TurnId,
} from '../../protocol/index.js';

/*
 * The action-cards projection unit: a fold of one session's effective log. A card is a
 * `propose_action` call paired with its successful result; decisions come from
 * `action-cards/decision`; replacement is derived, never recorded; events a fork inherits
 * (seq ≤ the fork's throughSeq) create no cards.
 */

/** Arguments of a logged `propose_action` call, read leniently (the tool validated them when called). */
const LoggedProposalSchema = z.object({
  action: z.string(),
  title: z.string(),
  brief: z.string(),
  details: JsonObjectSchema,
});
const LoggedSkillSchema = z.object({ name: z.string() });

export interface CardRecord {
  proposal: CardProposal;
  turnId: TurnId;
  decision: CardDecision | undefined;
  /** seq of the newer card that replaced this unstarted one. */
  replacedAt: number | undefined;
}

interface PendingCall {
  name: string;
  seq: number;
  args: unknown;
  direct: boolean;
}

export interface CardsState {
  lastSeq: number;
  /** Events with seq ≤ this were inherited by a fork. */
  inheritedThrough: number;
  pending: Map<string, PendingCall>;
  cards: Map<string, CardRecord>;
  /** Cards with no decision and not replaced: the next card replaces exactly these. */
  unstarted: Set<string>;
  /** Skills loaded by the root agent's own model calls, per turn. */
  skillLoads: Map<string, Set<string>>;
  /** Turns that already have an accepted card. */
  cardTurns: Set<string>;
  /** Every decision with seq ≤ this has been reported in a notice. */
  noticeThrough: number;
  /** Decisions not yet reported, oldest first. */
  unreported: CardDecision[];
}

/** What one event changed, for the service to mirror into card actors. */
export type CardChange =
  | { type: 'proposed'; callId: string }
  | { type: 'decided'; callId: string; phase: string }
  | { type: 'replaced'; callId: string }
  | { type: 'reset' };

export function createCardsState(): CardsState {
  return {
    lastSeq: 0,
    inheritedThrough: 0,
    pending: new Map(),
    cards: new Map(),
    unstarted: new Set(),
    skillLoads: new Map(),
    cardTurns: new Set(),
    noticeThrough: 0,
    unreported: [],
  };
}

/** The phase a card shows: its latest decision, else derived `replaced`, else `proposed`. */
export function cardPhase(card: CardRecord): string {
  return card.decision?.phase ?? (card.replacedAt !== undefined ? 'replaced' : 'proposed');
}

/** Folds one event into `state` (in place) and says what changed. A rewind needs a full refold. */
export function foldCardsEvent(state: CardsState, event: SessionEvent): CardChange[] {
  if (event.seq <= state.lastSeq) return [];
  state.lastSeq = event.seq;
  const inherited = event.seq <= state.inheritedThrough;
  switch (event.type) {
    case 'tool/call':
      if (!inherited && (event.name === PROPOSE_ACTION || event.name === SKILL_TOOL)) {
        const direct = event.origin === 'model' && event.agent === 'root';
        state.pending.set(event.callId, { name: event.name, seq: event.seq, args: event.args, direct });
      }
      return [];
    case 'tool/result':
      return foldResult(state, event);
    case 'action-cards/decision': {
      const card = state.cards.get(event.callId);
      if (inherited || card === undefined) return [];
      const decision: CardDecision = { callId: event.callId, action: event.action, phase: event.phase, data: event.data, seq: event.seq };
      card.decision = decision;
      state.unstarted.delete(event.callId);
      state.unreported.push(decision);
      return [{ type: 'decided', callId: event.callId, phase: event.phase }];
    }
    case 'action-cards/notice':
      state.noticeThrough = Math.max(state.noticeThrough, event.through);
      state.unreported = state.unreported.filter((d) => d.seq > state.noticeThrough);
      return [];
    case 'session/forked':
      return forget(state, event.throughSeq);
    case 'session/rewound':
      return [{ type: 'reset' }];
    case 'turn/ended':
      state.skillLoads.delete(event.turnId);
      return [];
    default:
      return [];
  }
}

function foldResult(state: CardsState, event: SessionEvent & { type: 'tool/result' }): CardChange[] {
  const call = state.pending.get(event.callId);
  if (call === undefined) return [];
  state.pending.delete(event.callId);
  if (!event.ok) return [];
  if (call.name === SKILL_TOOL) {
    const args = LoggedSkillSchema.safeParse(call.args);
    if (call.direct && args.success) {
      const loads = state.skillLoads.get(event.turnId) ?? new Set<string>();
      loads.add(args.data.name);
      state.skillLoads.set(event.turnId, loads);
    }
    return [];
  }
  const args = LoggedProposalSchema.safeParse(call.args);
  if (!args.success) return [];
  const changes: CardChange[] = [];
  for (const callId of state.unstarted) {
    const card = state.cards.get(callId);
    if (card !== undefined) card.replacedAt = event.seq;
    changes.push({ type: 'replaced', callId });
  }
  state.unstarted.clear();
  const { action, title, brief, details } = args.data;
  const proposal: CardProposal = { callId: event.callId, action, title, brief, details, seq: event.seq };
  state.cards.set(event.callId, { proposal, turnId: event.turnId, decision: undefined, replacedAt: undefined });
  state.unstarted.add(event.callId);
  state.cardTurns.add(event.turnId);
  changes.push({ type: 'proposed', callId: event.callId });
  return changes;
}

/** A fork marker: everything at or before `throughSeq` was inherited and creates no cards. */
function forget(state: CardsState, throughSeq: number): CardChange[] {
  state.inheritedThrough = Math.max(state.inheritedThrough, throughSeq);
  let changed = false;
  for (const [callId, call] of state.pending) if (call.seq <= throughSeq) state.pending.delete(callId);
  for (const [callId, card] of state.cards) {
    if (card.proposal.seq <= throughSeq) {
      state.cards.delete(callId);
      state.unstarted.delete(callId);
      changed = true;
    }
  }
  state.unreported = state.unreported.filter((d) => state.cards.has(d.callId));
  state.skillLoads.clear();
  state.cardTurns.clear();
  return changed ? [{ type: 'reset' }] : [];
}

/** Folds a whole effective log. */
export function foldCards(events: Iterable<SessionEvent>): CardsState {
  const state = createCardsState();
  for (const event of events) foldCardsEvent(state, event);
  return state;
}

/** The client view `{ proposals, decisions }`; replaced cards carry a derived `replaced` decision. */
export function cardsView(state: CardsState): ActionCardsView {
  const proposals: CardProposal[] = [];
  const decisions: Record<string, CardDecision> = {};
  for (const [callId, card] of state.cards) {
    proposals.push(card.proposal);
    if (card.decision !== undefined) decisions[callId] = card.decision;
    else if (card.replacedAt !== undefined) {
      const { action } = card.proposal;
      decisions[callId] = { callId: callId as CallId, action, phase: 'replaced', data: {}, seq: card.replacedAt };
    }
  }
  return { proposals, decisions };
}
