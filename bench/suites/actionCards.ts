// The action-cards fold on a long session: 200 turns, each loading a skill, proposing a card and
// recording two decisions, with a notice every turn (2,000 events). foldCards + cardsView, against
// JSON.parse of the same log (what reading it back from a store costs at least), warm medians.
import { cardsView, foldCards } from '../../host/actionCards/index.js';
import type { NewSessionEvent, SessionEvent } from '../../protocol/index.js';
import { compare } from '../stats.js';

function longLog(turns: number): SessionEvent[] {
  const log: SessionEvent[] = [];
  const add = (event: NewSessionEvent) => void log.push({ ...event, seq: log.length + 1, at: log.length } as SessionEvent);
  for (let t = 0; t < turns; t++) {
    const turnId = `turn-${t}` as never;
    const skill = `skill-${t}` as never;
    const card = `card-${t}` as never;
    add({ type: 'turn/started', turnId });
    add({ type: 'tool/call', callId: skill, turnId, name: 'skill', args: { name: 'create-page' }, origin: 'model', agent: 'root' });
    add({ type: 'tool/result', callId: skill, turnId, name: 'skill', ok: true, content: 'skill text' });
    const args = {
      action: 'create_page',
      title: `Card ${t}`,
      brief: 'Keeps it.',
      details: { pageTitle: `Page ${t}`, sections: ['A', 'B'] },
    };
    add({ type: 'tool/call', callId: card, turnId, name: 'propose_action', args, origin: 'model', agent: 'root' });
    add({ type: 'tool/result', callId: card, turnId, name: 'propose_action', ok: true, content: 'Card shown below your answer.' });
    add({ type: 'turn/ended', turnId, outcome: 'completed' });
    add({ type: 'action-cards/decision', callId: card, action: 'create_page', phase: 'creating', data: {} });
    add({
      type: 'action-cards/decision',
      callId: card,
      action: 'create_page',
      phase: 'created',
      data: { pageId: `p${t}`, url: `/p/${t}` },
    });
    add({ type: 'action-cards/notice', through: log.length, text: 'notice' });
    add({ type: 'user/message', messageId: `m-${t}` as never, text: 'next', source: { kind: 'user', rpcId: `r-${t}` as never } });
  }
  return log;
}

export default {
  title: 'Action-cards fold (200 cards, 2,000 events): foldCards + cardsView',
  async run() {
    const log = longLog(200);
    const text = JSON.stringify(log);
    let sink = 0;
    const { subject, baseline, ratio } = compare(
      () => {
        sink += cardsView(foldCards(log)).proposals.length;
      },
      () => {
        sink += (JSON.parse(text) as unknown[]).length;
      },
      200,
      50,
    );
    console.log(`${log.length} events; JSON.parse of the log ${baseline.toFixed(3)} ms; fold + view ${subject.toFixed(3)} ms`);
    console.log(`ratio (fold + view) / JSON.parse: ${ratio.toFixed(2)} (aim ≤ 1)${sink < 0 ? '' : ''}`);
  },
};
