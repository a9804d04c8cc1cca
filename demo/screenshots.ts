// Takes the README pictures: `node --import tsx demo/screenshots.ts` writes docs/demo.png (the demo
// chat with a panel in the Dock) and docs/inspector.png (the actors the inspector receives).
// With `--all` it also writes every state at both sizes, themes and languages to dist/screenshots/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { WebSocket } from 'ws';
import { buildDemo } from './build.js';
import { startDemoServer } from './app.js';
import { renderActorsPage, type RelayedEvent } from './inspectPicture.js';
import { captureStates, openAsPage } from './screenshotStates.js';

const root = await buildDemo(mkdtempSync(join(tmpdir(), 'shots-')));
const dataDir = mkdtempSync(join(tmpdir(), 'shots-data-'));
const server = await startDemoServer({ root, store: 'sqlite', dataDir, inspectHost: true });
const relayed: RelayedEvent[] = [];
const relay = new WebSocket(`ws://127.0.0.1:${server.port}/inspect`);
relay.on('message', (data) => relayed.push(JSON.parse(String(data)) as RelayedEvent));
const host = server.demo.host;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
const { welcome: sessionId, asPage } = await openAsPage(server, page);
asPage.openSession({ title: 'Release notes draft' });
asPage.openSession({ title: '发布计划' });
await page.goto(`${server.url}#session=${sessionId}`);
await page.reload();
const say = async (text: string) => {
  await page.locator('demo-chat-app .composer textarea').fill(text);
  await page.keyboard.press('Enter');
  await host.whenIdle(sessionId);
};
await say('reorder the launch plan');
await page.locator('task-surface-dock').getByRole('button', { name: 'Save the order' }).click();
await page.getByText('Plan updated', { exact: false }).waitFor();
await host.whenIdle(sessionId);
await say('compare databases');
const dock = page.locator('task-surface-dock');
await dock.getByRole('radio', { name: /CockroachDB/ }).click();
await dock.getByRole('textbox', { name: /Why this one/ }).fill('We need to survive a region outage.');
await page.locator('action-card').first().waitFor();
// Show the panel from its top, with the choice made, as a person sees it first.
await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
await page.locator('task-surface-dock').evaluate((el) => {
  const body = el.shadowRoot?.querySelector('.body');
  if (body) body.scrollTop = 0;
});
await page.waitForTimeout(300);
await page.screenshot({ path: 'docs/demo.png' });

await page.setViewportSize({ width: 1100, height: 640 });
await page.goto('about:blank');
await page.setContent(renderActorsPage(relayed));
await page.screenshot({ path: 'docs/inspector.png', fullPage: true });

if (process.argv.includes('--all')) {
  const gallery = await startDemoServer({ root, store: 'memory', autoAdmit: false });
  console.log(`wrote ${(await captureStates(browser, gallery)).length} pictures to dist/screenshots/`);
  await gallery.close();
}

relay.close();
await browser.close();
await server.close();
rmSync(root, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
console.log('wrote docs/demo.png and docs/inspector.png');
