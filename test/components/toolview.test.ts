import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { render } from 'lit';
import type { CallId, MessageId, TaskSurfaceModelV1 } from '../../protocol/index.js';
import type { TaskSurfaceToolview } from '../../components/toolview/task-surface-toolview.js';
import '../../components/toolview/task-surface-toolview.js';
import type { HostTransport } from '../../transport/types.js';
import { FakeTransport, sid } from './fakeTransport.js';
import { everyKindModel } from './models.js';
import { onPage } from '../browser/onPage.js';

const S1 = sid('s1');
const meta = (model: unknown = everyKindModel, extra: Record<string, unknown> = {}) => ({
  kind: 'task-surface',
  version: 1,
  surfaceId: 'sf-1',
  model,
  ...extra,
});
const PLAIN = 'Showed the task "Pick a release plan". If the panel is not visible, answer with an ordinary message.';

async function row(
  transport: HostTransport | undefined,
  m: unknown = meta(),
  attrs: { name?: string; lang?: string; theme?: string } = {},
) {
  return fixture<TaskSurfaceToolview>(html`<task-surface-toolview name=${attrs.name ?? 'show_task_surface'} .content=${PLAIN} .meta=${m}
    session-id="s1" .transport=${transport} lang=${attrs.lang ?? 'en'} theme=${attrs.theme ?? 'light'}></task-surface-toolview>`);
}
const q = (el: TaskSurfaceToolview, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);
const statusOf = (el: TaskSurfaceToolview) => q(el, '.status')?.textContent ?? '';

const CALL = 'call-sf-1' as CallId;

