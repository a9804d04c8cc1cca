/*
 * The Task Surface lifecycle (task-surface-proposal.md, "Submission contract" and "Lifecycle and
 * recovery"): open, submit once, refuse what is stale or invalid, dismiss, bypass, recover.
 */
import { answer, show } from '../fixtures.js';
import { expectEqual, expectThat, type Scenario } from '../scenario.js';
import { notOffered, SHOW_FROM_CODE, TURN_CONCLUDED } from '../texts.js';
import { countInLatest, lastUserTexts, openPanel, requestCount, submissionText } from './helpers.js';

export const surfaceScenarios: readonly Scenario[] = [
  {
    id: 'surface.open',
    spec: 'task-surface',
    requirement: 'A successful show_task_surface opens the panel, tells the model its surfaceId and ends the turn.',
    differs: {
      'mcp-app':
        'an MCP host hands the tool result back to the model: the server cannot end the host’s turn, so a model that goes on gets a further request',
      'mcp-app-view':
        'an MCP host hands the tool result back to the model: the server cannot end the host’s turn, so a model that goes on gets a further request',
    },
    async run(c) {
      c.script({ calls: [show()] }, { text: 'this step must not run' });
      const before = requestCount(c);
      await openPanel(c);
      expectEqual(requestCount(c) - before, 1, 'model requests in the turn that showed the panel');
    },
  },
  {
    id: 'surface.second-in-one-response',
    spec: 'task-surface',
    requirement: 'A second show_task_surface in the same response opens nothing: the first ended the turn.',
    differs: {
      'mcp-app': 'an MCP host runs every call of a response: the server sees no turn, so a second show_task_surface opens a second panel',
      'mcp-app-view':
        'an MCP host runs every call of a response: the server sees no turn, so a second show_task_surface opens a second panel',
    },
    async run(c) {
      c.script({ calls: [show('First'), show('Second')] });
      await c.say('Two panels, please');
      expectEqual(c.calls().at(-1), { tool: 'show_task_surface', ok: false, text: TURN_CONCLUDED }, 'the second call');
      expectEqual((await c.active())?.title, 'First', 'the open panel');
      expectEqual((await c.surfaces()).length, 1, 'panels shown');
    },
  },
  {
    id: 'surface.code-mode',
    spec: 'task-surface',
    requirement: 'In a code-only profile show_task_surface is not offered, or refused from code: nothing opens.',
    needs: ['toolModes'],
    options: () => ({ toolMode: 'code' }),
    async run(c) {
      c.script({ calls: [show()] });
      await c.say('Help me plan a trip');
      const read = c.calls().at(-1);
      // A path that does not offer the tool in code mode says so; one that offers it to a program refuses the call.
      const texts = [notOffered('show_task_surface'), SHOW_FROM_CODE];
      expectThat(
        read?.ok === false && texts.includes(read.text),
        `the call in code mode is refused with one of ${JSON.stringify(texts)}, got ${JSON.stringify(read)}`,
      );
      expectEqual(await c.active(), null, 'the open panel');
    },
  },
  {
    id: 'surface.submit',
    spec: 'task-surface',
    requirement:
      "A submission becomes one visible user message in the person's language (a toggle, an empty optional field, a note) and starts the next turn; the panel closes as submitted.",
    async run(c, { options, id }) {
      await openPanel(c);
      const values = answer();
      expectEqual(await c.submit({ submissionId: id('sub'), values, note: 'Soon, please' }), { accepted: true }, 'the submission');
      const text = submissionText(options.locale, values, 'Soon, please');
      expectEqual(lastUserTexts(c).at(-1), text, "the model's next request ends with the submission's text");
      expectEqual(await c.active(), null, 'the open panel after the submission');
      expectEqual((await c.surfaces()).at(-1)?.status, 'submitted', "the panel's status");
    },
  },
  {
    id: 'surface.double-submit',
    spec: 'task-surface',
    requirement: 'A double click (the same submissionId twice at once) admits one message; another submissionId is then refused.',
    async run(c, { options, id }) {
      await openPanel(c);
      const submissionId = id('sub');
      const values = answer();
      const both = await Promise.all([c.submit({ submissionId, values }), c.submit({ submissionId, values })]);
      expectEqual(both, [{ accepted: true }, { accepted: true }], 'both answers of a double click');
      expectEqual(countInLatest(c, submissionText(options.locale, values)), 1, 'submission messages the model reads');
      expectEqual(await c.submit({ submissionId: id('sub'), values }), { accepted: false, reason: 'not-open' }, 'another submissionId');
    },
  },
  {
    id: 'surface.retry-same-ids',
    spec: 'task-surface',
    requirement: 'A retry with the same submissionId returns the first answer and calls no model again.',
    async run(c, { options, id }) {
      await openPanel(c);
      const submissionId = id('sub');
      expectEqual(await c.submit({ submissionId, values: answer() }), { accepted: true }, 'the submission');
      const requests = requestCount(c);
      expectEqual(await c.submit({ submissionId, values: answer() }), { accepted: true }, 'its retry');
      expectEqual(requestCount(c), requests, 'model requests after the retry');
      expectEqual(countInLatest(c, submissionText(options.locale, answer())), 1, 'submission messages');
    },
  },
  {
    id: 'surface.invalid',
    spec: 'task-surface',
    requirement: 'Values that do not match the persisted model are refused invalid-submission; the panel stays open.',
    async run(c, { id }) {
      const open = await openPanel(c);
      const bad = { ...answer(), place: 'moon' };
      expectEqual(
        await c.submit({ submissionId: id('sub'), values: bad }),
        { accepted: false, reason: 'invalid-submission' },
        'bad values',
      );
      expectEqual((await c.active())?.surfaceId, open.surfaceId, 'the open panel after a refusal');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: true }, 'a good answer after it');
    },
  },
  {
    id: 'surface.stale',
    spec: 'task-surface',
    requirement: 'A submission for a panel that is no longer the open one is refused stale; with none open, not-open.',
    differs: {
      'mcp-app': 'each MCP panel stands alone: with no conversation, an older panel after a dismissal is not-open, never stale',
      'mcp-app-view': 'each MCP panel stands alone: an older panel rendered again after a dismissal shows it dismissed, never stale',
    },
    async run(c, { id }) {
      const first = await openPanel(c, 'First');
      expectEqual(await c.dismiss({ dismissalId: id('dis') }), { dismissed: true }, 'the dismissal');
      const late = { submissionId: id('sub'), values: answer(), surfaceId: first.surfaceId };
      expectEqual(await c.submit(late), { accepted: false, reason: 'not-open' }, 'a submission with none open');
      await openPanel(c, 'Second');
      expectEqual(await c.submit(late), { accepted: false, reason: 'stale' }, "the first panel's submission");
    },
  },
  {
    id: 'surface.dismiss',
    spec: 'task-surface',
    requirement: 'Dismiss closes the panel without a turn; a retry with the same dismissalId answers the same.',
    async run(c, { id }) {
      await openPanel(c);
      const requests = requestCount(c);
      const dismissalId = id('dis');
      expectEqual(await c.dismiss({ dismissalId }), { dismissed: true }, 'the dismissal');
      expectEqual(await c.dismiss({ dismissalId }), { dismissed: true }, 'its retry');
      expectEqual(requestCount(c), requests, 'model requests after a dismissal');
      expectEqual((await c.surfaces()).at(-1)?.status, 'dismissed', "the panel's status");
    },
  },
  {
    id: 'surface.dismiss-then-submit',
    spec: 'task-surface',
    requirement: 'A submission that arrives after the dismissal is refused not-open and admits nothing.',
    async run(c, { id }) {
      await openPanel(c);
      await c.dismiss({ dismissalId: id('dis') });
      const requests = requestCount(c);
      expectEqual(
        await c.submit({ submissionId: id('sub'), values: answer() }),
        { accepted: false, reason: 'not-open' },
        'a late submission',
      );
      expectEqual(requestCount(c), requests, 'model requests after it');
    },
  },
  {
    id: 'surface.bypass',
    spec: 'task-surface',
    requirement: 'An ordinary message while the panel is open closes it as bypassed; a submission after it is refused not-open.',
    needs: ['conversation'],
    async run(c, { id }) {
      await openPanel(c);
      expectEqual(await c.say('Never mind, just tell me'), { accepted: true }, 'the ordinary message');
      expectEqual((await c.surfaces()).at(-1)?.status, 'bypassed', "the panel's status");
      expectEqual(
        await c.submit({ submissionId: id('sub'), values: answer() }),
        { accepted: false, reason: 'not-open' },
        'a late submission',
      );
    },
  },
  {
    id: 'surface.queue-rules',
    spec: 'task-surface',
    requirement:
      'A submission waiting in the queue cannot be edited or steered (task-surface-row); removing it discards it and the panel is editable again.',
    needs: ['queue'],
    async run(c, { id }) {
      let submitted: Promise<unknown> | undefined;
      let answers: unknown[] = [];
      let pending: unknown = 'not read';
      c.script({
        calls: [show()],
        // The show has ended the turn, which has not finished yet: the person answers at once.
        after: async (conversation) => {
          if (!conversation.queued || !conversation.updateQueue) throw new Error('a path with a queue gives queued() and updateQueue()');
          submitted = conversation.submit({ submissionId: id('sub'), values: answer() });
          let row: { itemId: string; submission: boolean } | undefined;
          for (let i = 0; i < 400 && !row; i++) {
            row = (await conversation.queued()).find((r) => r.submission);
            if (!row) await new Promise((resolve) => setTimeout(resolve, 5));
          }
          expectThat(row !== undefined, 'the submission waits in the queue behind the turn');
          answers = [
            await conversation.updateQueue({ op: 'edit', text: 'changed' }, row.itemId),
            await conversation.updateQueue({ op: 'steer' }, row.itemId),
            await conversation.updateQueue({ op: 'remove' }, row.itemId),
          ];
          pending = (await conversation.active())?.pending;
        },
      });
      await c.say('Help me plan a trip');
      await submitted;
      const refused = { ok: false, reason: 'task-surface-row' };
      expectEqual(answers, [refused, refused, { ok: true }], 'edit, steer and remove of the queued submission');
      expectEqual(pending, null, 'the panel once the row is removed: open, nothing pending');
      expectThat((await c.active()) !== null, 'the panel is still open');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: true }, 'a new submission after it');
    },
  },
  {
    id: 'surface.reload',
    spec: 'task-surface',
    requirement: 'A reload shows the same open panel, and it still submits.',
    async run(c, { id }) {
      const open = await openPanel(c);
      await c.reload();
      expectEqual((await c.active())?.surfaceId, open.surfaceId, 'the open panel after a reload');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: true }, 'a submission after it');
    },
  },
  {
    id: 'surface.restart',
    spec: 'task-surface',
    requirement: 'After a server restart the logged panel is open and editable again, and a retried submission is not doubled.',
    needs: ['restart'],
    async run(c, { options, id }) {
      const open = await openPanel(c);
      const submissionId = id('sub');
      await c.restart();
      expectEqual((await c.active())?.surfaceId, open.surfaceId, 'the open panel after a restart');
      expectEqual(await c.submit({ submissionId, values: answer() }), { accepted: true }, 'a submission after it');
      await c.restart();
      expectEqual(await c.submit({ submissionId, values: answer() }), { accepted: true }, 'its retry after another restart');
      expectEqual(countInLatest(c, submissionText(options.locale, answer())), 1, 'submission messages');
      expectThat((await c.active()) === null, 'the panel is closed');
    },
  },
];
