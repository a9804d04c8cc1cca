/*
 * Action cards (action-cards-readme.md, "Card rules" and "Model Experience"): activation by a skill,
 * one card per turn, a newer card, one decision per card, the notice on the next request.
 */
import type { Conversation } from '../driver.js';
import { CARD_SKILL, cardKinds, loadSkill, propose } from '../fixtures.js';
import { expectEqual, expectThat, type Scenario } from '../scenario.js';
import {
  notOffered,
  CARD_FROM_CODE,
  CARD_SHOWN,
  CREATE_PAGE_INVITATION,
  loadSkillFirst,
  NOTICE_CONTINUE,
  NOTICE_PREAMBLE,
  ONE_CARD_PER_TURN,
} from '../texts.js';

const withCards = () => ({ kinds: cardKinds() });
const accepted = { tool: 'propose_action', ok: true, text: CARD_SHOWN + CREATE_PAGE_INVITATION };

/** The person asks; the model loads the skill and proposes in one response; one card stands. */
async function offerCard(c: Conversation, title?: string): Promise<string> {
  c.script({ calls: [loadSkill(), propose(title)] }, { text: 'Here is the plan.' });
  await c.say('Keep this plan');
  expectEqual(c.calls().at(-1), accepted, 'the proposal');
  const card = (await c.cards()).at(-1);
  expectThat(card !== undefined && card.phase === 'proposed', 'an accepted proposal shows an unstarted card');
  return card.callId;
}

/** Messages of the latest request that carry the status notice. */
const notices = (c: Conversation) =>
  (c.requests().at(-1)?.messages ?? []).filter((m) => m.text.includes(NOTICE_PREAMBLE) && m.text.includes(NOTICE_CONTINUE));

export const cardScenarios: readonly Scenario[] = [
  {
    id: 'card.activation',
    spec: 'action-cards',
    requirement: "skill then propose_action in one response shows the card, with the spec's result text and the kind's invitation.",
    needs: ['cards'],
    options: withCards,
    async run(c) {
      await offerCard(c);
      expectEqual(c.calls().at(-2), { tool: 'skill', ok: true, text: c.calls().at(-2)?.text ?? '' }, 'the skill load succeeds');
    },
  },
  {
    id: 'card.skill-first',
    spec: 'action-cards',
    requirement: "propose_action before its kind's skill loaded in the turn is refused with the spec's text.",
    needs: ['cards'],
    options: withCards,
    async run(c) {
      c.script({ calls: [propose()] });
      await c.say('Keep this plan');
      expectEqual(c.calls().at(-1), { tool: 'propose_action', ok: false, text: loadSkillFirst(CARD_SKILL) }, 'the proposal');
      expectEqual(await c.cards(), [], 'cards');
    },
  },
  {
    id: 'card.one-per-turn',
    spec: 'action-cards',
    requirement: 'A second propose_action in the same turn is refused: "One card per turn; the earlier card stands."',
    needs: ['cards'],
    options: withCards,
    async run(c) {
      c.script({ calls: [loadSkill(), propose('First'), propose('Second')] });
      await c.say('Keep this plan');
      expectEqual(c.calls().at(-1), { tool: 'propose_action', ok: false, text: ONE_CARD_PER_TURN }, 'the second proposal');
      expectEqual((await c.cards()).length, 1, 'cards');
    },
  },
  {
    id: 'card.newer-replaces',
    spec: 'action-cards',
    requirement: 'A newer card replaces every unstarted earlier card (derived, nothing recorded); the replaced one settles unchanged.',
    needs: ['cards', 'conversation'],
    options: withCards,
    async run(c) {
      const first = await offerCard(c, 'First');
      await offerCard(c, 'Second');
      expectEqual(
        (await c.cards()).map((card) => card.phase),
        ['replaced', 'proposed'],
        'phases',
      );
      expectEqual(await c.act({ callId: first, verb: 'create' }), { status: 'settled', phase: 'replaced' }, 'acting on the replaced card');
    },
  },
  {
    id: 'card.act-once',
    spec: 'action-cards',
    requirement: 'Concurrent actions on one card share one operation: a double click records one decision.',
    needs: ['cards'],
    options: withCards,
    async run(c) {
      const callId = await offerCard(c);
      const [a, b] = await Promise.all([c.act({ callId, verb: 'create' }), c.act({ callId, verb: 'create' })]);
      expectEqual(a, b, 'both answers of a double click');
      expectEqual((await c.cards()).at(-1)?.phase, 'created', "the card's phase");
    },
  },
  {
    id: 'card.notice-next-request',
    spec: 'action-cards',
    requirement: "A decision reaches the model once, as the spec's notice on its next request; it starts no request itself.",
    needs: ['cards', 'conversation'],
    options: withCards,
    async run(c) {
      const callId = await offerCard(c);
      const requests = c.requests().length;
      await c.act({ callId, verb: 'dismiss' });
      expectEqual(c.requests().length, requests, 'model requests a decision starts');
      await c.say('Thanks');
      expectEqual(notices(c).length, 1, 'notices in the next request');
      await c.say('And now?');
      expectEqual(notices(c).length, 1, 'notices in the request after it (the same one, in the history)');
    },
  },
  {
    id: 'card.act-while-streaming',
    spec: 'action-cards',
    requirement: 'Acting on a card while the reply that proposed it is still being written records the decision once the reply is in.',
    needs: ['cards'],
    options: withCards,
    async run(c) {
      let acted: Promise<unknown> | undefined;
      c.script(
        { calls: [loadSkill(), propose()] },
        {
          // The card shows as the reply goes on: the person acts before the answer's text is written.
          during: async (conversation) => {
            const card = (await conversation.cards()).at(-1);
            expectThat(card !== undefined, 'the card shows while the reply is still being written');
            acted = conversation.act({ callId: card.callId, verb: 'create' });
          },
          text: 'You can save the plan as a page with the card below.',
        },
      );
      await c.say('Keep this plan');
      expectEqual(await acted, { status: 'accepted', phase: 'created' }, 'the act made while the reply streamed');
      expectEqual((await c.cards()).at(-1)?.phase, 'created', "the card's phase");
    },
  },
  {
    id: 'card.code-mode',
    spec: 'action-cards',
    requirement: 'In a code-only profile propose_action is not offered, or refused from code: no card.',
    needs: ['cards', 'toolModes'],
    options: () => ({ kinds: cardKinds(), toolMode: 'code' }),
    async run(c) {
      c.script({ calls: [loadSkill(), propose()] });
      await c.say('Keep this plan');
      const read = c.calls().at(-1);
      const texts = [notOffered('propose_action'), CARD_FROM_CODE];
      expectThat(
        read?.ok === false && texts.includes(read.text),
        `the proposal in code mode is refused with one of ${JSON.stringify(texts)}, got ${JSON.stringify(read)}`,
      );
      expectEqual(await c.cards(), [], 'cards');
    },
  },
  {
    id: 'card.read-only',
    spec: 'action-cards',
    requirement: 'In a read-only conversation a writing verb and Not now are refused read-only; the card stays unstarted.',
    needs: ['cards'],
    options: () => ({ kinds: cardKinds(), readOnly: true }),
    async run(c) {
      const callId = await offerCard(c);
      expectEqual(await c.act({ callId, verb: 'create' }), { status: 'refused', reason: 'read-only' }, 'a writing verb');
      expectEqual(await c.act({ callId, verb: 'dismiss' }), { status: 'refused', reason: 'read-only' }, 'Not now');
      expectEqual((await c.cards()).at(-1)?.phase, 'proposed', "the card's phase");
    },
  },
];