describe('task-surface-toolview', () => {
  it('falls back to the plain result text without a transport, for another version, malformed meta or another tool', async () => {
    const t = new FakeTransport();
    const cases: [HostTransport | undefined, unknown, string?][] = [
      [undefined, meta()],
      [t, meta({ ...everyKindModel, version: 2 })],
      [t, meta(everyKindModel, { version: 2 })],
      [t, { kind: 'task-surface' }],
      [t, meta({ ...everyKindModel, sections: [{ id: 'x', blocks: [{ kind: 'chart', data: [] }] }] })],
      [t, 'not an object'],
      [t, meta(), 'other_tool'],
    ];
    for (const [transport, m, name] of cases) {
      const el = await row(transport, m, name ? { name } : {});
      expect(q(el, '.fallback')?.textContent, JSON.stringify(m)).to.equal(PLAIN);
      expect(q(el, 'task-surface-view')?.outerHTML ?? null, 'no partial render').to.equal(null);
    }
  });

  it('says open while the projection has this surface, then submitted with a read-only replay of the values', async () => {
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel as TaskSurfaceModelV1);
    const el = await row(t);
    await waitUntil(() => statusOf(el).endsWith('Open'));
    expect(statusOf(el)).to.equal('Status: Open');
    expect(q(el, '.title')!.textContent).to.equal('Pick a release plan');
    t.outcomes.set('sf-1', { status: 'submitted', callId: CALL, seq: 4, messageId: 'm4' as MessageId, values: { name: 'v9', plan: 'b' } });
    t.close(S1);
    await waitUntil(() => statusOf(el).endsWith('Submitted'));
    expect(t.calls.getOutcome, 'one read, of this surface').to.deep.equal([{ sessionId: S1, surfaceId: 'sf-1' }]);
    expect(t.calls.readLog, 'the log is never scanned').to.equal(0);
    await waitUntil(() => q(el, 'button.toggle') !== null);
    const toggle = q(el, 'button.toggle')!;
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    toggle.click();
    await el.updateComplete;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    const view = q(el, 'task-surface-view')!;
    await (view as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(view.hasAttribute('readonly')).to.equal(true);
    expect(view.shadowRoot!.querySelectorAll('input, textarea, [role="radio"], button[part="submit"]').length, 'never an editor').to.equal(
      0,
    );
    expect(view.shadowRoot!.textContent).to.contain('v9');
    expect(view.getAttribute('exportparts'), 'the page can style the replay').to.contain('base:view-base');
  });

  it('shows dismissed, bypassed and closed as the Host records them', async () => {
    const t = new FakeTransport();
    t.outcomes.set('sf-1', { status: 'dismissed', callId: CALL, seq: 4 });
    const dismissed = await row(t);
    await waitUntil(() => statusOf(dismissed).endsWith('Dismissed'));
    const t2 = new FakeTransport();
    t2.outcomes.set('sf-1', { status: 'bypassed', callId: CALL, seq: 4 });
    const bypassed = await row(t2, meta(), { lang: 'zh' });
    await waitUntil(() => statusOf(bypassed).endsWith('已在聊天中回答'));
    const unknown = await row(new FakeTransport());
    await waitUntil(() => statusOf(unknown).endsWith('Closed'));
  });

  it('shows no status while the outcome cannot be read, and asks again on the next view', async () => {
    const t = new FakeTransport();
    t.outcomes.set('sf-1', { status: 'dismissed', callId: CALL, seq: 4 });
    t.failGetOutcome = 1;
    const el = await row(t);
    await waitUntil(() => t.calls.getOutcome.length === 1);
    await el.updateComplete;
    expect(q(el, '.status')?.outerHTML ?? null, 'no guessed status').to.equal(null);
    t.update(S1, {}); // the connection is back: the server re-sends the view
    await waitUntil(() => statusOf(el).endsWith('Dismissed'));
    expect(t.calls.getOutcome.length).to.equal(2);
  });

  it('uses a status the page sets and reads nothing', async () => {
    const t = new FakeTransport();
    const el = await fixture<TaskSurfaceToolview>(
      html`<task-surface-toolview status="dismissed" .meta=${meta()} session-id="s1" .transport=${t}></task-surface-toolview>`,
    );
    expect(statusOf(el)).to.equal('Status: Dismissed');
    expect([t.watchCalls, t.calls.getOutcome.length, t.calls.readLog]).to.deep.equal([0, 0, 0]);
  });

  it('while open, is only a pointer to the Dock: no second copy of the question', async () => {
    const t = new FakeTransport();
    t.open(S1, 'sf-1', everyKindModel as TaskSurfaceModelV1);
    for (const [lang, text] of [
      ['en', 'Answer in the panel below.'],
      ['zh', '请在下方面板中作答。'],
    ] as const) {
      const el = await row(t, meta(), { lang });
      await waitUntil(() => q(el, '.pointer') !== null);
      expect(q(el, '.pointer')!.textContent).to.equal(text);
      expect(q(el, 'button.toggle')?.outerHTML ?? null, 'no Show the task').to.equal(null);
      expect(q(el, 'task-surface-view')?.outerHTML ?? null).to.equal(null);
      if (lang === 'zh') expect(q(el, '.base')!.getAttribute('lang')).to.equal('zh-Hans');
    }
  });

  it('renders a model the Host accepted under larger limits (they travel in the meta)', async () => {
    const t = new FakeTransport();
    const rows = Array.from({ length: 400 }, (_, i) => ({ n: `r${i}` }));
    const big: TaskSurfaceModelV1 = {
      version: 1,
      title: 'Big',
      sections: [{ id: 's', blocks: [{ kind: 'table', columns: [{ id: 'n', label: 'N' }], rows }] }],
      submit: { label: 'OK' },
    };
    const withLimits =
      await fixture<TaskSurfaceToolview>(html`<task-surface-toolview status="dismissed" .meta=${meta(big, { limits: { tableRows: 400 } })}
      session-id="s1" .transport=${t}></task-surface-toolview>`);
    expect(q(withLimits, '.fallback')?.outerHTML ?? null).to.equal(null);
    q(withLimits, 'button.toggle')!.click();
    await withLimits.updateComplete;
    const view = q(withLimits, 'task-surface-view')! as HTMLElement & { updateComplete: Promise<unknown> };
    await view.updateComplete;
    expect(view.shadowRoot!.querySelector('.table-more')!.textContent).to.contain('Showing 50 of 400 rows');
    const without = await fixture<TaskSurfaceToolview>(html`<task-surface-toolview status="dismissed" .meta=${meta(big)}
      .content=${'plain'} session-id="s1" .transport=${t}></task-surface-toolview>`);
    expect(q(without, '.fallback')!.textContent, 'the default limits refuse 400 rows').to.equal('plain');
    const bogus =
      await fixture<TaskSurfaceToolview>(html`<task-surface-toolview status="dismissed" .meta=${meta(big, { limits: { tableRows: 'lots' } })}
      .content=${'plain'} session-id="s1" .transport=${t}></task-surface-toolview>`);
    expect(q(bogus, '.fallback')!.textContent, 'a limit that is not a positive integer is the default').to.equal('plain');
  });

  it('clamps a huge title to two lines and keeps the full text', async () => {
    const t = new FakeTransport();
    const title = 'T'.repeat(55_000);
    const el = await fixture<TaskSurfaceToolview>(html`<task-surface-toolview status="dismissed" .meta=${meta({ ...everyKindModel, title })}
      session-id="s1" .transport=${t} style="width: 600px"></task-surface-toolview>`);
    expect(el.getBoundingClientRect().height).to.be.below(160);
    expect(q(el, '.title')!.getAttribute('title')).to.equal(title);
    expect(q(el, '.title')!.getAttribute('dir')).to.equal('auto');
  });

  it('releases its watch on disconnect', async () => {
    const t = new FakeTransport();
    const el = await row(t);
    expect(t.liveWatches).to.equal(1);
    el.remove();
    expect(t.liveWatches).to.equal(0);
  });
});

describe('task-surface-toolview accessibility', () => {
  afterEach(() => setViewport({ width: 800, height: 600 }));
  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'zh']) {
      it(`axe finds nothing, open and expanded (${theme}, ${lang})`, async () => {
        const t = new FakeTransport();
        t.open(S1, 'sf-1', everyKindModel);
        const open = await row(t, meta(), { theme, lang });
        await waitUntil(() => statusOf(open) !== '');
        await expect(open).to.be.accessible();
        // A plain wrapper, not `fixture`: fixture waits a frame for non-Lit elements, and a background tab draws none.
        const wrapper = onPage(document.createElement('div'));
        render(
          html`<h1>Chat</h1><task-surface-toolview status="submitted" .meta=${meta()}
          session-id="s1" .transport=${t} lang=${lang} theme=${theme}></task-surface-toolview>`,
          wrapper,
        );
        const el = wrapper.querySelector('task-surface-toolview')!;
        await el.updateComplete;
        q(el, 'button.toggle')!.click();
        await el.updateComplete;
        await expect(wrapper).to.be.accessible();
      });
    }
  }
  it('axe finds nothing at 320 px, and for the fallback', async () => {
    await setViewport({ width: 320, height: 640 });
    const t = new FakeTransport();
    const el = await row(t);
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
    await expect(el).to.be.accessible();
    await expect(await row(undefined)).to.be.accessible();
  });
});
