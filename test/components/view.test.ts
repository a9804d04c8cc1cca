import { aTimeout, expect, fixture, fixtureSync, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { TaskSurfaceModelV1 } from '../../protocol/index.js';
import '../../components/view/task-surface-view.js';
import type { TaskSurfaceView } from '../../components/view/task-surface-view.js';
import { everyKindModel, maximalModel } from './models.js';
import { nextEvent } from '../browser/waits.js';

const q = <E extends Element = HTMLElement>(el: TaskSurfaceView, sel: string) => el.shadowRoot!.querySelector<E>(sel)!;
const qa = <E extends Element = HTMLElement>(el: TaskSurfaceView, sel: string) => [...el.shadowRoot!.querySelectorAll<E>(sel)];
const active = (el: TaskSurfaceView) => el.shadowRoot!.activeElement as HTMLElement | null;
async function altArrow(key: 'ArrowUp' | 'ArrowDown') {
  await sendKeys({ down: 'Alt' });
  await sendKeys({ press: key });
  await sendKeys({ up: 'Alt' });
}
const fieldsOnly: TaskSurfaceModelV1 = { ...everyKindModel, sections: [] };

async function view(model: TaskSurfaceModelV1 = everyKindModel, attrs: { lang?: string; theme?: string; readonly?: boolean } = {}) {
  return fixture<TaskSurfaceView>(
    html`<task-surface-view .model=${model} lang=${attrs.lang ?? 'en'} theme=${attrs.theme ?? 'light'} ?readonly=${attrs.readonly ?? false}></task-surface-view>`,
  );
}

describe('task-surface-view blocks', () => {
  it('renders title, description, sections and every block kind', async () => {
    const el = await view();
    expect(q(el, 'h2').textContent).to.equal('Pick a release plan');
    expect(q(el, '.description').textContent).to.contain('Compare the options');
    expect(qa(el, 'h3').map((h) => h.textContent)).to.deep.equal(['Overview']);
    expect(q(el, '.md strong').textContent).to.equal('options');
    expect(qa(el, '.metric dt').map((d) => d.textContent)).to.deep.equal(['Open bugs', 'Coverage']);
    expect(q(el, '.metric-detail').textContent).to.equal('3 critical');
    const cells = qa(el, 'tbody tr:first-child td').map((td) => td.textContent!.trim());
    expect(cells).to.deep.equal(['core', '1,200.5', 'Yes', '—empty']);
    expect(q(el, 'tbody tr:first-child td:nth-child(2)').className).to.contain('num');
    const [edit, created] = qa(el, 'figure.diff');
    expect(edit!.querySelector('.diff-path')!.textContent).to.equal('src/app.ts');
    expect(edit!.textContent).to.contain('typescript');
    expect([...edit!.querySelectorAll('.del')].map((l) => l.textContent)).to.deep.equal(['-const b = 2;']);
    expect([...edit!.querySelectorAll('.add')].map((l) => l.textContent)).to.deep.equal(['+const b = 3;']);
    expect(created!.textContent).to.contain('New file');
    expect([...created!.querySelectorAll('.add')].map((l) => l.textContent)).to.deep.equal(['+# New']);
    expect(qa(el, '.notice').map((n) => n.className.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'block notice warning',
      'block notice info',
      'block notice neutral',
    ]);
    expect(q(el, '.notice.warning').textContent).to.contain('Warning');
    expect(q(el, 'button[part="submit"]').textContent).to.equal('Send plan');
  });

  it('shows 50 of 200 table rows with an explicit count and a control for the rest', async () => {
    const el = await view(maximalModel());
    expect(qa(el, '.table-block tbody tr').length).to.equal(50);
    expect(q(el, '.table-more').textContent).to.contain('Showing 50 of 200 rows');
    q(el, '.table-more button').click();
    await el.updateComplete;
    expect(qa(el, '.table-block tbody tr').length).to.equal(200);
    expect(q(el, '.table-more')).to.equal(null);
  });

  it('shows every row up front with all-rows, and goes back to 50 when it is removed', async () => {
    const full = maximalModel();
    const table = full.sections[0]!.blocks.find((b) => b.kind === 'table')!;
    const model = { ...full, sections: [{ id: 'services', title: 'Services', blocks: [table] }] };
    const el = await fixture<TaskSurfaceView>(html`<task-surface-view .model=${model} all-rows></task-surface-view>`);
    expect(el.allRows).to.equal(true);
    expect(qa(el, '.table-block tbody tr').length).to.equal(200);
    expect(q(el, '.table-more')).to.equal(null);
    await expect(el).to.be.accessible();
    el.removeAttribute('all-rows');
    await el.updateComplete;
    expect(qa(el, '.table-block tbody tr').length).to.equal(50);
    expect(q(el, '.table-more').textContent).to.contain('Showing 50 of 200 rows');
  });

  it('collapses a grid to one column when its own width cannot hold it', async () => {
    const el = await view();
    const grid = q(el, '.blocks.grid');
    el.style.width = '900px';
    expect(getComputedStyle(grid).gridTemplateColumns.split(' ').length).to.equal(2);
    el.style.width = '300px';
    expect(getComputedStyle(grid).gridTemplateColumns.split(' ').length).to.equal(1);
  });

  it('uses the zh chrome', async () => {
    const el = await view(maximalModel(), { lang: 'zh' });
    expect(q(el, '.table-more').textContent).to.contain('显示 200 行中的 50 行');
  });
});

describe('task-surface-view fields', () => {
  it('is completed with the keyboard alone', async () => {
    const wrapper = fixtureSync<HTMLDivElement>(
      html`<div><button id="before">before</button><task-surface-view .model=${fieldsOnly}></task-surface-view></div>`,
    );
    const el = wrapper.querySelector('task-surface-view')!;
    await el.updateComplete;
    wrapper.querySelector<HTMLButtonElement>('#before')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(active(el)?.id).to.equal('f0');
    await sendKeys({ type: 'v2.1' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: ' and more' });
    await sendKeys({ press: 'Tab' }); // radio group: the first radio is the tab stop
    expect(active(el)?.getAttribute('role')).to.equal('radio');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' }); // wraps to the first
    await sendKeys({ press: 'ArrowDown' });
    expect(active(el)?.dataset['value']).to.equal('b');
    await sendKeys({ press: 'Tab' }); // web
    await sendKeys({ press: 'Tab' }); // ios
    await sendKeys({ press: 'Space' });
    await sendKeys({ press: 'Tab' }); // android
    await sendKeys({ press: 'Tab' }); // switch
    expect(active(el)?.getAttribute('role')).to.equal('switch');
    await sendKeys({ press: 'Space' });
    await sendKeys({ press: 'Tab' }); // order listbox: the selected option
    expect(active(el)?.dataset['value']).to.equal('build');
    await altArrow('ArrowDown');
    await altArrow('ArrowDown');
    expect(active(el)?.dataset['value']).to.equal('build');
    await sendKeys({ press: 'Tab' }); // Move Build up (only the selected item's pair is a tab stop)
    await sendKeys({ press: 'Tab' }); // Move down is disabled at the end, so: submit
    expect(active(el)?.getAttribute('part')).to.equal('submit');
    const submitted = nextEvent(el, 'task-surface-submit');
    await sendKeys({ press: 'Enter' });
    const { detail } = await submitted;
    expect(detail.values).to.deep.equal({
      name: 'v2.1',
      notes: 'none and more',
      plan: 'b',
      targets: ['web', 'ios'],
      notify: true,
      steps: ['test', 'deploy', 'build'],
    });
  });

  it('moves order items with Alt+Arrow and buttons, keeps focus on the moved item and announces it', async () => {
    const el = await view();
    const first = q(el, '[role="option"][data-value="build"]');
    first.focus();
    await altArrow('ArrowDown');
    await el.updateComplete;
    expect(qa(el, '[role="option"]').map((o) => o.dataset['value'])).to.deep.equal(['test', 'build', 'deploy']);
    expect(active(el)?.dataset['value']).to.equal('build');
    expect(active(el)?.getAttribute('aria-selected')).to.equal('true');
    expect(q(el, '[role="status"]').textContent).to.equal('Moved Build to position 2 of 3.');
    await altArrow('ArrowUp');
    await altArrow('ArrowUp');
    await el.updateComplete;
    expect(q(el, '[role="status"]').textContent).to.equal('Build is already at position 1 of 3.');
    await sendKeys({ press: 'ArrowDown' }); // selection moves without reordering
    expect(active(el)?.dataset['value']).to.equal('test');
    const down = q<HTMLButtonElement>(el, 'button[aria-label="Move Test down"]');
    expect(down.tabIndex, "the selected item's buttons are in the tab order").to.equal(0);
    expect(q<HTMLButtonElement>(el, 'button[aria-label="Move Deploy down"]').tabIndex).to.equal(-1);
    down.click();
    await el.updateComplete;
    expect(qa(el, '[role="option"]').map((o) => o.dataset['value'])).to.deep.equal(['build', 'deploy', 'test']);
    await aTimeout(0);
    expect(active(el)?.getAttribute('aria-label'), "at the end, focus moves to the item's other button").to.equal('Move Test up');
    expect(q(el, '[role="status"]').textContent).to.equal('Moved Test to position 3 of 3.');
  });

  it('reports each change with the whole value set', async () => {
    const el = await view();
    const changed = nextEvent(el, 'task-surface-value-change');
    q(el, '[role="switch"]').click();
    const { detail } = await changed;
    expect(detail).to.deep.include({ fieldId: 'notify', value: true });
    expect(detail.values['targets']).to.deep.equal(['web']);
    expect(q(el, '[role="switch"]').getAttribute('aria-checked')).to.equal('true');
  });

  it('refuses to submit with a blank required field, says why and focuses it', async () => {
    const el = await view();
    let submitted = false;
    el.addEventListener('task-surface-submit', () => {
      submitted = true;
    });
    q(el, 'button[part="submit"]').click();
    await el.updateComplete;
    await el.updateComplete;
    expect(submitted).to.equal(false);
    expect(q(el, '#f0').getAttribute('aria-invalid')).to.equal('true');
    expect(q(el, '#f0-error').textContent).to.equal('Fill in this field before submitting.');
    expect(active(el)?.id).to.equal('f0');
  });

  it('disables every control while disabled', async () => {
    const el = await view();
    el.disabled = true;
    await el.updateComplete;
    expect(qa<HTMLInputElement>(el, 'input, textarea, button').every((c) => c.disabled)).to.equal(true);
    q(el, '[role="radio"][data-value="c"]').click();
    await el.updateComplete;
    expect(q(el, '[role="radio"][data-value="c"]').getAttribute('aria-checked')).to.equal('false');
  });

  it('readonly shows the values as answers with no controls', async () => {
    const el = await fixture<TaskSurfaceView>(html`<task-surface-view readonly .model=${everyKindModel}
      .values=${{ name: 'x', plan: 'a', targets: ['ios'], notify: true, steps: ['deploy', 'build', 'test'] }}></task-surface-view>`);
    expect(qa(el, 'input, textarea, button, [role="radio"], [role="option"]').length).to.equal(0);
    const answers = qa(el, '.answer').map(
      (a) => `${a.querySelector('dt')!.textContent}=${[...a.querySelectorAll('dd, li')].at(-1)!.textContent}`,
    );
    expect(answers).to.deep.equal([
      'Release name=x',
      'Notes=No answer',
      'Plan=Ship now',
      'Targets=iOS',
      'Notify the team=On',
      'Step order=Test',
    ]);
  });
});

describe('task-surface-view accessibility', () => {
  afterEach(() => setViewport({ width: 800, height: 600 }));
  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'zh']) {
      it(`axe finds nothing (${theme}, ${lang})`, async () => {
        const el = await view(everyKindModel, { theme, lang });
        await expect(el).to.be.accessible();
      });
    }
  }
  it('axe finds nothing at 320 px, readonly too', async () => {
    await setViewport({ width: 320, height: 640 });
    const el = await view(everyKindModel);
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
    await expect(el).to.be.accessible();
    const ro = await view(everyKindModel, { readonly: true, theme: 'dark' });
    await expect(ro).to.be.accessible();
  });
});
