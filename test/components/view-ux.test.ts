import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { TaskSurfaceModelV1 } from '../../protocol/index.js';
import '../../components/view/task-surface-view.js';
import type { TaskSurfaceView } from '../../components/view/task-surface-view.js';
import { DIFF_PAGE_LINES } from '../../components/view/diffLines.js';
import { everyKindModel } from './models.js';
import { nextEvent } from '../browser/waits.js';

const q = <E extends Element = HTMLElement>(el: TaskSurfaceView, sel: string) => el.shadowRoot!.querySelector<E>(sel)!;
const qa = <E extends Element = HTMLElement>(el: TaskSurfaceView, sel: string) => [...el.shadowRoot!.querySelectorAll<E>(sel)];
/** The focused element, through every shadow root. */
function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}
/** Where characters [start, end) of an element's text (Lit's comment markers aside) are drawn. */
function drawn(el: Element, start: number, end: number): DOMRect {
  const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent)!;
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, end);
  const box = range.getBoundingClientRect();
  expect(box.width, 'the characters are drawn').to.be.greaterThan(0);
  return box;
}
/** Lines drawn in a diff body (runs of lines share an element). */
const lineCount = (body: Element) => [...body.children].reduce((n, run) => n + run.textContent!.split('\n').length, 0);
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';
const withBlocks = (
  blocks: TaskSurfaceModelV1['sections'][number]['blocks'],
  extra: Partial<TaskSurfaceModelV1> = {},
): TaskSurfaceModelV1 => ({ version: 1, title: 'Review', sections: [{ id: 's', blocks }], submit: { label: 'OK' }, ...extra });
const view = (model: TaskSurfaceModelV1, attrs: { lang?: string; readonly?: boolean; level?: number } = {}) =>
  fixture<TaskSurfaceView>(html`<task-surface-view .model=${model} lang=${attrs.lang ?? 'en'} theme="light" ?readonly=${attrs.readonly ?? false}
    heading-level=${attrs.level ?? 2}></task-surface-view>`);

describe('task-surface-view: big diffs', () => {
  it('shows a diff too costly to compare as plain before and after text, says why, and pages it', async () => {
    // 3,000 lines that all differ on each side (about 46 KB, within the limits): an edit distance of 6,000.
    const el = await view(withBlocks([{ kind: 'diff', path: 'data.csv', before: lines(3000, 'old'), after: lines(3000, 'new') }]));
    expect(q(el, '.diff-note').textContent).to.equal(
      'This change is too large to compare line by line here, so the file is shown as it was before and after.',
    );
    const sides = qa(el, '.diff-body.plain');
    expect(sides.map((s) => s.getAttribute('aria-label'))).to.deep.equal(['Changes to data.csv: Before', 'Changes to data.csv: After']);
    expect(sides.map(lineCount)).to.deep.equal([DIFF_PAGE_LINES, DIFF_PAGE_LINES]);
    expect(sides[0]!.textContent!.split('\n')[0]).to.equal('old line 0');
    expect(sides[0]!.children.length, 'a page of plain lines is one element').to.equal(1);
    expect(q(el, '.diff-counts').textContent).to.equal('3,000 lines before, 3,000 lines after');
    expect(q(el, '.diff .table-more').textContent).to.contain('Showing 200 of 3,000 lines');
    q<HTMLButtonElement>(el, '.diff .table-more button').click();
    await el.updateComplete;
    expect(lineCount(qa(el, '.diff-body.plain')[0]!)).to.equal(2 * DIFF_PAGE_LINES);
    expect(deepActive()?.textContent!.split('\n')[0], 'focus lands on the first line just shown').to.equal('old line 200');
  });

  it('pages a long compared diff and moves focus to the first new line', async () => {
    const el = await view(withBlocks([{ kind: 'diff', path: 'big.txt', before: null, after: lines(450, 'new') }]));
    const body = () => q(el, '.diff-body');
    expect(lineCount(body())).to.equal(DIFF_PAGE_LINES);
    expect(q(el, '.diff-note')).to.equal(null);
    expect(q(el, '.diff-counts').textContent).to.equal('450 added, 0 removed');
    const more = q<HTMLButtonElement>(el, '.diff .table-more button');
    expect(more.textContent).to.equal('Show 200 more lines');
    more.click();
    await el.updateComplete;
    expect(lineCount(body())).to.equal(400);
    expect(deepActive()?.textContent!.split('\n')[0]).to.equal('+new line 199'); // line 0 is the hunk header
    q<HTMLButtonElement>(el, '.diff .table-more button').click();
    await el.updateComplete;
    expect(lineCount(body())).to.equal(451);
    expect(q(el, '.diff .table-more'), 'no button once every line shows').to.equal(null);
    expect(deepActive()?.textContent!.split('\n')[0]).to.equal('+new line 399');
  });

  it('still compares a small change inside a long file, with the right line numbers', async () => {
    const before = lines(3000, 'same');
    const after = before.replace('same line 1500\n', 'changed line 1500\n');
    const el = await view(withBlocks([{ kind: 'diff', before, after }]));
    expect(q(el, '.diff-note')).to.equal(null);
    expect(q(el, '.hunk').textContent).to.equal('@@ -1498,7 +1498,7 @@');
    expect(qa(el, '.del').map((l) => l.textContent)).to.deep.equal(['-same line 1500']);
    expect(qa(el, '.add').map((l) => l.textContent)).to.deep.equal(['+changed line 1500']);
  });
});

