import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dock, dockState, e2eSuite, say, surfaceAnswers, type Demo } from './harness.js';

const suite = e2eSuite();

/** The quick-start pages have a bare form: type, send, answer in the Dock. */
async function roundTrip(d: Demo, page: Page) {
  await page.getByRole('textbox', { name: 'Message' }).fill('compare databases');
  await page.getByRole('button', { name: 'Send' }).click();
  await dock(page).getByRole('heading', { name: 'Pick a database for the ledger service' }).waitFor();
  await page.locator('task-surface-toolview').waitFor();
  await dock(page)
    .getByRole('radio', { name: /CockroachDB/ })
    .click();
  await dock(page).getByRole('button', { name: 'Use this database' }).click();
  await dockState(page, 'hidden');
  await page.getByText(/Going with \W*CockroachDB/).waitFor();
  assert.equal(surfaceAnswers(await d.events()).length, 1);
}

describe('Embedding the elements (README quick starts) and the demo chrome', () => {
  it('works in a plain page with the drop-in bundle', async () => {
    const demo = await suite.start();
    const page = await demo.open(demo.sessionId, `/embed/plain?session=${demo.sessionId}`);
    await roundTrip(demo, page);
  });

  it('works in a React page', async () => {
    const demo = await suite.start();
    const page = await demo.open(demo.sessionId, `/embed/react?session=${demo.sessionId}`);
    await roundTrip(demo, page);
  });

  it('switches language and theme, for the page and the elements; a theme never picked is the system’s', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const reload = async () => {
      await page.reload();
      await page.locator('demo-chat-app demo-transcript .top').waitFor();
    };
    assert.equal(await theme(), 'light', 'the system is light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await reload();
    assert.equal(await theme(), 'dark', 'no theme picked: the system’s dark');
    await page.getByRole('button', { name: 'Light', exact: true }).click();
    assert.equal(await theme(), 'light');
    await reload();
    assert.equal(await theme(), 'light', 'a theme picked wins over the system’s');

    await say(page, '比较数据库');
    await dock(page).getByRole('heading', { name: '为账本服务选择数据库' }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
    await dock(page).getByRole('button', { name: '关闭任务' }).waitFor();
    await page.getByRole('button', { name: '深色' }).click();
    assert.equal(await dock(page).getAttribute('theme'), 'dark');
    assert.equal(await theme(), 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await reload();
    await dock(page).getByRole('button', { name: '关闭任务' }).waitFor();
    assert.equal(await theme(), 'dark', 'kept across a reload, whatever the system says');
    assert.equal(await dock(page).getAttribute('theme'), 'dark');
  });

  it('switches sessions without carrying the surface along', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dockState(page, 'editing');
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.locator('demo-chat-app .title').filter({ hasText: 'New chat 2' }).waitFor();
    await dockState(page, 'hidden');
    assert.equal(await page.locator('task-surface-toolview').count(), 0);
    await page.getByRole('button', { name: 'Welcome' }).click();
    await dockState(page, 'editing');
  });

  it('a composer takeover (voice note) hides the Dock and brings the same Dock back with its draft', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dock(page)
      .getByRole('textbox', { name: /Why this one/ })
      .fill('kept while recording');
    await dock(page).evaluate((el) => {
      (el as unknown as { __mark: boolean }).__mark = true;
    });
    await page.getByRole('button', { name: 'Record a voice note' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording…' }).waitFor();
    await dock(page).waitFor({ state: 'hidden' });
    assert.equal(await dock(page).getAttribute('hidden'), '');
    assert.equal(await page.locator('demo-chat-app .composer').count(), 0, 'the composer gave way to the recorder');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await dock(page).getByRole('heading', { name: 'Pick a database for the ledger service' }).waitFor();
    assert.equal(await dock(page).evaluate((el) => (el as unknown as { __mark?: boolean }).__mark), true, 'the same Dock element');
    assert.equal(
      await dock(page)
        .getByRole('textbox', { name: /Why this one/ })
        .inputValue(),
      'kept while recording',
    );
    await dockState(page, 'editing');
  });

  it('?inspect opens the Stately inspector with no policy violations', async () => {
    const demo = await suite.start();
    // The second page this context gets is the inspector window the demo page opens.
    let opened = 0;
    const popup = new Promise<Page>((resolve) =>
      demo!.context.on('page', (p) => {
        if (++opened === 2) resolve(p);
      }),
    );
    const page = await demo.open(demo.sessionId, '/?inspect');
    const inspector = await popup;
    assert.notEqual(inspector, page);
    await say(page, 'compare databases');
    await dockState(page, 'editing');
  });
});
