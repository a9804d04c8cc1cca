// The panel while the model writes it, on the demo Dock (real Chromium, real WebSocket host): the
// scripted agent streams "notification settings" at 50 tokens a second; the preview grows block by
// block, read-only (no Submit, no Dismiss, no control that answers), axe finds nothing, its status is
// said once, focus stays in the composer, and it becomes the panel without a layout shift.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScriptedAgent } from '../../demo/agent/driver.js';
import type { AgentDriver, AgentTurn } from '../../host/types.js';
import type { JsonValue } from '../../protocol/index.js';
import { dock, dockState, e2eSuite, say } from './harness.js';
import { axe } from './demoPage.js';

const suite = e2eSuite();

/** Opened by the test once it has looked at the preview: the rest of the call streams then. */
let finishWriting = () => {};

/**
 * Writes the panel's call as a model streams it (`turn.showToolInput`): 4-character tokens at 50 a
 * second, as the scripted agent's `tokensPerSecond: 50` does; two thirds in (the first choice field
 * is whole by then), it waits for the test, so that the checks run on the preview however slow the
 * machine (axe could outlast the whole stream on a loaded one), then streams the rest.
 */
async function writeCall(turn: AgentTurn, args: JsonValue): Promise<void> {
  const text = JSON.stringify(args);
  const gateAt = Math.floor((text.length * 2) / 3);
  const gate = new Promise<void>((resolve) => (finishWriting = resolve));
  for (let at = 4; at < text.length + 4 && !turn.signal.aborted; at += 4) {
    if (at - 4 < gateAt && at >= gateAt) await gate;
    await new Promise((resolve) => setTimeout(resolve, 20));
    turn.showToolInput('show_task_surface', text.slice(0, at));
  }
}

