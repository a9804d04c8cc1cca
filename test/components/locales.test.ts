import { expect, html, waitUntil } from '@open-wc/testing';
import { render, type TemplateResult } from 'lit';
import { SHIPPED_LOCALES, dirOf, langTag, loadLocale, registerLocale, strings, type Strings } from '../../components/index.js';
import '../../components/action-card/action-card.js';
import { registerShippedCardBodies } from '../../components/action-card/kinds/index.js';
import type { TaskSurfaceDock } from '../../components/dock/task-surface-dock.js';
import '../../components/dock/task-surface-dock.js';
import '../../components/toolview/task-surface-toolview.js';
import type { TaskSurfaceView } from '../../components/view/task-surface-view.js';
import '../../components/view/task-surface-view.js';
import type { CardProposal, SessionView } from '../../protocol/index.js';
import type { HostTransport, SessionListener } from '../../transport/types.js';
import { forgetDrafts } from './dockHelpers.js';
import { FakeTransport, sid } from './fakeTransport.js';
import { everyKindModel } from './models.js';

/*
 * Every shipped language, as a person reading it would meet the elements: its own words, axe
 * clean, Arabic laid out right to left (by where things are, not only by an attribute), and a
 * language a product registers itself through the public export.
 */

registerShippedCardBodies();

const card: CardProposal = {
  callId: 'c1' as CardProposal['callId'],
  action: 'schedule_follow_up',
  title: 'Follow up',
  brief: 'Check the latency next week.',
  details: { topic: 'Latency', suggestedAt: '2030-03-04T10:00:00.000Z' },
  seq: 4,
};
const cardTransport = {
  watchSession(_id: unknown, listener: SessionListener) {
    listener({
      sessionId: 's1',
      lastSeq: 5,
      readOnly: false,
      turn: 'idle',
      taskSurface: { active: null },
      queue: [],
      actionCards: { proposals: [card], decisions: {} },
    } as unknown as SessionView);
    return () => {};
  },
  actionCards: { act: () => new Promise(() => {}) },
} as unknown as HostTransport;

async function page(template: TemplateResult, lang: string): Promise<HTMLElement> {
  await loadLocale(lang); // Spanish, German, Japanese and Arabic arrive on first use
  const root = document.body.appendChild(document.createElement('main'));
  root.lang = langTag(lang);
  root.dir = dirOf(lang);
  render(html`<h1>Chat</h1>${template}`, root);
  for (let i = 0; i < 4; i++) {
    for (const el of [...root.querySelectorAll<HTMLElement>('*')]) {
      await (el as { updateComplete?: Promise<unknown> }).updateComplete;
      for (const inner of el.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? [])
        await (inner as { updateComplete?: Promise<unknown> }).updateComplete;
    }
    await new Promise((r) => setTimeout(r, 0));
  }
  return root;
}

/** The box of the text itself (not its block), so alignment shows. */
function textBox(el: Element): DOMRect {
  const range = document.createRange();
  range.selectNodeContents(el);
  return range.getBoundingClientRect();
}

