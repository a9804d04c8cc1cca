// The panel in an MCP Apps host (real Chromium, the ext-apps AppBridge): through the spec's sandbox
// proxy on another origin and in a bare sandbox="allow-scripts" iframe, a person answers with the
// keyboard only and the host receives exactly one ui/message, whatever happens around it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { formatSubmission, parseTaskSurfaceModel } from '../../protocol/index.js';
import { parse } from 'partial-json';
import { maximalModel } from '../../fixtures/models.js';
import { smallModel } from '../mcp/helpers.js';
import { startMcpHarness, type McpHarness, type MountMode } from '../../fixtures/mcp/harness.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let harness: McpHarness;
before(async () => {
  harness = await startMcpHarness();
});
after(() => harness.close());

/** What has focus inside the panel's document, through open shadow roots. */
function focused(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return '';
    const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
    return `${el.tagName.toLowerCase()}[${el.getAttribute('role') ?? (el as HTMLInputElement).type ?? ''}] ${label.replace(/\s+/g, ' ').trim()}`;
  });
}

/** Presses Tab until the focused element matches (from the host page into the iframe and on). */
async function tabTo(page: Page, frame: Frame, pattern: RegExp): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(frame).catch(() => '');
    seen.push(now);
    if (pattern.test(now)) return;
  }
  throw new Error(`never reached ${pattern} with Tab; focus went ${seen.join(' → ')}`);
}