describe('task-surface-view: focus after Show all', () => {
  it('moves focus to the first newly shown row', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ n: `row ${i}` }));
    const el = await view(withBlocks([{ kind: 'table', columns: [{ id: 'n', label: 'Name' }], rows }]));
    const button = q<HTMLButtonElement>(el, '.table-more button');
    button.focus();
    button.click();
    await el.updateComplete;
    const focused = deepActive();
    expect(focused?.tagName).to.equal('TR');
    expect(focused?.textContent?.trim()).to.equal('row 50');
  });
});

describe('task-surface-view: layout bombs', () => {
  afterEach(() => setViewport({ width: 800, height: 600 }));

  it('clamps a 55,000-character title to a few lines and keeps the full text', async () => {
    const title = 'W'.repeat(55_000);
    const el = await view({ ...everyKindModel, title });
    const h = q(el, '.title');
    expect(h.getBoundingClientRect().height).to.be.below(120);
    expect(h.getAttribute('title')).to.equal(title);
    expect(el.getBoundingClientRect().width).to.be.at.most(800);
  });

  it('wraps long words and clips runaway combining marks instead of widening the page', async () => {
    await setViewport({ width: 320, height: 640 });
    const zalgo = `Z${'\u0301'.repeat(900)}algo`;
    const long = 'x'.repeat(3000);
    const model: TaskSurfaceModelV1 = {
      ...everyKindModel,
      title: zalgo,
      description: long,
      fields: [
        {
          kind: 'choice',
          id: 'c',
          label: zalgo,
          options: [
            { id: 'a', label: long, detail: zalgo },
            { id: 'b', label: zalgo },
          ],
        },
      ],
    };
    const el = await view(model);
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    expect(q(el, '.title').textContent!.length, 'at most 8 marks are drawn on one letter').to.equal(1 + 8 + 4);
    expect(q(el, '.title').getAttribute('title')).to.equal(zalgo);
    for (const node of qa(el, '.field, .header')) expect(node.scrollWidth).to.be.at.most(node.clientWidth + 1);
  });

  it('gives a long word break opportunities every 160 characters without changing its text', async () => {
    const word = 'x'.repeat(1000);
    const el = await view({ ...everyKindModel, description: `short ${word} end` });
    const p = q(el, '.description');
    expect(p.querySelectorAll('wbr').length).to.equal(Math.floor(1000 / 160));
    expect(p.textContent).to.equal(`short ${word} end`);
    const plain = await view({ ...everyKindModel, description: 'words of a normal length' });
    expect(q(plain, '.description').querySelectorAll('wbr').length).to.equal(0);
  });

  it('isolates model text and shows bidi controls in a file path as visible codes', async () => {
    const path = 'invoice\u202Efdp.exe';
    const el = await view(withBlocks([{ kind: 'diff', path, before: 'a\n', after: 'b\n' }], { title: 'مرحبا\u202E title' }));
    expect(q(el, '.diff-path').textContent).to.equal('invoice⟨U+202E⟩fdp.exe');
    expect(q(el, '.diff-path').getAttribute('title')).to.equal(path);
    const title = q(el, '.title');
    expect(title.getAttribute('dir')).to.equal('auto');
    expect(getComputedStyle(title).unicodeBidi).to.equal('isolate');
    expect(getComputedStyle(q(el, '.diff-path')).unicodeBidi).to.equal('isolate');
  });

  it('gives each text cell and answer the direction of its own text, with no element added for it', async () => {
    const rows = [
      { name: 'مرحبا!', n: 1 },
      { name: 'hello!', n: 2 },
      { name: 'abc \u202Eright', n: 3 },
    ];
    const el = await view(
      withBlocks([
        {
          kind: 'table',
          columns: [
            { id: 'name', label: 'Name' },
            { id: 'n', label: 'N' },
          ],
          rows,
        },
      ]),
    );
    const [arabic, latin, override] = qa(el, 'tbody td:first-child');
    expect(
      qa(el, 'tbody td').map((td) => td.children.length),
      'no wrapper in any cell',
    ).to.deep.equal([0, 0, 0, 0, 0, 0]);
    // The "!" ends the Arabic sentence, so it is drawn at its left, in an LTR page; after "hello", at its right.
    expect(drawn(arabic!, 5, 6).right).to.be.at.most(drawn(arabic!, 0, 5).left + 0.5);
    expect(drawn(latin!, 5, 6).left).to.be.at.least(drawn(latin!, 0, 5).right - 0.5);
    expect([arabic, latin].map((td) => getComputedStyle(td!).direction)).to.deep.equal(['rtl', 'ltr']);
    // Yet it lines up with its column, at the table's start (the left, in this page), as before.
    expect(drawn(arabic!, 0, 6).left - arabic!.getBoundingClientRect().left).to.be.below(16);
    expect(getComputedStyle(arabic!).unicodeBidi).to.equal('isolate');
    // An override reverses the rest of its own cell and nothing beyond it: the number stays in its column.
    expect(drawn(override!, 5, 6).left, 'the "r" of "right" drawn last').to.be.greaterThan(drawn(override!, 9, 10).left);
    const number = q(el, 'tbody tr:nth-child(3) td:nth-child(2)').getBoundingClientRect();
    expect(number.left).to.be.at.least(override!.getBoundingClientRect().right - 0.5);
    expect(q(el, 'tbody tr:nth-child(3) td:nth-child(2)').textContent).to.equal('3');

    const replay = await view(everyKindModel, { readonly: true });
    replay.values = { name: 'مرحبا!', notes: '', targets: [], notify: false, steps: ['build', 'test', 'deploy'] };
    await replay.updateComplete;
    const answer = qa(replay, '.answer dd').find((dd) => dd.textContent === 'مرحبا!')!;
    expect(answer.children.length, 'no wrapper in the answer').to.equal(0);
    expect(drawn(answer, 5, 6).right).to.be.at.most(drawn(answer, 0, 5).left + 0.5);
  });
});

