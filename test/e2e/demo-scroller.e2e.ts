// The transcript's scroller as a keyboard user meets it with a panel open: axe's
// scrollable-region-focusable failed there (a transcript of plain text has nothing to focus).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dockState, e2eSuite, say } from './harness.js';
import { app, axe, inEveryLook, setLang } from './demoPage.js';

const suite = e2eSuite();

describe('The demo transcript with a panel open (real Chromium, real WebSocket host)', () => {
  it('lets the keyboard reach and scroll a transcript longer than the room an open panel leaves', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    const agentRows = app(page).locator('demo-transcript .row.agent');
    // Text only, so nothing inside the transcript can take focus: the state axe failed in.
    const before = await agentRows.count();
    await say(page, 'hello');
    await agentRows.nth(before).waitFor();
    await say(page, 'compare databases');
    await dockState(page, 'editing');
    const scroller = app(page).locator('.scroller');
    const found: string[] = [];
    await inEveryLook(page, async (where, lang) => {
      const name = lang === 'EN' ? 'Messages' : '消息';
      const state = await scroller.evaluate((el) => ({
        scrolls: el.scrollHeight > el.clientHeight,
        focusableInside: el.querySelectorAll('button, a[href], input, textarea, select, [tabindex]').length,
      }));
      assert.deepEqual(state, { scrolls: true, focusableInside: 0 }, where);
      for (const v of await axe(page)) found.push(`${where}: ${v}`);
      if ((await scroller.getAttribute('tabindex')) !== '0') found.push(`${where}: the transcript cannot take focus`);
      if ((await app(page).getByRole('region', { name, exact: true }).count()) !== 1) found.push(`${where}: no region named ${name}`);
    });
    assert.deepEqual(found, []);
    // Keyboard only: Tab from the last switch reaches the transcript; Home, ↓, End and Page Up scroll it.
    await setLang(page, 'EN');
    await app(page).getByRole('button', { name: 'Dark' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await scroller.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el), true, 'the scroller has focus');
    const top = () => scroller.evaluate((el) => el.scrollTop);
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('.scroller')!.scrollTop === 0);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('.scroller')!.scrollTop > 0);
    await page.keyboard.press('End');
    await page.waitForFunction(() => {
      const el = document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('.scroller')!;
      return el.scrollTop >= el.scrollHeight - el.clientHeight - 1;
    });
    const end = await top();
    assert.ok(end > 0);
    await page.keyboard.press('PageUp');
    await page.waitForFunction(
      (end) => document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('.scroller')!.scrollTop < end,
      end,
    );
    // Room enough for the whole transcript: no scrolling, so no Tab stop either.
    await page.setViewportSize({ width: 1280, height: 4000 });
    await page.waitForFunction(
      () => !document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('.scroller')!.hasAttribute('tabindex'),
    );
    assert.equal(await scroller.evaluate((el) => el.scrollHeight > el.clientHeight), false);
  });
});
