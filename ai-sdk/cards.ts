/*
 * `foldActionCards`: the Host's card fold (host/actionCards/projection.ts) over an app's messages,
 * and the status notice (host/actionCards/notice.ts) for the decisions no notice part reported yet.
 */
import type { UIMessage } from 'ai';
import { buildNotice } from '../host/actionCards/notice.js';
import { cardsView, foldCards, type CardsState } from '../host/actionCards/projection.js';
import { KindRegistry } from '../host/actionCards/registry.js';
import type { CardKind } from '../host/types.js';
import type { ActionCardsView, CardDecision } from '../protocol/index.js';
import { ACTION_CARDS_NOTICE_PART, noticeOf, type ActionCardsNoticeData } from './cardMessages.js';
import { taskSurfaceEvents } from './messages.js';

/** What the fold of an app's messages gives for its cards. */
export interface ActionCardsState {
  /** The view the `action-card` element reads: every proposal, and each card's latest decision (or a derived `replaced`). */
  view: ActionCardsView;
  /** The Host's card state itself, for the tools and the acts. */
  state: CardsState;
  /** Decisions no notice part has reported yet, oldest first, each with its part's `decisionId`. */
  unreported: (CardDecision & { decisionId: string })[];
}

const cache = new WeakMap<readonly UIMessage[], ActionCardsState>();

/**
 * Folds an app's `UIMessage[]` as the Host folds a session log for its cards: a successful
 * `propose_action` output is a card (a newer one replaces every unstarted earlier one), a decision
 * part records a decision, a notice part on a user message reports the decisions it names. Pure,
 * never throws, memoised per array.
 */
export function foldActionCards(messages: readonly UIMessage[]): ActionCardsState {
  const cached = cache.get(messages);
  if (cached) return cached;
  const { events, decisionOf } = taskSurfaceEvents(messages);
  const state = foldCards(events);
  const reported = new Set<string>();
  for (const message of Array.isArray(messages) ? messages : []) {
    if (message?.role !== 'user' || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) for (const id of noticeOf(part)?.decisionIds ?? []) reported.add(id);
  }
  const unreported = state.unreported
    .map((decision) => ({ ...decision, decisionId: decisionOf.get(decision.seq) ?? '' }))
    .filter((decision) => !reported.has(decision.decisionId));
  const result: ActionCardsState = { view: cardsView(state), state, unreported };
  if (Array.isArray(messages)) cache.set(messages, result);
  return result;
}

const registries = new WeakMap<readonly CardKind[], KindRegistry>();

/** The Host's kind registry for an app's kinds (one per array; a bad kind throws, as `register` does). */
export function registryOf(kinds: readonly CardKind[]): KindRegistry {
  let registry = registries.get(kinds);
  if (!registry) {
    registry = new KindRegistry();
    for (const kind of kinds) registry.register(kind);
    registries.set(kinds, registry);
  }
  return registry;
}

/**
 * The status notice for the decisions no notice reported yet, as the Host writes it (preamble, each
 * kind's guidance, the closing line, the changed cards as JSON), or undefined when there are none.
 */
export function actionCardsNotice(messages: readonly UIMessage[], kinds: readonly CardKind[]): ActionCardsNoticeData | undefined {
  const { state, unreported } = foldActionCards(messages);
  const notice = buildNotice({ ...state, unreported }, registryOf(kinds));
  if (!notice) return undefined;
  return { decisionIds: unreported.map((d) => d.decisionId), text: notice.text };
}

/**
 * `messages` with the notice added to its last message when that is a user message (the request's
 * new one) and decisions wait to be reported; otherwise `messages` itself.
 */
export function withActionCardsNotice(messages: UIMessage[], kinds: readonly CardKind[]): UIMessage[] {
  const last = messages.at(-1);
  if (last?.role !== 'user') return messages;
  const notice = actionCardsNotice(messages, kinds);
  if (!notice) return messages;
  const part = { type: ACTION_CARDS_NOTICE_PART, id: `notice-${notice.decisionIds.at(-1)}`, data: notice } as UIMessage['parts'][number];
  return [...messages.slice(0, -1), { ...last, parts: [...last.parts, part] }];
}

/**
 * For `convertToModelMessages(messages, { convertDataPart: taskSurfaceDataPart })`: a notice part
 * becomes the text the model reads; every other data part stays out of the prompt.
 */
export function taskSurfaceDataPart(part: { type: string; data?: unknown }): { type: 'text'; text: string } | undefined {
  const notice = noticeOf(part);
  return notice ? { type: 'text', text: notice.text } : undefined;
}
