import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import type { TaskSurfaceDock } from '../../components/dock/task-surface-dock.js';
import type { MessageId, TaskSurfaceModelV1 } from '../../protocol/index.js';
import { FakeTransport, sid } from './fakeTransport.js';
import { everyKindModel, maximalModel } from './models.js';
import { forgetDrafts, inDock, inState, mountDock, statusText, submitButton, viewOf } from './dockHelpers.js';

const S1 = sid('layout-s1'); // this file's own: see forgetDrafts

/** A maximal model whose description is long too: everything before the first field is as big as the limits allow. */
function bigModel(): TaskSurfaceModelV1 {
  const model = maximalModel(); // its markdown starts at '### Part n': axe checks the outline has no gap
  return {
    ...model,
    title: 'Choose what to ship this week and in which order. '.repeat(6),
    description: 'Read the numbers first. '.repeat(40),
  };
}

/** The element's box is inside the viewport and not clipped by the Dock's scrolling body. */
function inReach(dock: TaskSurfaceDock, el: Element): string | null {
  const r = el.getBoundingClientRect();
  const body = inDock(dock, '.body').getBoundingClientRect();
  if (r.height === 0) return 'has no box';
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return `outside the ${innerWidth}x${innerHeight} viewport: ${JSON.stringify(r)}`;
  if (r.top < body.top - 1 || r.bottom > body.bottom + 1)
    return `clipped by the Dock's body (${body.top}–${body.bottom}): ${r.top}–${r.bottom}`;
  return null;
}

describe('task-surface-dock: the question within reach', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
  });

  for (const [width, height, maxHeight] of [
    [1280, 800, ''],
    [320, 640, ''],
    [320, 640, '44vh'],
  ] as const) {
    it(`at ${width}x${height}${maxHeight ? ` with a ${maxHeight} Dock` : ''} the first field and Submit are in view when a maximal panel opens`, async () => {
      forgetDrafts(S1);
      await setViewport({ width, height });
      const t = new FakeTransport();
      t.open(S1, 'sf-1', bigModel());
      const el = await mountDock(t, S1);
      if (maxHeight) el.style.setProperty('--task-surface-dock-max-height', maxHeight);
      await inState(el, 'editing');
      const firstField = viewOf(el).shadowRoot!.querySelector('[part~="field"]')!;
      expect(inReach(el, firstField), 'first field').to.equal(null);
      expect(inReach(el, submitButton(el)), 'Submit').to.equal(null);
      expect(document.documentElement.scrollWidth).to.be.at.most(width);
      // The details scroll in their own labelled, focusable region.
      const context = viewOf(el).shadowRoot!.querySelector<HTMLElement>('[part~="context"]')!;
      expect(context.getAttribute('role')).to.equal('region');
      expect(context.getAttribute('aria-label')).to.equal('Details');
      expect(context.scrollHeight).to.be.greaterThan(context.clientHeight);
      await expect(el).to.be.accessible();
    });
  }

  it('the details can be hidden and shown, and Full height lets the panel grow (keyboard only)', async () => {
    forgetDrafts(S1);
    await setViewport({ width: 1280, height: 800 });
    const t = new FakeTransport();
    t.open(S1, 'sf-1', bigModel());
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    const context = viewOf(el).shadowRoot!.querySelector<HTMLElement>('[part~="context"]')!;
    const details = inDock<HTMLButtonElement>(el, '[part="details"]');
    expect([details.textContent, details.getAttribute('aria-expanded')]).to.deep.equal(['Hide details', 'true']);
    details.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(getComputedStyle(context).display).to.equal('none');
    expect([details.textContent, details.getAttribute('aria-expanded')]).to.deep.equal(['Show details', 'false']);
    await sendKeys({ press: 'Space' });
    await el.updateComplete;
    expect(getComputedStyle(context).display).to.not.equal('none');

    const size = inDock<HTMLButtonElement>(el, '[part="size"]');
    const before = inDock(el, '.body').getBoundingClientRect().height;
    const contextBefore = context.getBoundingClientRect().height;
    expect(size.getAttribute('aria-pressed')).to.equal('false');
    size.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(size.getAttribute('aria-pressed')).to.equal('true');
    expect(inDock(el, '.body').getBoundingClientRect().height).to.be.greaterThan(before);
    expect(context.getBoundingClientRect().height, 'the details are no longer bounded').to.be.greaterThan(contextBefore);
    expect(inDock(el, '.title').scrollHeight, 'the whole title shows').to.be.at.most(inDock(el, '.title').clientHeight + 1);
    t.open(S1, 'sf-2', everyKindModel); // the next surface keeps the person's choice
    await waitUntil(() => inDock(el, '.title')?.textContent === 'Pick a release plan');
    expect(inDock(el, '[part="size"]').getAttribute('aria-pressed')).to.equal('true');
  });

  it("a runaway title takes two lines, isolated from the page's direction, with the whole text kept", async () => {
    forgetDrafts(S1);
    const t = new FakeTransport();
    const title = `\u202Egnp.exe ${'long words '.repeat(400)}`;
    t.open(S1, 'sf-1', { ...everyKindModel, title });
    const el = await mountDock(t, S1);
    await inState(el, 'editing');
    const heading = inDock(el, '.title');
    expect(heading.textContent).to.equal(title);
    expect(heading.getAttribute('dir')).to.equal('auto');
    expect(getComputedStyle(heading).unicodeBidi).to.equal('isolate');
    const lineHeight = parseFloat(getComputedStyle(heading).lineHeight);
    expect(heading.getBoundingClientRect().height).to.be.at.most(lineHeight * 2 + 1);
  });
});

