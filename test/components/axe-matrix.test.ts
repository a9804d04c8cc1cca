import { expect, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { render, type TemplateResult } from 'lit';
import '../../components/action-card/action-card.js';
import type { ActionCard } from '../../components/action-card/action-card.js';
import { registerShippedCardBodies } from '../../components/action-card/kinds/index.js';
import '../../components/markdown/task-surface-markdown.js';
import '../../components/toolview/task-surface-toolview.js';
import '../../components/view/task-surface-view.js';
import type { CardDecision, CardProposal, SessionView, TaskSurfaceModelV1 } from '../../protocol/index.js';
import type { HostTransport, SessionListener } from '../../transport/types.js';
import { FakeTransport, sid } from './fakeTransport.js';
import { everyKindModel } from './models.js';

/*
 * axe on every read-side element, in both themes and both languages, at 320 px, each inside a page
 * with an h1 (so heading order is checked as a page would have it), in its states: editing, the
 * replay, a paged and a too-large diff, the open and closed transcript row, a proposed, refused
 * and dismissed card, and markdown.
 */

registerShippedCardBodies();

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join('\n') + '\n';
const busyModel: TaskSurfaceModelV1 = {
  ...everyKindModel,
  sections: [
    ...everyKindModel.sections,
    {
      id: 'big',
      title: 'Big',
      blocks: [
        { kind: 'diff', path: 'a\u202Eb.txt', before: lines(3000, 'old'), after: lines(3000, 'new') },
        { kind: 'diff', path: 'new.txt', before: null, after: lines(300, 'line') },
        { kind: 'table', columns: [{ id: 'n', label: 'N' }], rows: Array.from({ length: 60 }, (_, i) => ({ n: i })) },
      ],
    },
  ],
};
const card: CardProposal = {
  callId: 'c1' as CardProposal['callId'],
  action: 'create_page',
  title: 'Save as a page',
  brief: 'Keeps this plan as a page.',
  details: { pageTitle: 'Plan', sections: ['One', 'Two'] },
  seq: 4,
};

function cardTransport(decisions: Record<string, CardDecision> = {}, hang = false): HostTransport {
  const view = {
    sessionId: 's1',
    lastSeq: 10,
    readOnly: false,
    turn: 'idle',
    taskSurface: { active: null },
    queue: [],
    actionCards: { proposals: [card], decisions },
  } as unknown as SessionView;
  return {
    watchSession(_id: unknown, listener: SessionListener) {
      listener(view);
      return () => {};
    },
    actionCards: { act: () => (hang ? new Promise(() => {}) : Promise.resolve({ status: 'refused', reason: 'read-only' })) },
  } as unknown as HostTransport;
}

/** A page part: an h1 and the element, mounted without `fixture` (it waits a frame per non-Lit root). */
async function page(template: TemplateResult, lang: string, theme: string): Promise<HTMLElement> {
  const root = document.body.appendChild(document.createElement('main'));
  root.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  root.style.cssText = theme === 'dark' ? 'background:#0d1117;color:#e6edf3' : 'background:#fff;color:#1f2328';
  render(html`<h1>Chat</h1>${template}`, root);
  for (const el of root.querySelectorAll<HTMLElement & { updateComplete?: Promise<unknown> }>('*')) await el.updateComplete;
  await new Promise((r) => setTimeout(r, 0));
  return root;
}

async function settleDeep(root: HTMLElement): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const all = [root, ...root.querySelectorAll<HTMLElement>('*')];
    for (const el of all) {
      await (el as { updateComplete?: Promise<unknown> }).updateComplete;
      for (const inner of el.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? [])
        await (inner as { updateComplete?: Promise<unknown> }).updateComplete;
    }
    await new Promise((r) => setTimeout(r, 0));
  }
}

describe('axe: every read-side element, both themes, both languages, 320 px', () => {
  before(() => setViewport({ width: 320, height: 640 }));
  after(() => setViewport({ width: 800, height: 600 }));
  afterEach(() => {
    for (const m of document.querySelectorAll('main')) m.remove();
  });

  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'zh']) {
      const name = `${theme}, ${lang}`;

      it(`task-surface-view, editing and replay, big blocks expanded (${name})`, async () => {
        const root = await page(
          html`<task-surface-view .model=${busyModel} lang=${lang} theme=${theme}></task-surface-view>
          <task-surface-view readonly .model=${everyKindModel} .values=${{ name: 'x', targets: [], notify: true, steps: ['test', 'build', 'deploy'] }}
            lang=${lang} theme=${theme}></task-surface-view>`,
          lang,
          theme,
        );
        const view = root.querySelector('task-surface-view')!;
        for (const button of view.shadowRoot!.querySelectorAll<HTMLButtonElement>('.table-more button')) button.click();
        await settleDeep(root);
        expect(root.scrollWidth).to.be.at.most(320);
        await expect(root).to.be.accessible();
      });

      it(`task-surface-toolview, open and replayed (${name})`, async () => {
        const t = new FakeTransport();
        t.open(sid('s1'), 'sf-1', everyKindModel);
        const meta = { kind: 'task-surface', version: 1, surfaceId: 'sf-1', model: everyKindModel };
        const root = await page(
          html`<task-surface-toolview .meta=${meta} session-id="s1" .transport=${t} lang=${lang} theme=${theme}></task-surface-toolview>
          <task-surface-toolview status="submitted" .meta=${{ ...meta, surfaceId: 'sf-2' }} session-id="s1" .transport=${t} lang=${lang} theme=${theme}></task-surface-toolview>`,
          lang,
          theme,
        );
        const [open, closed] = root.querySelectorAll('task-surface-toolview');
        await settleDeep(root);
        expect(open!.shadowRoot!.querySelector('.pointer')).to.not.equal(null);
        closed!.shadowRoot!.querySelector<HTMLButtonElement>('button.toggle')!.click();
        await settleDeep(root);
        await expect(root).to.be.accessible();
      });

      it(`action-card, refused, working and dismissed (${name})`, async () => {
        const dismissed = { c1: { callId: 'c1', action: 'create_page', phase: 'dismissed', data: {}, seq: 20 } as unknown as CardDecision };
        const root = await page(
          html`<action-card session-id="s1" call-id="c1" .transport=${cardTransport()} lang=${lang} theme=${theme}></action-card>
          <action-card session-id="s1" call-id="c1" .transport=${cardTransport(dismissed)} lang=${lang} theme=${theme}></action-card>
          <action-card session-id="s1" call-id="c1" .transport=${cardTransport({}, true)} lang=${lang} theme=${theme}></action-card>`,
          lang,
          theme,
        );
        const [proposed, , working] = root.querySelectorAll<ActionCard>('action-card');
        void working!.act('create');
        await proposed!.act('create');
        await settleDeep(root);
        expect(proposed!.shadowRoot!.querySelector('[role="alert"]')).to.not.equal(null);
        expect(working!.shadowRoot!.querySelector('[part="process"]')!.textContent).to.contain(lang === 'zh' ? '处理中' : 'Working');
        await expect(root).to.be.accessible();
      });

      it(`task-surface-markdown (${name})`, async () => {
        const root = await page(
          html`<task-surface-markdown theme=${theme}
          .text=${'## Plan\n\nText with a [link](https://example.com), `code` and ![an image](https://example.com/x.png).\n\n- a\n- b\n\n> quote\n\n| h |\n|---|\n| c |'}></task-surface-markdown>`,
          lang,
          theme,
        );
        await expect(root).to.be.accessible();
      });
    }
  }
});
