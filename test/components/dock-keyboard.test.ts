import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TaskSurfaceModelV1 } from '../../protocol/index.js';
import { FakeTransport, sid } from './fakeTransport.js';
import { everyKindModel } from './models.js';
import { deepActive, inState, mountDock } from './dockHelpers.js';
import { onPage } from '../browser/onPage.js';

describe('task-surface-dock keyboard walk', () => {
  // No localStorage.clear(): test files run side by side on one origin and share it. Tabbing
  // changes no value, so this session (its own id) stores no draft.
  for (const theme of ['light', 'dark']) {
    it(`every Tab stop of a whole Dock shows a focus ring, forwards and back (${theme})`, async () => {
      const t = new FakeTransport();
      t.open(sid('kb-1'), 'sf-1', everyKindModel as TaskSurfaceModelV1);
      const before = onPage(document.createElement('button'));
      before.textContent = 'before';
      const el = await mountDock(t, 'kb-1', { theme });
      await inState(el, 'editing');
      const after = onPage(document.createElement('button'));
      after.textContent = 'after';
      before.focus();
      const stops: HTMLElement[] = [];
      for (let i = 0; i < 40 && document.activeElement !== after; i++) {
        await sendKeys({ press: 'Tab' });
        const at = deepActive()!;
        if (at === after) break;
        // A native checkbox draws its own ring; everything else uses the theme's outline.
        if (!(at instanceof HTMLInputElement && at.type === 'checkbox')) {
          expect(getComputedStyle(at).outlineStyle, `focus ring on ${at.outerHTML.slice(0, 80)}`).to.equal('solid');
        }
        stops.push(at);
      }
      // The body scrolls (overflow clips), so it leaves room for a 2px ring at a 2px offset on each side.
      const body = el.shadowRoot!.querySelector<HTMLElement>('.body')!.getBoundingClientRect();
      for (const stop of stops.filter((s) => s.getRootNode() !== el.shadowRoot)) {
        const r = stop.getBoundingClientRect();
        expect(r.left - 4 >= body.left && r.right + 4 <= body.right, `ring of ${stop.localName} fits the body`).to.equal(true);
      }
      const labels = stops.map((s) => s.getAttribute('part') ?? s.getAttribute('role') ?? s.localName);
      // The details toggle, full height, collapse, the details region (it scrolls), the link, the table and the two diffs
      // (scroll boxes, labelled groups), text, textarea, one radio stop, 3 checkboxes, switch, one option stop, Move down
      // (Move up is disabled at the top), Add a note, submit, dismiss.
      expect(labels).to.deep.equal([
        'details',
        'size',
        'collapse',
        'context',
        'a',
        'group',
        'group',
        'group',
        'input',
        'textarea',
        'radio',
        'input',
        'input',
        'input',
        'switch',
        'option',
        'button',
        'note-toggle',
        'submit',
        'dismiss',
      ]);
      await sendKeys({ down: 'Shift' });
      for (let i = stops.length - 1; i >= 0; i--) {
        await sendKeys({ press: 'Tab' });
        expect(deepActive()).to.equal(stops[i]);
      }
      await sendKeys({ up: 'Shift' });
    });
  }
});