/** The scripted agent, but each panel's call is written first (writeCall). */
function writingAgent(): AgentDriver {
  const agent = createScriptedAgent();
  return {
    runTurn: (turn) =>
      agent.runTurn(
        new Proxy(turn, {
          get(target, key) {
            if (key === 'callTool') {
              return async (...[name, args, options]: Parameters<AgentTurn['callTool']>) => {
                if (name === 'show_task_surface') await writeCall(target, args);
                return target.callTool(name, args, options);
              };
            }
            const value: unknown = Reflect.get(target, key, target);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
      ),
  };
}

/** Records layout shifts, the Dock's states, what its live region says, and the blocks drawn each frame (a string: no bundler helpers). */
const INSTRUMENT = `
  const w = window;
  Object.assign(w, { __shifts: [], __states: [], __said: [], __blocks: [], __emptyFirst: false });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) w.__shifts.push({ t: e.startTime, v: e.value });
  }).observe({ type: 'layout-shift', buffered: true });
  const el = document.querySelector('demo-chat-app').shadowRoot.querySelector('task-surface-dock');
  new MutationObserver(() => w.__states.push({ t: performance.now(), s: el.getAttribute('state') || '' }))
    .observe(el, { attributes: true, attributeFilter: ['state'] });
  let said = '';
  // Read on every change of the Dock's shadow tree (a word shown for less than a frame on a busy
  // machine is still seen) and on every frame (the view's blocks are in a shadow tree of their own).
  function read() {
    const region = el.shadowRoot.querySelector('[role="status"]');
    const status = (region?.textContent || '').trim();
    // The live region is in the page, empty, before its words arrive (else it may not be announced).
    if (region && status === '' && el.getAttribute('state') === 'preview' && w.__said.length === 0) w.__emptyFirst = true;
    if (status !== said && status !== '') w.__said.push(status);
    said = status;
    const view = el.shadowRoot.querySelector('task-surface-view');
    const blocks = view?.shadowRoot?.querySelectorAll('[part~="block"]').length ?? 0;
    if (el.getAttribute('state') === 'preview' && blocks !== w.__blocks.at(-1)) w.__blocks.push(blocks);
  }
  new MutationObserver(read).observe(el.shadowRoot, { subtree: true, childList: true, characterData: true, attributes: true });
  (function frame() {
    read();
    requestAnimationFrame(frame);
  })();
`;

describe('The preview on the demo Dock (real Chromium, real WebSocket host)', () => {
  it('grows read-only, passes axe, is announced once, keeps focus, and becomes the panel without moving', async () => {
    const demo = await suite.start({ driver: writingAgent() });
    const page = await demo.open();
    await page.evaluate(INSTRUMENT);
    await say(page, 'notification settings');
    const composerFocused = () =>
      page.evaluate(() => document.querySelector('demo-chat-app')?.shadowRoot?.activeElement?.matches('.composer textarea') === true);
    assert.ok(await composerFocused());
    await dockState(page, 'preview');
    const view = dock(page).locator('task-surface-view');
    await view.locator('[part~="block"]').first().waitFor();
    // A field has arrived too, so that "nothing answers" is checked on a control, not on text alone.
    const radio = view.locator('[role="radio"]').first();
    await radio.waitFor();

    // Read-only: no Submit, no Dismiss, nothing that answers; axe finds nothing.
    assert.equal(await view.getAttribute('preview'), '');
    assert.equal(
      await dock(page)
        .getByRole('button', { name: /Dismiss|Save/ })
        .count(),
      0,
      'no Submit and no Dismiss',
    );
    const violations = await axe(page);
    const enabled = await page.evaluate(() => {
      const root = document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('task-surface-dock')!.shadowRoot!;
      const inner = root.querySelector('task-surface-view')!.shadowRoot!;
      const controls = [
        ...root.querySelectorAll('button, textarea, input'),
        ...inner.querySelectorAll('button, textarea, input, [role="radio"], [role="switch"], [role="option"], [role="checkbox"]'),
      ];
      return controls
        .filter(
          (c) =>
            !(c as HTMLButtonElement).disabled &&
            // aria-disabled on a radio group disables its radios (ARIA: "and all focusable descendants").
            !c.closest('[aria-disabled="true"]') &&
            !c.closest('[inert]') &&
            getComputedStyle(c).visibility !== 'hidden',
        )
        .filter((c) => !c.closest('.table-scroll, .diff, [part~="block"]')) // a long table's "Show all" is reading, not answering
        .map((c) => c.outerHTML.slice(0, 80));
    });
    assert.equal(await dock(page).getAttribute('state'), 'preview', 'axe ran on the preview');
    assert.deepEqual(violations, []);
    assert.deepEqual(enabled, [], 'no control answers in the preview');
    const checked = await radio.getAttribute('aria-checked');
    await radio.dispatchEvent('click'); // a click's event without moving focus: focus is checked below
    assert.equal(await radio.getAttribute('aria-checked'), checked, 'a click on a radio of the preview answers nothing');
    finishWriting();

    await dockState(page, 'editing');
    await dock(page).getByRole('button', { name: 'Dismiss' }).waitFor();
    await page.waitForTimeout(600); // layout shifts are reported a moment after they happen
    const seen = (await page.evaluate('({ __shifts, __states, __said, __blocks, __emptyFirst })')) as {
      __emptyFirst?: boolean;
      __shifts: { t: number; v: number }[];
      __states: { t: number; s: string }[];
      __said: string[];
      __blocks: number[];
    };
    const opened = seen.__states.find((s) => s.s === 'editing')!.t;
    const lastPreview = seen.__states.filter((s) => s.s === 'preview').at(-1)!.t;
    assert.ok(lastPreview < opened);
    const shift = seen.__shifts.filter((e) => e.t >= opened - 50).reduce((sum, e) => sum + e.v, 0);
    assert.ok(shift <= 0.05, `layout shift when the preview became the panel: ${shift}`);
    assert.ok(new Set(seen.__blocks).size >= 2, `the preview grew block by block: ${JSON.stringify(seen.__blocks)}`);
    assert.equal(seen.__emptyFirst, true, 'the status region was in the page, empty, before its words');
    assert.deepEqual(
      seen.__said,
      ['The agent is still writing this panel. You can read it; you can answer once it is complete.'],
      'said once',
    );
    assert.ok(await composerFocused(), 'focus stayed in the composer');
    assert.equal(await dock(page).getByRole('button', { name: 'Dismiss' }).isEnabled(), true, 'the same Dock is the answerable panel');
  });
});
