import type { CardDecision, JsonValue } from '../../protocol/index.js';
import type { CardsState } from './projection.js';
import type { KindRegistry } from './registry.js';
import { NOTICE_CONTINUE, NOTICE_PREAMBLE } from './texts.js';

export interface CardsNotice {
  /** seq of the newest decision it reports. */
  through: number;
  text: string;
}

/**
 * The status notice for a session's unreported decisions, or undefined when there are none:
 * the preamble, each involved kind's guidance, the closing line, and a JSON array of the changed
 * cards (latest decision per card, in the order of their latest decision).
 */
export function buildNotice(state: CardsState, registry: KindRegistry): CardsNotice | undefined {
  if (state.unreported.length === 0) return undefined;
  const latest = new Map<string, CardDecision>();
  for (const decision of state.unreported) {
    latest.delete(decision.callId);
    latest.set(decision.callId, decision);
  }
  const guidance: string[] = [];
  const cards: Record<string, JsonValue>[] = [];
  for (const decision of latest.values()) {
    const kind = registry.last(decision.action);
    const text = kind?.statusGuidance?.trim();
    if (text !== undefined && text !== '' && !guidance.includes(text)) guidance.push(text);
    const title = state.cards.get(decision.callId)?.proposal.title ?? '';
    const entry: Record<string, JsonValue> = { action: decision.action, callId: decision.callId, title, phase: decision.phase };
    for (const name of kind?.reportedFields ?? []) {
      const value = decision.data[name];
      if (value !== undefined && !(name in entry)) entry[name] = value;
    }
    cards.push(entry);
  }
  const through = Math.max(...state.unreported.map((d) => d.seq));
  return { through, text: [NOTICE_PREAMBLE, ...guidance, NOTICE_CONTINUE, JSON.stringify(cards)].join('\n\n') };
}