describe('task-surface-view: outline, language and replay', () => {
  it('places its headings under the level the page asks for, and adds no landmark per section', async () => {
    const model: TaskSurfaceModelV1 = {
      ...everyKindModel,
      sections: [
        { id: 'a', title: 'First', blocks: [{ kind: 'markdown', text: '# Inner' }] },
        { id: 'b', title: 'Second', blocks: [{ kind: 'notice', tone: 'info', text: 'x' }] },
      ],
    };
    const el = await view(model, { level: 3 });
    expect(q(el, '.title').tagName).to.equal('H3');
    expect(qa(el, '.section-title').map((h) => h.tagName)).to.deep.equal(['H4', 'H4']);
    expect(q(el, '.md h5').textContent).to.equal('Inner');
    expect(qa(el, 'section').length).to.equal(2);
    expect(qa(el, 'section[aria-label], section[aria-labelledby], [role="region"]').length).to.equal(0);
    const plain = await view(model);
    expect(q(plain, '.title').tagName, 'default level 2').to.equal('H2');
  });

  it('writes full-width parentheses and zh-Hans in Chinese, also for a zh-Hans lang', async () => {
    const el = await view(everyKindModel, { lang: 'zh-Hans' });
    expect(q(el, '.req').textContent).to.equal('（必填）');
    expect(q(el, '.base').getAttribute('lang')).to.equal('zh-Hans');
    expect(q(el, '.hint').textContent).to.contain('Alt+\u2060↑\u2060/\u2060↓');
    const en = await view(everyKindModel);
    expect(q(en, '.req').textContent).to.equal('(required)');
    expect(q(en, '.base').getAttribute('lang')).to.equal('en');
  });

  it('keeps "Alt+↑/↓" on one line however narrow', async () => {
    const el = await view(everyKindModel, { lang: 'zh' });
    const hint = q(el, '.hint');
    hint.style.width = '4em';
    const walker = document.createTreeWalker(hint, NodeFilter.SHOW_TEXT);
    let text: Node | null;
    while ((text = walker.nextNode()) && !text.textContent!.includes('Alt'));
    const at = text!.textContent!.indexOf('Alt');
    const range = document.createRange();
    range.setStart(text!, at);
    range.setEnd(text!, at + 'Alt+\u2060↑\u2060/\u2060↓'.length);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    expect(tops.size).to.equal(1);
  });

  it('reads an empty multi-choice as "None selected" in a replay, with no keyboard instructions', async () => {
    const el = await view(everyKindModel, { readonly: true });
    el.values = { name: 'x', notes: '', targets: [], notify: false, steps: ['build', 'test', 'deploy'] };
    await el.updateComplete;
    const answers = qa(el, '.answer').map((a) => `${a.querySelector('dt')!.textContent}=${a.querySelector('dd')!.textContent!.trim()}`);
    expect(answers).to.include('Targets=None selected');
    expect(answers).to.include('Notes=No answer');
    expect(el.shadowRoot!.textContent).not.to.contain('Alt+');
    expect(qa(el, '.hint').length).to.equal(0);
  });
});

