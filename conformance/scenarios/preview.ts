/*
 * The panel while the model writes it (issue "a read-only preview from the first streamed tokens";
 * docs/rules.md, "The preview"): the person sees the panel grow, but nothing can be answered,
 * dismissed or kept from it; a refused or cut call leaves nothing; a reload mid-stream shows nothing
 * or the completed panel, never a half panel that can be answered. The spec's rules do not move: one
 * open surface, the call concludes the turn, exactly one answer.
 */
import type { Conversation, ModelCall } from '../driver.js';
import { answer, PANEL_TITLE, panelModel, show } from '../fixtures.js';
import { expectEqual, expectThat, type Scenario } from '../scenario.js';
import { openPanel, requestCount } from './helpers.js';

/**
 * `call`, streamed: `midway` runs while its arguments are half written. A check that fails there
 * fails the scenario (`check()` after the turn), not only the model's turn.
 */
function streamed(call: ModelCall, midway: (c: Conversation) => Promise<void>, cut = false): { call: ModelCall; check(): void } {
  let failure: unknown;
  let ran = false;
  const wrapped = async (c: Conversation) => {
    ran = true;
    try {
      await midway(c);
    } catch (error) {
      failure = error;
    }
  };
  return {
    call: { ...call, streamed: { midway: wrapped, cut } },
    check() {
      expectThat(ran, 'the path streamed the call (its midway ran)');
      if (failure !== undefined) throw failure;
    },
  };
}

/** The preview is up, read-only: its title, no open surface. */
async function expectPreview(c: Conversation): Promise<void> {
  const seen = await c.preview!();
  expectEqual(seen?.title, PANEL_TITLE, "the preview's title while the call is half written");
  expectEqual(await c.active(), null, 'the open surface while the call is still being written');
}

export const previewScenarios: readonly Scenario[] = [
  {
    id: 'preview.read-only',
    spec: 'task-surface',
    requirement:
      'While the model writes show_task_surface the person sees the panel grow, read-only: a submission or dismissal made from it is refused and leaves nothing; the completed call opens the panel, answered once.',
    needs: ['preview'],
    async run(c, { id }) {
      let refused: unknown[] = [];
      const call = streamed(show(), async (person) => {
        await expectPreview(person);
        refused = [
          await person.submit({ submissionId: id('early'), values: answer() }),
          await person.dismiss({ dismissalId: id('early-dismissal') }),
        ];
      });
      c.script({ calls: [call.call] });
      const before = requestCount(c);
      await openPanel(c);
      call.check();
      // Refused: nothing is open (the Host's not-open), or the reply still runs (an AI SDK page's submission-pending).
      const [submitted, dismissed] = refused as [{ accepted: boolean }, { dismissed: boolean }];
      expectThat(
        submitted?.accepted === false && dismissed?.dismissed === false,
        `a submission and a dismissal made from the preview are refused, got ${JSON.stringify(refused)}`,
      );
      expectEqual(requestCount(c) - before, 1, 'model requests: nothing the person did mid-stream started a turn');
      expectEqual(await c.preview!(), null, 'the preview once the panel is open');
      expectEqual(
        (await c.surfaces()).map((s) => s.status),
        ['open'],
        'panels shown',
      );
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: true }, 'the answer from the completed panel');
    },
  },
  {
    id: 'preview.refused',
    spec: 'task-surface',
    requirement: 'A streamed call the parser refuses clears its preview and opens nothing; the model reads its issues as for any call.',
    needs: ['preview'],
    async run(c) {
      // Refused only at its end: an unknown key after the submit label.
      const model = { ...(panelModel() as Record<string, unknown>), colour: 'red' };
      const call = streamed({ tool: 'show_task_surface', input: { model } }, expectPreview);
      c.script({ calls: [call.call] }, { text: 'Sorry.' });
      await c.say('Help me plan a trip');
      call.check();
      const read = c.calls().find((r) => r.tool === 'show_task_surface');
      expectThat(read?.ok === false && read.text.includes('"colour"'), `the model reads the refusal, got ${JSON.stringify(read)}`);
      expectEqual(await c.preview!(), null, 'the preview after the refusal');
      expectEqual(await c.active(), null, 'the open surface');
      expectEqual(await c.surfaces(), [], 'panels shown');
    },
  },
  {
    id: 'preview.cut',
    spec: 'task-surface',
    requirement: 'A turn that fails or is cancelled while the call streams leaves nothing: no preview, no panel, nothing to answer.',
    needs: ['preview'],
    async run(c, { id }) {
      const call = streamed(show(), expectPreview, true);
      c.script({ calls: [call.call] });
      await c.say('Help me plan a trip');
      call.check();
      expectEqual(await c.preview!(), null, 'the preview after the cut turn');
      expectEqual(await c.active(), null, 'the open surface');
      expectEqual(await c.surfaces(), [], 'panels shown');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: false, reason: 'not-open' }, 'an answer');
    },
  },
  {
    id: 'preview.reload',
    spec: 'task-surface',
    requirement:
      'A reload while the call streams shows nothing or the read-only preview, never a half panel that can be answered; once the call is complete the page shows the whole panel.',
    needs: ['preview'],
    async run(c, { id }) {
      let after: unknown[] = [];
      const call = streamed(show(), async (person) => {
        await person.reload();
        const seen = await person.preview!();
        expectThat(seen === null || seen.title === PANEL_TITLE, `after a reload: nothing or the preview, got ${JSON.stringify(seen)}`);
        const early = await person.submit({ submissionId: id('early'), values: answer() });
        after = [await person.active(), early.accepted];
      });
      c.script({ calls: [call.call] });
      await c.say('Help me plan a trip');
      call.check();
      expectEqual(after, [null, false], 'the open surface, and whether an answer was taken, after a reload mid-stream');
      await c.reload(); // a page that reloaded mid-reply reads the completed call
      expectEqual((await c.active())?.title, PANEL_TITLE, 'the panel once the call is complete');
      expectEqual(await c.submit({ submissionId: id('sub'), values: answer() }), { accepted: true }, 'the answer from the completed panel');
    },
  },
];
