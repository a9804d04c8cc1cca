// The preview on the AI SDK path, in real Chromium: the example's page (useChat, the package's Dock)
// with a model that streams its show_task_surface arguments as a provider does (`tool-input-delta`,
// a few characters at a time). While the call is written the Dock is read-only (nothing that answers),
// axe finds nothing, its status is said once, focus stays in the composer; when the call completes it
// becomes the answerable panel with a layout shift of at most 0.05.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { scriptedReply, tripModel } from '../../demo/ai-sdk/model.js';
import { startAiSdkDemo, type AiSdkDemo } from '../../demo/ai-sdk/server.js';
import { sharedChromium, type SharedChromium } from './harness.js';
import { axe, watchProblems } from './ai-sdk-harness.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Opened by the test once it has looked at the preview: the rest of the call streams then. */
let finishWriting = () => {};
const writingMayFinish = () => new Promise<void>((resolve) => (finishWriting = resolve));

/**
 * The trip panel's call, its arguments streamed 12 characters every 40 ms; two thirds in, it waits
 * for the test (so the checks run on the preview however slow the machine), then streams the rest.
 */
function streamedShow(): ReadableStream<LanguageModelV4StreamPart> {
  const id = `call_${crypto.randomUUID()}`;
  const json = JSON.stringify({ model: tripModel() });
  const pieces = json.match(/[\s\S]{1,12}/g)!;
  const gate = writingMayFinish();
  let at = -1;
  return new ReadableStream({
    async pull(controller) {
      if (at === -1) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'tool-input-start', id, toolName: 'show_task_surface' });
      } else if (at < pieces.length) {
        if (at === Math.floor((pieces.length * 2) / 3)) await gate;
        await new Promise((resolve) => setTimeout(resolve, 40));
        controller.enqueue({ type: 'tool-input-delta', id, delta: pieces[at]! });
      } else {
        controller.enqueue({ type: 'tool-input-end', id });
        controller.enqueue({ type: 'tool-call', toolCallId: id, toolName: 'show_task_surface', input: json });
        controller.enqueue({ type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage });
        controller.close();
      }
      at++;
    },
  });
}

/** The example's scripted model, but a panel's call is streamed slowly. */
const streamingModel = () =>
  new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'task-surface-example-streaming',
    doStream: async ({ prompt }) => {
      const parts = scriptedReply(prompt);
      if (parts.some((p) => p.type === 'tool-call' && p.toolName === 'show_task_surface')) return { stream: streamedShow() };
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of [{ type: 'stream-start', warnings: [] } as LanguageModelV4StreamPart, ...parts]) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });

/** Records layout shifts, the Dock's states and what its live region says (a string: no bundler helpers). */
const INSTRUMENT = `
  const w = window;
  Object.assign(w, { __shifts: [], __states: [], __said: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) w.__shifts.push({ t: e.startTime, v: e.value });
  }).observe({ type: 'layout-shift', buffered: true });
  let said = '';
  let state = '';
  let watched = null;
  // Read on every change of the Dock's shadow tree once it is in the page (a word shown for less than
  // a frame on a busy machine is still seen) and on every frame.
  function read() {
    const el = document.querySelector('task-surface-dock');
    if (el?.shadowRoot && watched !== el) {
      watched = el;
      new MutationObserver(read).observe(el.shadowRoot, { subtree: true, childList: true, characterData: true, attributes: true });
      new MutationObserver(read).observe(el, { attributes: true, attributeFilter: ['state'] });
    }
    const now = el?.getAttribute('state') || '';
    if (now !== state) w.__states.push({ t: performance.now(), s: now });
    state = now;
    const status = (el?.shadowRoot?.querySelector('[role="status"]')?.textContent || '').trim();
    if (status !== said && status !== '') w.__said.push(status);
    said = status;
  }
  (function frame() {
    read();
    requestAnimationFrame(frame);
  })();
`;

describe('The preview inside the AI SDK example (useChat, real Chromium)', () => {
  let browser: Browser;
  let chromium: SharedChromium | undefined;
  let demo: AiSdkDemo;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ts-ai-sdk-preview-'));
    demo = await startAiSdkDemo({ model: streamingModel(), dataDir });
    chromium = await sharedChromium();
    browser = chromium.browser;
  });
  after(async () => {
    await chromium?.close();
    await demo?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is read-only while the call streams, passes axe, is said once, keeps focus, then becomes the panel in place', async (t) => {
    const page = await browser.newPage();
    t.after(() => page.close());
    const problems = watchProblems(page);
    await page.goto(`${demo.url}/?chat=preview`);
    await page.evaluate(INSTRUMENT);
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('a panel to plan the trip');
    await composer.press('Enter');

    const dock = page.locator('task-surface-dock');
    await page.locator('task-surface-dock[state="preview"]').waitFor();
    await dock.getByText('Pick a destination and say why.').waitFor();
    assert.equal(await dock.getAttribute('state'), 'preview', 'still writing when checked');
    assert.equal(await dock.getByRole('button', { name: /Send|Dismiss/ }).count(), 0, 'no Submit and no Dismiss');
    const enabled = await page.evaluate(() => {
      const root = document.querySelector('task-surface-dock')!.shadowRoot!;
      const inner = root.querySelector('task-surface-view')?.shadowRoot;
      const controls = [
        ...root.querySelectorAll('button, textarea, input'),
        ...(inner?.querySelectorAll('button, textarea, input, [role="radio"], [role="switch"], [role="option"], [role="checkbox"]') ?? []),
      ];
      return controls
        .filter(
          (c) =>
            !(c as HTMLButtonElement).disabled &&
            c.getAttribute('aria-disabled') !== 'true' &&
            !c.closest('[inert]') &&
            getComputedStyle(c).visibility !== 'hidden',
        )
        .map((c) => c.outerHTML.slice(0, 80));
    });
    assert.deepEqual(enabled, [], 'no control answers in the preview');
    assert.deepEqual(await axe(page), [], 'axe in the preview');
    assert.equal(await dock.getAttribute('state'), 'preview', 'axe ran on the preview');
    finishWriting();

    await dock.getByRole('button', { name: 'Dismiss' }).waitFor();
    await page.waitForTimeout(600); // layout shifts are reported a moment after they happen
    const seen = (await page.evaluate('({ __shifts, __states, __said })')) as {
      __shifts: { t: number; v: number }[];
      __states: { t: number; s: string }[];
      __said: string[];
    };
    const lastPreview = seen.__states.filter((s) => s.s === 'preview').at(-1)!;
    const opened = seen.__states.find((s) => s.t > lastPreview.t)!;
    const shift = seen.__shifts.filter((e) => e.t >= opened.t - 50).reduce((sum, e) => sum + e.v, 0);
    assert.ok(shift <= 0.05, `layout shift when the preview became the panel: ${shift}`);
    t.diagnostic(`layout shift when the preview became the panel: ${shift.toFixed(4)}`);
    assert.deepEqual(
      seen.__said.filter((s) => /still writing/.test(s)),
      ['The agent is still writing this panel. You can read it; you can answer once it is complete.'],
      'said once',
    );
    assert.equal(await composer.evaluate((input) => input === document.activeElement), true, 'focus stayed in the composer');
    assert.deepEqual(await axe(page), [], 'axe on the panel');
    assert.deepEqual(problems(), [], 'no page or console error');
  });
});