describe('task-surface-view: reordering', () => {
  it('shows no resting highlight: the selected item stands out only while the list has focus', async () => {
    const el = await view(everyKindModel);
    const item = q(el, '[role="option"][aria-selected="true"]');
    expect(getComputedStyle(item).boxShadow).to.equal('none');
    item.focus();
    expect(getComputedStyle(item).boxShadow).not.to.equal('none');
  });

  it('names each move button for its item and moves that item', async () => {
    const el = await view(everyKindModel);
    const names = qa(el, '.order-moves button').map((b) => b.getAttribute('aria-label'));
    expect(names).to.deep.equal([
      'Move Build up',
      'Move Build down',
      'Move Test up',
      'Move Test down',
      'Move Deploy up',
      'Move Deploy down',
    ]);
    q<HTMLButtonElement>(el, 'button[aria-label="Move Deploy up"]').click();
    await el.updateComplete;
    expect(qa(el, '[role="option"]').map((o) => o.dataset['value'])).to.deep.equal(['build', 'deploy', 'test']);
    await aTimeout(0);
    expect(deepActive()?.getAttribute('aria-label')).to.equal('Move Deploy up');
    expect(q(el, '[role="status"]').textContent).to.equal('Moved Deploy to position 2 of 3.');
    const rows = (b: string) => Math.round(q(el, `button[aria-label="${b}"]`).getBoundingClientRect().top);
    const item = (v: string) => q(el, `[role="option"][data-value="${v}"]`).getBoundingClientRect();
    const deploy = item('deploy');
    expect(rows('Move Deploy up')).to.be.within(Math.floor(deploy.top), Math.ceil(deploy.bottom), 'the buttons sit beside their item');
  });

  it('moves an item by dragging its handle with the pointer', async () => {
    const el = await view(everyKindModel);
    const handleEl = q(el, '[role="option"][data-value="build"] .handle');
    const list = q(el, '[role="listbox"]');
    const handle = handleEl.getBoundingClientRect();
    const last = q(el, '[role="option"][data-value="deploy"]').getBoundingClientRect();
    const x = handle.left + handle.width / 2;
    // Pointer events as a mouse sends them (synthetic: the runner's mouse is shared by parallel pages).
    const pointer = (type: string, y: number, target: Element) =>
      target.dispatchEvent(
        new PointerEvent(type, {
          bubbles: true,
          composed: true,
          cancelable: true,
          pointerId: 7,
          pointerType: 'mouse',
          button: 0,
          buttons: type === 'pointerup' ? 0 : 1,
          clientX: x,
          clientY: y,
        }),
      );
    pointer('pointerdown', handle.top + handle.height / 2, handleEl);
    await el.updateComplete;
    expect(q(el, '[role="option"][data-value="build"]').classList.contains('dragging')).to.equal(true);
    pointer('pointermove', last.top + last.height / 2 + 1, list);
    await el.updateComplete;
    pointer('pointermove', last.bottom - 2, list);
    await el.updateComplete;
    pointer('pointerup', last.bottom - 2, list);
    await el.updateComplete;
    expect(qa(el, '[role="option"]').map((o) => o.dataset['value'])).to.deep.equal(['test', 'deploy', 'build']);
    expect(q(el, '[role="status"]').textContent).to.equal('Moved Build to position 3 of 3.');
    // Locked mid-drag (a submission started): the drag ends and nothing moves.
    const handle2 = q(el, '[role="option"][data-value="test"] .handle').getBoundingClientRect();
    pointer('pointerdown', handle2.top + handle2.height / 2, q(el, '[role="option"][data-value="test"] .handle'));
    el.disabled = true;
    await el.updateComplete;
    pointer('pointermove', last.bottom - 2, list);
    pointer('pointerup', last.bottom - 2, list);
    await el.updateComplete;
    expect(qa(el, '[role="option"]').map((o) => o.dataset['value'])).to.deep.equal(['test', 'deploy', 'build']);
    el.disabled = false;
    await el.updateComplete;
    const changed = nextEvent(el, 'task-surface-value-change');
    q<HTMLButtonElement>(el, 'button[aria-label="Move Build up"]').click();
    await changed;
  });
});