describe('task-surface-dock: region, collapse and edge', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
    await emulateMedia({ colorScheme: 'light' });
  });

  it('its region is named "Task: <title>" in both languages', async () => {
    forgetDrafts(S1);
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel);
    const en = await mountDock(t, S1);
    await inState(en, 'editing');
    expect(inDock(en, 'section[part="base"]').getAttribute('aria-label')).to.equal('Task: Pick a release plan');
    const zh = await mountDock(t, S1, { lang: 'zh' });
    await inState(zh, 'editing');
    expect(inDock(zh, 'section[part="base"]').getAttribute('aria-label')).to.equal('任务：Pick a release plan');
  });

  it('a collapsed Dock says that an answer is waiting (and, once sent, that it is on its way)', async () => {
    forgetDrafts(S1);
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel);
    const el = await mountDock(t, S1, { lang: 'zh' });
    await inState(el, 'editing');
    expect(statusText(el)).to.equal('');
    inDock(el, '[part="collapse"]').click();
    await el.updateComplete;
    expect(statusText(el)).to.equal('助手正在等待你的回答。');
    el.lang = 'en';
    await el.updateComplete;
    expect(statusText(el)).to.equal('The agent is waiting for your answer.');
    expect(inDock(el, '[part="status"]').getBoundingClientRect().height).to.be.greaterThan(0);
  });

  it("has a visible edge in the dark theme, where its background is the page's", async () => {
    forgetDrafts(S1);
    await emulateMedia({ colorScheme: 'dark' });
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel);
    const el = await fixture<TaskSurfaceDock>(html`<task-surface-dock session-id=${S1} .transport=${t}></task-surface-dock>`);
    await inState(el, 'editing');
    const base = getComputedStyle(inDock(el, '.base'));
    expect(base.backgroundColor).to.equal('rgb(13, 17, 23)');
    expect(base.borderTopColor).to.equal('rgb(110, 118, 129)');
    expect(base.borderTopWidth).to.equal('1px');
    el.style.setProperty('--task-surface-dock-edge', 'rgb(255, 0, 0)');
    expect(getComputedStyle(inDock(el, '.base')).borderTopColor).to.equal('rgb(255, 0, 0)');
  });
});

describe('task-surface-dock accessibility in every state', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 });
  });

  /** Brings a Dock to `state` over a FakeTransport. */
  async function dockIn(state: string, theme: string, lang: string) {
    forgetDrafts(S1);
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel);
    const el = await mountDock(t, S1, { theme, lang });
    await inState(el, 'editing');
    if (state === 'pending') {
      t.onSubmit = async () => ({ accepted: true, messageId: 'm' as MessageId, phase: 'queued' as const });
      viewOf(el).values = { ...viewOf(el).currentValues, name: 'v2' };
      submitButton(el).click();
      await inState(el, 'pending');
      t.setPending(S1, { submissionId: t.calls.submit[0]!.submissionId, messageId: 'm' as MessageId, phase: 'queued' });
    } else if (state === 'rejected') {
      t.onSubmit = async () => ({ accepted: false, reason: 'stale' });
      viewOf(el).values = { ...viewOf(el).currentValues, name: 'v2' };
      submitButton(el).click();
      await inState(el, 'rejected');
    } else if (state === 'collapsed') {
      inDock(el, '[part="collapse"]').click();
    } else if (state === 'note') {
      inDock(el, '[part="note-toggle"]').click();
    }
    await el.updateComplete;
    return el;
  }

  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'zh']) {
      it(`axe finds nothing at 320 px while pending, rejected, collapsed and with the note open (${theme}, ${lang})`, async () => {
        await setViewport({ width: 320, height: 640 });
        for (const state of ['pending', 'rejected', 'collapsed', 'note']) {
          const el = await dockIn(state, theme, lang);
          expect(el.getBoundingClientRect().width).to.be.at.most(320);
          await expect(el, `${state}`).to.be.accessible();
          el.remove();
        }
      });
    }
  }
});