describe('every shipped language', function () {
  this.timeout(60000); // each case mounts four elements and runs axe over them
  afterEach(() => {
    for (const m of document.querySelectorAll('main')) m.remove();
    forgetDrafts('loc-dock');
  });

  for (const lang of SHIPPED_LOCALES) {
    it(`reads ${lang}: the view, the row, the card and the Dock in its words, axe clean`, async () => {
      const t = new FakeTransport();
      t.open(sid('loc-dock'), 'sf-loc', everyKindModel);
      const meta = { kind: 'task-surface', version: 1, surfaceId: 'sf-x', model: everyKindModel };
      const root = await page(
        html`<task-surface-view .model=${everyKindModel} lang=${lang}></task-surface-view>
          <task-surface-toolview status="submitted" .meta=${meta} session-id="s9" .transport=${t} lang=${lang}></task-surface-toolview>
          <action-card session-id="s1" call-id="c1" .transport=${cardTransport} lang=${lang}></action-card>
          <task-surface-dock session-id="loc-dock" .transport=${t} lang=${lang}></task-surface-dock>`,
        lang,
      );
      const s = strings(lang);
      const view = root.querySelector<TaskSurfaceView>('task-surface-view')!;
      const dock = root.querySelector<TaskSurfaceDock>('task-surface-dock')!;
      await waitUntil(() => dock.state === 'editing', `dock is ${dock.state}`);
      await dock.updateComplete;
      expect(view.shadowRoot!.querySelector('.base')!.getAttribute('lang')).to.equal(langTag(lang));
      expect(view.shadowRoot!.textContent).to.contain(s.required);
      expect(root.querySelector('task-surface-toolview')!.shadowRoot!.textContent).to.contain(s.status.submitted);
      expect(root.querySelector('action-card')!.shadowRoot!.textContent).to.contain(s.card.notNow);
      expect(dock.shadowRoot!.querySelector('[part="dismiss"]')!.textContent).to.equal(s.dismiss);
      await expect(root).to.be.accessible();
    });
  }

  it('lays the Arabic panel out right to left, measured by position', async () => {
    const t = new FakeTransport();
    t.open(sid('loc-dock'), 'sf-rtl', everyKindModel);
    const root = await page(
      html`<div style="width:700px"><task-surface-view .model=${everyKindModel} lang="ar"></task-surface-view>
        <task-surface-dock session-id="loc-dock" .transport=${t} lang="ar"></task-surface-dock></div>`,
      'ar',
    );
    // The page's own direction is left to right here: the elements must not rely on it.
    root.dir = 'ltr';
    const view = root.querySelector<TaskSurfaceView>('task-surface-view')!;
    const dock = root.querySelector<TaskSurfaceDock>('task-surface-dock')!;
    await waitUntil(() => dock.state === 'editing');
    await dock.updateComplete;
    const base = view.shadowRoot!.querySelector('.base')!.getBoundingClientRect();
    const required = [...view.shadowRoot!.querySelectorAll('*')].find(
      (el) => el.childElementCount === 0 && el.textContent === strings('ar').required,
    )!;
    const box = textBox(required);
    expect(base.right - box.right, 'the required mark ends at the right edge side').to.be.below(base.width / 2);
    const submit = view.shadowRoot!.querySelector('[part="submit"]')!.getBoundingClientRect();
    expect(submit.left - base.left, 'the submit button sits on the right').to.be.above(base.width / 2 - submit.width);
    const title = dock.shadowRoot!.querySelector('.title')!.getBoundingClientRect();
    const tools = dock.shadowRoot!.querySelector('.tools')!.getBoundingClientRect();
    expect(title.left, "the Dock's title is right of its tools").to.be.above(tools.left);
    // English, the same page: the opposite sides.
    dock.lang = 'en';
    await dock.updateComplete;
    const enTitle = dock.shadowRoot!.querySelector('.title')!.getBoundingClientRect();
    const enTools = dock.shadowRoot!.querySelector('.tools')!.getBoundingClientRect();
    expect(enTitle.left).to.be.below(enTools.left);
  });

  it('takes a language a product registers through the public export, and re-renders mounted elements', async () => {
    const root = await page(html`<task-surface-view .model=${everyKindModel} lang="fr-CA"></task-surface-view>`, 'fr-CA');
    const view = root.querySelector<TaskSurfaceView>('task-surface-view')!;
    expect(view.shadowRoot!.textContent).to.contain(strings('en').required);
    const fr: Strings = { ...strings('en'), required: '(obligatoire)', yes: 'Oui', no: 'Non' };
    const dispose = registerLocale('fr', fr);
    try {
      await view.updateComplete;
      expect(view.shadowRoot!.textContent).to.contain('(obligatoire)');
      expect(view.shadowRoot!.querySelector('.base')!.getAttribute('lang')).to.equal('fr');
      await expect(root).to.be.accessible();
    } finally {
      dispose();
    }
    await view.updateComplete;
    expect(view.shadowRoot!.textContent).to.contain(strings('en').required);
  });
});
