/*
 * Calls that arrive together in one model response, and every configured limit: the rules that
 * drift where a path configures them (its limits, its queue) or runs calls side by side.
 */
import type { JsonValue } from '../../protocol/json.js';
import type { TaskSurfaceLimitsInput } from '../../protocol/limits.js';
import type { ModelCall } from '../driver.js';
import { answer, cardKinds, loadSkill, panelModel, propose, show } from '../fixtures.js';
import { expectEqual, expectThat, type Scenario } from '../scenario.js';
import { CARD_SHOWN, CREATE_PAGE_INVITATION, QUEUED_MORE, TURN_CONCLUDED } from '../texts.js';
import { openPanel } from './helpers.js';

/** A panel with three blocks (one a table of three rows) and four fields, about 600 bytes normalised. */
const tablePanel = (): ModelCall => {
  const model = panelModel() as { sections: { blocks: unknown[] }[] };
  model.sections[0]!.blocks.push(
    { kind: 'notice', tone: 'info', text: 'Prices change often.' },
    { kind: 'table', columns: [{ id: 'place', label: 'Place' }], rows: [{ place: 'Coast' }, { place: 'Hills' }, { place: 'Lakes' }] },
  );
  return { tool: 'show_task_surface', input: { model } as JsonValue };
};

/** Each configured model limit, set just under what the panel needs: the show is refused naming it, and nothing opens. */
function modelLimitScenarios(): Scenario[] {
  const cases: [string, TaskSurfaceLimitsInput, RegExp][] = [
    ['fields', { fields: 2 }, /at most 2 fields/],
    ['blocks', { blocks: 2 }, /at most 2 blocks/],
    ['table-rows', { tableRows: 2 }, /at most 2 rows; this one has 3/],
    ['model-bytes', { modelBytes: 300 }, /the limit is 300/],
  ];
  return cases.map(([name, limits, says]) => ({
    id: `limit.model-${name}`,
    spec: 'task-surface',
    requirement: `A configured \`${Object.keys(limits)[0]}\` below what the model needs refuses the show, naming the limit; no panel opens.`,
    options: () => ({ limits }),
    async run(c) {
      c.script({ calls: [tablePanel()] });
      await c.say('Help me plan a trip');
      const read = c.calls().at(-1);
      expectThat(
        read !== undefined && !read.ok && says.test(read.text),
        `the show under ${JSON.stringify(limits)} is refused (got ${JSON.stringify(read)})`,
      );
      expectEqual(await c.active(), null, 'the open panel');
    },
  }));
}

export const limitScenarios: readonly Scenario[] = [
  {
    id: 'together.skill-and-propose',
    spec: 'action-cards',
    requirement: 'skill and propose_action in one response: the skill counts as loaded, the card shows.',
    needs: ['cards'],
    options: () => ({ kinds: cardKinds() }),
    async run(c) {
      c.script({ calls: [loadSkill(), propose()] });
      await c.say('Keep this plan');
      expectEqual(c.calls().at(-1), { tool: 'propose_action', ok: true, text: CARD_SHOWN + CREATE_PAGE_INVITATION }, 'the proposal');
    },
  },
  {
    id: 'together.show-then-propose',
    spec: 'action-cards',
    requirement: 'show_task_surface then propose_action in one response: the panel opens, the card is refused (the turn ended).',
    needs: ['cards'],
    options: () => ({ kinds: cardKinds() }),
    async run(c) {
      c.script({ calls: [loadSkill(), show(), propose()] });
      await c.say('Plan and keep it');
      expectEqual(c.calls().at(-1), { tool: 'propose_action', ok: false, text: TURN_CONCLUDED }, 'the proposal after the show');
      expectEqual(await c.cards(), [], 'cards');
      expectThat((await c.active()) !== null, 'the panel is open');
    },
  },
  {
    id: 'together.show-then-other',
    spec: 'task-surface',
    requirement: 'Any other call after show_task_surface in the same response does not run.',
    needs: ['cards'],
    options: () => ({ kinds: cardKinds() }),
    async run(c) {
      c.script({ calls: [show(), loadSkill()] });
      await c.say('Plan it');
      expectEqual(c.calls().at(-1), { tool: 'skill', ok: false, text: TURN_CONCLUDED }, 'the call after the show');
    },
  },
  {
    id: 'limit.model-bytes-larger',
    spec: 'task-surface',
    requirement: 'A modelBytes larger than the default lets a larger model open, and it submits.',
    options: () => ({ limits: { modelBytes: 128 * 1024 } }),
    async run(c, { id }) {
      const model = panelModel() as { sections: { blocks: { text?: string }[] }[] };
      model.sections[0]!.blocks[0]!.text = 'Pick a destination. '.repeat(4_000); // about 80 KB
      c.script({ calls: [{ tool: 'show_task_surface', input: { model } as JsonValue }] });
      await c.say('Help me plan a trip');
      expectEqual(c.calls().at(-1)?.ok, true, 'an 80 KB model under a 128 KiB limit');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: true }, 'its submission');
    },
  },
  {
    id: 'limit.submission-bytes',
    spec: 'task-surface',
    requirement: 'A configured submissionBytes is the limit: an answer past it is refused invalid-submission, one under it is accepted.',
    options: () => ({ limits: { submissionBytes: 512 } }),
    async run(c, { id }) {
      await openPanel(c);
      const long = await c.submit({ submissionId: id('sub'), values: answer('x'.repeat(600)) });
      expectEqual(long, { accepted: false, reason: 'invalid-submission' }, 'a 600-character answer under a 512-byte limit');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer('x'.repeat(300)) }), { accepted: true }, 'a 300-character one');
    },
  },
  {
    id: 'limit.submission-bytes-larger',
    spec: 'task-surface',
    requirement: 'A submissionBytes larger than the default lets a longer answer through.',
    options: () => ({ limits: { submissionBytes: 65_536 } }),
    async run(c, { id }) {
      await openPanel(c);
      expectEqual(
        await c.submit({ submissionId: id('sub'), values: answer('x'.repeat(40_000)) }),
        { accepted: true },
        'a 40,000-character answer',
      );
    },
  },
  ...modelLimitScenarios(),
  {
    id: 'limit.queued-messages',
    spec: 'action-cards',
    requirement: "While queuedMessageLimit or more messages wait for later turns, propose_action is refused with the spec's text.",
    needs: ['cards', 'waiting'],
    options: () => ({ kinds: cardKinds(), queuedMessageLimit: 1 }),
    async run(c) {
      c.script(
        { calls: [loadSkill()], during: async (conversation) => void (await conversation.queue('One more thing')) },
        { calls: [propose()] },
      );
      await c.say('Keep this plan');
      expectEqual(c.calls().at(-1), { tool: 'propose_action', ok: false, text: QUEUED_MORE }, 'the proposal while a message waits');
    },
  },
  {
    id: 'limit.queue-full',
    spec: 'task-surface',
    requirement: 'Past maxQueuedMessages an ordinary message is refused queue-full.',
    needs: ['queue'],
    options: () => ({ maxQueuedMessages: 1 }),
    async run(c, { id }) {
      await openPanel(c);
      let refused: unknown;
      c.script({
        during: async (conversation) => {
          await conversation.queue('first');
          refused = await conversation.queue('second');
        },
        text: 'ok',
      });
      await c.submit({ submissionId: id('sub'), values: answer() });
      expectEqual(refused, { accepted: false, reason: 'queue-full' }, 'a message past the queue limit');
    },
  },
];