/** The panel's visible text (through shadow roots). */
const panelText = (frame: Frame): Promise<string> =>
  // A string: the test's compiler would wrap a named function in a helper the page does not have.
  frame.evaluate(`(() => {
    // Not the script or the styles: the script holds every language's strings, so a match there proves nothing.
    const walk = (node) => [...(node.shadowRoot ? node.shadowRoot.childNodes : []), ...node.childNodes]
      .filter((child) => child.nodeName !== 'SCRIPT' && child.nodeName !== 'STYLE')
      .map((child) => (child.nodeType === Node.TEXT_NODE ? child.textContent : walk(child))).join(' ');
    return walk(document.body).replace(/\\s+/g, ' ');
  })()`);

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function axe(frame: Frame): Promise<string[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource);
  const violations = await frame.evaluate(async () => {
    const run = (
      window as unknown as {
        axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe.run;
    return (await run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${JSON.stringify(n.target)}`));
}

const parsed = parseTaskSurfaceModel(smallModel());
assert.ok(parsed.ok);
const expected = formatSubmission(parsed.model, { db: 'pg', why: 'joins' }, undefined, { locale: 'zh' });
const accepted = () => harness.messages.filter((m) => m.accepted);

/** Answers PostgreSQL / "joins" with the keyboard only, up to (not including) Submit. */
async function answerWithKeyboard(page: Page, frame: Frame): Promise<void> {
  await tabTo(page, frame, /PostgreSQL/);
  await page.keyboard.press('Space');
  await tabTo(page, frame, /^input\[text\]/);
  await page.keyboard.type('joins');
  await tabTo(page, frame, /^button.*Choose/);
}

for (const mode of ['proxy', 'bare'] as MountMode[]) {
  describe(`the panel in an MCP Apps host (${mode === 'proxy' ? 'sandbox proxy on another origin' : 'bare sandbox="allow-scripts" iframe'})`, () => {
    it('keyboard only: exactly one ui/message with the formatted text; a reload and a new iframe send none', async () => {
      harness.messages.length = 0;
      const sizesBefore = harness.sizes.length;
      const call = await harness.show(smallModel());
      let frame = await harness.mount(mode, call);
      assert.equal(await frame.evaluate(() => document.documentElement.lang), 'zh-Hans', 'the host language');
      assert.equal(await frame.evaluate(() => document.documentElement.dataset['theme']), 'dark', 'the host theme');
      assert.deepEqual(await axe(frame), [], 'axe inside the iframe, open panel');
      await answerWithKeyboard(harness.page, frame);
      await harness.page.keyboard.press('Enter');
      await waitFor(() => accepted().length === 1, 'one ui/message');
      assert.deepEqual(harness.messages, [{ text: expected, accepted: true }]);
      await waitFor(async () => /已提交/.test(await panelText(frame)), 'the Submitted replay');
      assert.ok(harness.sizes.length > sizesBefore, 'the view reported its size');
      assert.deepEqual(await axe(frame), [], 'axe inside the iframe, submitted');

      frame = await harness.reload(mode, call);
      await waitFor(async () => /已提交/.test(await panelText(frame)), 'the replay after a reload');
      await harness.unmount();
      frame = await harness.mount(mode, call);
      await waitFor(async () => /已提交/.test(await panelText(frame)), 'the replay in a new iframe');
      await harness.page.waitForTimeout(300);
      assert.equal(harness.messages.length, 1, 'still exactly one ui/message');
      await harness.unmount();
    });

    it('a double click sends one message; a host error then a retry leaves one accepted message', async () => {
      harness.messages.length = 0;
      let frame = await harness.mount(mode, await harness.show(smallModel()));
      await answerWithKeyboard(harness.page, frame);
      await frame.locator('task-surface-view button.primary').dblclick();
      await waitFor(() => harness.messages.length >= 1, 'the message');
      await harness.page.waitForTimeout(300);
      assert.equal(harness.messages.length, 1);
      await harness.unmount();

      harness.messages.length = 0;
      harness.failMessages(1);
      frame = await harness.mount(mode, await harness.show(smallModel()));
      await answerWithKeyboard(harness.page, frame);
      await harness.page.keyboard.press('Enter');
      await waitFor(() => harness.messages.length === 1, 'the refused message');
      await waitFor(async () => /再次发送/.test(await panelText(frame)), 'the Send again offer');
      assert.deepEqual(harness.messages, [{ text: expected, accepted: false }]);
      await tabTo(harness.page, frame, /再次发送/);
      await harness.page.keyboard.press('Enter');
      await waitFor(() => accepted().length === 1, 'the retried message');
      await harness.page.waitForTimeout(300);
      assert.deepEqual(harness.messages, [
        { text: expected, accepted: false },
        { text: expected, accepted: true },
      ]);
      await harness.unmount();
    });

    it('Dismiss sends no message and tells the model through the model context', async () => {
      harness.messages.length = 0;
      harness.contexts.length = 0;
      const frame = await harness.mount(mode, await harness.show(smallModel()));
      await tabTo(harness.page, frame, /^button.*关闭|^button.*Dismiss/);
      await harness.page.keyboard.press('Enter');
      await waitFor(() => harness.contexts.length === 1, 'the model-context update');
      assert.match(harness.contexts[0]!, /dismissed the panel "Pick a database"/);
      await waitFor(async () => /已关闭/.test(await panelText(frame)), 'the Dismissed status');
      assert.deepEqual(harness.messages, []);
      await harness.unmount();
    });
  });
}

it('Spanish: a failed read offers Reintentar by keyboard; what was typed survives a reload; one message', async () => {
  harness.messages.length = 0;
  const call = await harness.show(smallModel());
  const viewId = (call.result._meta as { viewUUID: string }).viewUUID;
  const spanish = { theme: 'light', locale: 'es-ES', displayMode: 'inline', availableDisplayModes: ['inline'] };
  harness.failCalls(1);
  let frame = await harness.mount('bare', call, spanish);
  // The panel's own lines (the note, Reintentar) are in <main>'s light DOM; the script holds every language's too.
  const mainText = () => frame.evaluate(() => document.querySelector('main')!.innerText);
  await waitFor(async () => /no puede conectar con su servidor/.test(await mainText()), 'the Spanish unreachable note');
  assert.equal(await frame.evaluate(() => document.documentElement.lang), 'es');
  assert.deepEqual(await axe(frame), [], 'axe with the note and Reintentar');
  await tabTo(harness.page, frame, /^button.*Reintentar/);
  await harness.page.keyboard.press('Enter');
  await waitFor(async () => !/Reintentar/.test(await mainText()), 'the read again');

  await answerWithKeyboard(harness.page, frame);
  const draft = async () =>
    ((await harness.client.callTool({ name: VIEW_TOOL, arguments: { action: 'read', viewId } })).structuredContent as { draft?: unknown })
      .draft;
  await waitFor(async () => {
    const kept = (await draft()) as Record<string, unknown> | undefined;
    return kept?.['db'] === 'pg' && kept['why'] === 'joins';
  }, 'the draft on the server');
  frame = await harness.reload('bare', call, spanish);
  const typed = () =>
    frame.evaluate(`(() => {
      const find = (node) => [...(node.shadowRoot ? node.shadowRoot.querySelectorAll('*') : []), ...node.querySelectorAll('*')]
        .flatMap((el) => (el.tagName === 'INPUT' && el.type === 'text' ? [el.value] : el.shadowRoot ? find(el) : []));
      return find(document.body);
    })()`) as Promise<string[]>;
  await waitFor(async () => (await typed()).includes('joins'), 'the typed text after the reload');
  await tabTo(harness.page, frame, /^button.*Choose/);
  await harness.page.keyboard.press('Enter');
  const text = formatSubmission(parsed.model, { db: 'pg', why: 'joins' }, undefined, { locale: 'es' });
  await waitFor(() => accepted().length === 1, 'one ui/message');
  assert.deepEqual(harness.messages, [{ text, accepted: true }]);
  await harness.unmount();
});

it('a host that takes no ui/message: the panel says to tell the assistant, and the model reads the answer', async () => {
  harness.messages.length = 0;
  const call = await harness.show(smallModel());
  const panelId = (call.result._meta as { viewUUID: string }).viewUUID;
  const frame = await harness.mount('bare', call, { theme: 'light', locale: 'en' }, { message: false });
  await answerWithKeyboard(harness.page, frame);
  await harness.page.keyboard.press('Enter');
  await waitFor(async () => /Tell the assistant in the chat that you answered/.test(await panelText(frame)), 'the note');
  assert.deepEqual(await axe(frame), [], 'axe inside the iframe');
  assert.deepEqual(harness.messages, [], 'no message reached the host');
  const read = await harness.client.callTool({ name: 'task_surface_answer', arguments: { panelId } });
  assert.equal((read.structuredContent as { alreadyDelivered: boolean }).alreadyDelivered, false, 'the read delivers it');
  await harness.unmount();
});

it('a call the host cancels before its result: the panel says so, in Japanese, instead of preparing forever', async () => {
  const frame = await harness.mount('bare', await harness.show(smallModel()), { theme: 'light', locale: 'ja' }, { cancel: true });
  await waitFor(async () => /アシスタントが停止しました/.test(await panelText(frame)), 'the cancelled note');
  assert.deepEqual(await axe(frame), [], 'axe inside the iframe');
  await harness.unmount();
});

it('Arabic: the panel reads right to left, in Arabic, and axe finds nothing', async () => {
  const frame = await harness.mount('bare', await harness.show(smallModel()), { theme: 'dark', locale: 'ar' });
  await waitFor(async () => /تجاهل/.test(await panelText(frame)), 'the Arabic Dismiss');
  assert.deepEqual(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), ['ar', 'rtl']);
  assert.deepEqual(await axe(frame), [], 'axe inside the iframe');
  await harness.unmount();
});

it('a host that declared no MCP Apps but renders the app: the panel says the question is asked another way', async () => {
  // The server answered as it answers such a host: the panel as text for the model to ask in chat.
  const result = { content: [{ type: 'text' as const, text: 'This client cannot show the panel, so ask the person in chat instead.' }] };
  const frame = await harness.mount('bare', { input: { model: smallModel() }, result }, { theme: 'light', locale: 'de' });
  await waitFor(async () => /auf anderem Weg/.test(await panelText(frame)), 'the German note');
  assert.deepEqual(await axe(frame), [], 'axe inside the iframe');
  assert.equal(await frame.evaluate(() => document.body.dataset['phase']), 'elsewhere');
  await harness.unmount();
});

/** Records layout shifts, what the panel's status says, and when its first block shows (a string: no bundler helpers). */
const INSTRUMENT = `
  const w = window;
  Object.assign(w, { __shifts: [], __said: [], __firstBlock: 0, __emptyFirst: false, __previewSaid: false });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) w.__shifts.push({ t: e.startTime, v: e.value });
  }).observe({ type: 'layout-shift', buffered: true });
  let said = '';
  // What the status says is read on every change of the page (a MutationObserver, so a word that
  // shows for less than a frame on a busy machine is still seen) and on every frame.
  function read() {
    const region = document.querySelector('main p.quiet[role="status"]');
    const status = (region?.textContent || '').trim();
    const preview = document.querySelector('task-surface-view[preview]');
    // The preview's live region is in the page, empty, before its words arrive (else it may not be announced).
    if (region && preview && status === '' && !w.__previewSaid) w.__emptyFirst = true;
    if (preview && status !== '') w.__previewSaid = true;
    if (status !== said && status !== '') w.__said.push(status);
    said = status;
    if (!w.__firstBlock && preview?.shadowRoot?.querySelector('[part~="block"]')) w.__firstBlock = performance.timeOrigin + performance.now();
  }
  new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  (function frame() {
    read();
    requestAnimationFrame(frame);
  })();
`;

it('a streamed call: a read-only preview from tool-input-partial that becomes the panel without moving; axe finds nothing', async () => {
  const call = await harness.show(maximalModel());
  const text = JSON.stringify(call.input);
  const frame = await harness.stream('bare', { theme: 'light', locale: 'en' });
  await frame.evaluate(INSTRUMENT);
  // 200 characters every 50 ms, 20 times a model's 50 tokens a second: the maximal model's stream
  // would take 16 s at this pace (324 s at the model's); the first 8000 characters are streamed.
  const PIECE = 200;
  const EVERY = 50;
  const streamMs = (text.length / PIECE) * EVERY;
  const started = Date.now();
  for (let end = PIECE; end < 8000; end += PIECE) {
    await harness.partial(parse(text.slice(0, end)) as Record<string, unknown>);
    await new Promise((resolve) => setTimeout(resolve, EVERY));
  }
  await waitFor(() => frame.evaluate(() => document.body.dataset['phase'] === 'preview'), 'the preview');
  const firstBlock = (await frame.evaluate('window.__firstBlock')) as number;
  assert.ok(firstBlock > 0, 'a block showed');
  const share = (firstBlock - started) / streamMs;
  process.stdout.write(
    `# MCP view preview: first block at ${Math.round(firstBlock - started)} ms, ${(share * 100).toFixed(1)} % of the ${streamMs} ms stream\n`,
  );
  assert.ok(share <= 0.1, `the first block within 10 % of the stream time: ${(share * 100).toFixed(1)} %`);

  // Read-only: no Submit or Dismiss to see or reach, fields disabled, focus not moved; axe finds nothing.
  const state = await frame.evaluate(() => {
    const view = document.querySelector('task-surface-view')!;
    const actions = view.shadowRoot!.querySelector('[part="actions"]') as HTMLElement;
    return {
      inert: actions.inert,
      hidden: getComputedStyle(actions).visibility,
      enabled: [...view.shadowRoot!.querySelectorAll('input, textarea, [role="radio"], [role="switch"]')].filter(
        (c) => !(c as HTMLInputElement).disabled && c.getAttribute('aria-disabled') !== 'true',
      ).length,
      focus: document.activeElement === document.body || document.activeElement === null,
    };
  });
  assert.deepEqual(state, { inert: true, hidden: 'hidden', enabled: 0, focus: true }, 'the preview is read-only and takes no focus');
  assert.deepEqual(await axe(frame), [], 'axe inside the iframe, the preview');
  assert.equal(await frame.evaluate(() => document.body.dataset['phase']), 'preview', 'axe ran on the preview');

  const completedAt = (await frame.evaluate(() => performance.now())) as number;
  await harness.complete(call);
  await waitFor(() => frame.evaluate(() => document.body.dataset['phase'] === 'open'), 'the panel');
  await new Promise((resolve) => setTimeout(resolve, 600)); // layout shifts are reported a moment after they happen
  const seen = (await frame.evaluate('({ shifts: __shifts, said: __said, emptyFirst: __emptyFirst })')) as {
    shifts: { t: number; v: number }[];
    said: string[];
    emptyFirst: boolean;
  };
  const shift = seen.shifts.filter((e) => e.t >= completedAt - 50).reduce((sum, e) => sum + e.v, 0);
  process.stdout.write(`# MCP view preview: layout shift when it became the panel ${shift.toFixed(4)}\n`);
  assert.ok(shift <= 0.05, `layout shift when the preview became the panel: ${shift}`);
  // "Preparing the panel…" until the title is whole, then the preview's status, each said once.
  assert.deepEqual(
    seen.said,
    ['Preparing the panel…', 'The agent is still writing this panel. You can read it; you can answer once it is complete.'],
    'what the status said',
  );
  assert.ok(seen.emptyFirst, 'the live region was in the page before its words');
  assert.equal(await frame.evaluate(() => document.querySelector('task-surface-view')!.hasAttribute('preview')), false);
  await harness.unmount();
});

it('the panel fetches nothing: every request is the harness page, its bridge or the proxy', () => {
  const unexpected = harness.requests.filter(
    (url) => !/\/(bridge\.js|sandbox\.html)?$/.test(new URL(url).pathname) && !url.startsWith('about:'),
  );
  assert.deepEqual(unexpected, []);
});
