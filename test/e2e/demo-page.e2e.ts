// The demo page as a keyboard, screen-reader and phone user meets it: axe in every theme, language
// and width (with a card and a pending answer on screen), focus after submit and dismiss, the
// transcript's log with speakers, queued rows that offer only what works, the page's look.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { admitNext, dock, dockState, e2eSuite, say } from './harness.js';
import { app, axe, inEveryLook, setLang, setTheme } from './demoPage.js';

const suite = e2eSuite();
/** The focused element through open shadow roots. */
const isComposerFocused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el === document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('.composer textarea');
  });

describe('The demo page (real Chromium, real WebSocket host)', () => {
  it('has no axe violations in both themes, both languages, at 1280 and 320 px, with a card and a pending answer', async () => {
    const demo = await suite.start({ autoAdmit: false });
    const page = await demo.open();
    await say(page, 'save this as a page');
    await admitNext(demo);
    await page.locator('action-card').first().waitFor();
    await say(page, 'compare databases');
    await admitNext(demo);
    await dockState(page, 'editing');
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await app(page).locator('.queued').waitFor();
    await dockState(page, 'pending');
    const found: string[] = [];
    await inEveryLook(page, async (where) => {
      for (const v of await axe(page)) found.push(`${where}: ${v}`);
    });
    assert.deepEqual(found, []);
  });

  it('puts focus back in the composer after a submit and after a dismissal', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    for (const [ask, button] of [
      ['compare databases', 'Use this database'],
      ['review the change', 'Dismiss'],
    ] as const) {
      await say(page, ask);
      await dockState(page, 'editing');
      await dock(page).getByRole('button', { name: button }).focus();
      await page.keyboard.press('Enter');
      await dockState(page, 'hidden');
      await page.waitForFunction(() => document.querySelector('demo-chat-app')?.shadowRoot?.activeElement?.matches('.composer textarea'));
      assert.equal(await isComposerFocused(page), true, `after ${button}`);
    }
    // The agent tells the dismissal from a bypass.
    await say(page, 'hello');
    await page.getByText('You dismissed the panel', { exact: false }).waitFor();
    assert.equal(await page.getByText('instead of using the panel', { exact: false }).count(), 0);
  });

  it('reads the transcript as a log: speakers named, only new agent text announced, no debug chips', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'save this as a page');
    await page.locator('action-card').first().waitFor();
    const log = app(page).locator('demo-transcript [role="log"]');
    assert.equal(await log.count(), 1);
    assert.equal(await log.getAttribute('aria-labelledby'), 'log-title');
    assert.equal(await app(page).locator('demo-transcript h2#log-title').textContent(), 'Conversation');
    const user = log.locator('.row.user').first();
    assert.equal(await user.locator('.speaker').textContent(), 'You:');
    assert.equal(await user.getAttribute('aria-live'), 'off');
    const agent = log.locator('.row.agent:not(.card)').first();
    assert.equal(await agent.locator('.speaker').textContent(), 'Agent:');
    assert.equal(await agent.getAttribute('aria-live'), null, 'new agent text is announced');
    assert.equal(await agent.getAttribute('aria-atomic'), 'true');
    assert.equal(await log.locator('.row.card').getAttribute('aria-live'), 'off', 'the card announces its own status');
    // Headings: the page's h1, the log's h2, then the card's title one level down.
    assert.equal(await log.locator('action-card').getByRole('heading', { level: 3 }).count(), 1);
    // The speaker label is hidden from sight, not from screen readers.
    const box = await user.locator('.speaker').boundingBox();
    assert.ok(box && box.width <= 1 && box.height <= 1);
    for (const chip of ['loaded skill', 'offered a card']) assert.equal(await page.getByText(chip).count(), 0, chip);

    // Reloaded, the same rows are history: nothing is announced.
    await page.reload();
    await app(page).locator('demo-transcript .top').waitFor();
    await log.locator('.row.agent').first().waitFor();
    assert.deepEqual(await log.locator('.row').evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('aria-live')))]), ['off']);

    await setLang(page, '中文');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
    assert.equal(await app(page).locator('demo-transcript').getAttribute('lang'), null, 'the rows inherit zh-Hans');
    assert.equal(await app(page).locator('demo-transcript #log-title').textContent(), '对话记录');
    assert.equal(await log.locator('.row.user .speaker').first().textContent(), '你：');
    assert.equal(await log.locator('.row.agent:not(.card) .speaker').first().textContent(), '助手：');
  });

  it('offers only Withdraw for a queued panel answer, and clears a refusal when its row goes or the chat changes', async () => {
    const demo = await suite.start({ autoAdmit: false });
    const host = demo.server.demo.host;
    const page = await demo.open();
    await say(page, 'compare databases');
    await admitNext(demo);
    await dockState(page, 'editing');
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    const row = app(page).locator('.queued');
    await row.waitFor();
    assert.deepEqual(await row.getByRole('button').allTextContents(), ['Withdraw answer']);
    // "Sent. Waiting for the agent…" is announced: no aria-busy="true" above it.
    const busyAbove = await dock(page)
      .locator('[part~="status"]')
      .evaluate((status) => {
        for (let el: Element | null = status; el; el = el.parentElement ?? (el.getRootNode() as ShadowRoot).host ?? null) {
          if (el.getAttribute('aria-busy') === 'true') return true;
        }
        return false;
      });
    assert.equal(busyAbove, false);
    assert.match((await dock(page).locator('[part~="status"]').textContent()) ?? '', /^Sent\. Waiting for the agent/);
    // At 320 px the pending Dock (status line, wrapped buttons) still leaves the composer on screen.
    await page.setViewportSize({ width: 320, height: 640 });
    const composer = await app(page).locator('.composer').boundingBox();
    assert.ok(composer && composer.y >= 0 && composer.y + composer.height <= 640, JSON.stringify(composer));
    await page.setViewportSize({ width: 1200, height: 900 });
    await row.getByRole('button', { name: 'Withdraw answer' }).focus();
    await page.keyboard.press('Enter');
    await dockState(page, 'editing');
    await row.waitFor({ state: 'detached' });
    assert.equal(await isComposerFocused(page), true, 'focus does not fall to <body> with the row');

    // An ordinary queued message keeps Send now, Edit and Remove.
    await say(page, 'hello there');
    await row.waitFor();
    assert.deepEqual(await row.getByRole('button').allTextContents(), ['Send now', 'Edit', 'Remove']);
    // Keyboard: Edit opens the editor with focus in it; Cancel puts focus back on Edit.
    await row.getByRole('button', { name: 'Edit' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('demo-chat-app')?.shadowRoot?.activeElement?.matches('.queued textarea'));
    await row.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('demo-chat-app')?.shadowRoot?.activeElement?.matches('.queued .edit-button'));
    // A refusal about that row (forced here) is shown, then goes when the row leaves the queue.
    const updateQueue = host.session.updateQueue;
    host.session.updateQueue = async () => ({ ok: false, reason: 'task-surface-row' });
    await row.getByRole('button', { name: 'Send now' }).click();
    const alert = app(page).getByRole('alert');
    await alert.waitFor();
    await admitNext(demo);
    await alert.waitFor({ state: 'detached' });

    // Another refusal, then another chat: it does not follow.
    await say(page, 'one more');
    await row.waitFor();
    await row.getByRole('button', { name: 'Remove' }).click();
    await alert.waitFor();
    host.session.updateQueue = updateQueue;
    await app(page).locator('.new').click();
    await page.waitForFunction((id) => !location.hash.includes(encodeURIComponent(id)), demo.sessionId);
    await app(page).locator('demo-transcript .start').waitFor();
    assert.equal(await alert.count(), 0);
  });

  it('aligns the transcript and the Dock, keeps the first field and the composer on screen, and edges the Dock in dark', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dockState(page, 'editing');
    for (const [width, height] of [
      [1280, 800],
      [320, 640],
    ] as const) {
      await page.setViewportSize({ width, height });
      const edges = await page.evaluate(() => {
        const root = document.querySelector('demo-chat-app')!.shadowRoot!;
        const transcript = root.querySelector('demo-transcript')!;
        const style = getComputedStyle(transcript);
        const t = transcript.getBoundingClientRect();
        const d = root.querySelector('task-surface-dock')!.getBoundingClientRect();
        return { tl: t.left + parseFloat(style.paddingLeft), tr: t.right - parseFloat(style.paddingRight), dl: d.left, dr: d.right };
      });
      assert.ok(Math.abs(edges.tl - edges.dl) <= 1 && Math.abs(edges.tr - edges.dr) <= 1, `${width}px: ${JSON.stringify(edges)}`);
      // The panel's first field and the composer are both on screen.
      for (const box of [await dock(page).getByRole('radio').first().boundingBox(), await app(page).locator('.composer').boundingBox()]) {
        assert.ok(
          box && box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width,
          `${width}px: ${JSON.stringify(box)}`,
        );
      }
    }
    await setTheme(page, /^Dark$/);
    const edge = await dock(page).evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('.base')!).borderTopColor);
    assert.equal(edge, 'rgb(110, 118, 129)', 'a 3:1 edge against the page');
  });

  it('lists every shipped language in its switch; Arabic turns the page right to left', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    const switcher = app(page).locator('select.lang');
    assert.deepEqual(await switcher.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), [
      'en',
      'zh',
      'es',
      'de',
      'ja',
      'ar',
    ]);
    // A language other than English loads as its own chunk: the page takes it when the chunk lands.
    const langAndDir = async (expected: [string, string]) => {
      const read = () => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
      await page
        .waitForFunction(([lang, dir]) => document.documentElement.lang === lang && document.documentElement.dir === dir, expected, {
          timeout: 5_000,
        })
        .catch(() => undefined);
      assert.deepEqual(await read(), expected);
    };
    await switcher.selectOption('ar');
    await langAndDir(['ar', 'rtl']);
    await switcher.selectOption('de');
    await langAndDir(['de', 'ltr']);
  });

  it('needs no CJK or symbol font for the English chrome', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dockState(page, 'editing');
    // The page's own text (not the elements', not what people wrote), minus the switch naming each language in itself.
    const chrome = await page.evaluate(() => {
      const root = document.querySelector('demo-chat-app')!.shadowRoot!;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      let text = '';
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement?.closest('select.lang, .text')) text += node.textContent;
      }
      return text;
    });
    assert.match(chrome, /Task Surface demo/);
    assert.deepEqual(
      [...chrome].filter((c) => !/[\u0020-\u024f\u2010-\u2027\s]/u.test(c)),
      [],
    );
  });

  it("opens a new chat in the page's language, and the panel answer is written in it", async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await setLang(page, '中文');
    await app(page).locator('.new').click();
    await page.waitForFunction((id) => !location.hash.includes(encodeURIComponent(id)), demo.sessionId);
    const sessionId = decodeURIComponent(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('session') ?? ''));
    assert.equal(demo.server.demo.store.getSession(sessionId as typeof demo.sessionId)?.locale, 'zh');
    await app(page).locator('demo-transcript .start').waitFor();
    await say(page, '比较数据库');
    await dockState(page, 'editing');
    await dock(page).getByRole('button', { name: '使用这个数据库' }).click();
    await dockState(page, 'hidden');
    const answer = (await demo.events(sessionId as typeof demo.sessionId)).find((e) => e.type === 'user/message' && e.source.taskSurface);
    assert.ok(
      answer?.type === 'user/message' && !answer.text.includes('(empty)') && /数据库/.test(answer.text),
      answer?.type === 'user/message' ? answer.text : '',
    );
  });

  it('shows dates in the Chinese format in Chinese', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await setLang(page, '中文');
    await say(page, '提醒我跟进');
    const card = page.locator('action-card').first();
    await card.getByRole('button', { name: '安排' }).click();
    await card
      .locator('time')
      .getByText(/^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/)
      .waitFor();
  });
});
