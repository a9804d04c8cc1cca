// Every state of the demo page in pictures, for a person to look at: `node --import tsx
// demo/screenshots.ts --all` writes dist/screenshots/<lang>-<theme>-<state>-<width>.png at 1280x800
// and 320x640, in both languages and both themes.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from './app.js';
import { compare } from './agent/scenarios.js';

const SIZES = [
  [1280, 800],
  [320, 640],
] as const;
type Lang = 'en' | 'zh';

const ASK: Record<Lang, { compare: string; plan: string; page: string; hello: string }> = {
  en: { compare: 'compare databases', plan: 'reorder the launch plan', page: 'save this as a page', hello: 'hello' },
  zh: { compare: '比较数据库', plan: '排序发布计划', page: '保存为页面', hello: '你好' },
};

/**
 * Opens the demo in `page` (its browser context gets an identity cookie and a Welcome chat) and
 * returns that chat and the Host as the page's principal, so the pictures' chats are the page's own.
 */
export async function openAsPage(server: DemoServer, page: Page) {
  const host = server.demo.host;
  const known = new Set(host.listSessions().map((s) => s.sessionId));
  await page.goto(server.url);
  await page.locator('demo-chat-app demo-transcript .top').waitFor();
  const welcome = host.listSessions().find((s) => !known.has(s.sessionId));
  if (!welcome) throw new Error('the demo opened no Welcome chat for the page');
  const [opened] = (await host.readLog(welcome.sessionId, { before: 2, limit: 1 })).events;
  if (opened?.type !== 'session/opened') throw new Error('the Welcome chat has no owner');
  return { welcome: welcome.sessionId, asPage: host.as({ id: opened.owner }) };
}

/**
 * Walks one chat per language and theme through the demo's states (an empty chat, a panel open, an
 * answer queued, the answer read back with a card, a dismissed panel, the order field) and takes
 * each at both sizes. The server must not admit by itself (`autoAdmit: false`): the queued state
 * is held still for its picture.
 */
export async function captureStates(browser: Browser, server: DemoServer, outdir = 'dist/screenshots'): Promise<string[]> {
  mkdirSync(outdir, { recursive: true });
  const host = server.demo.host;
  const written: string[] = [];
  for (const lang of ['en', 'zh'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      await context.addInitScript(
        ([l, t]) => {
          localStorage.setItem('demo.lang', l!);
          localStorage.setItem('demo.theme', t!);
        },
        [lang, theme],
      );
      const page = await context.newPage();
      const { asPage } = await openAsPage(server, page);
      const sessionId = asPage.openSession({ title: `${lang === 'zh' ? '账本数据库' : 'Ledger database'} (${theme})` });
      await page.goto(`${server.url}#session=${sessionId}`);
      await page.reload();
      await page.locator('demo-chat-app demo-transcript .top').waitFor();
      const shoot = async (state: string) => {
        for (const [width, height] of SIZES) {
          await page.setViewportSize({ width, height });
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await page.waitForTimeout(150);
          const path = join(outdir, `${lang}-${theme}-${state}-${width}.png`);
          await page.screenshot({ path });
          written.push(path);
        }
      };
      const admit = async () => {
        while (host.getView(sessionId).queue.length === 0) await new Promise((r) => setTimeout(r, 10));
        host.inbox.claimNext(sessionId)!.commit();
        await host.whenIdle(sessionId);
      };
      const say = async (text: string) => {
        await page.locator('demo-chat-app .composer textarea').fill(text);
        await page.keyboard.press('Enter');
        await admit();
      };
      const dock = page.locator('task-surface-dock');
      await shoot('start');
      await say(ASK[lang].page);
      await page.locator('action-card').first().waitFor();
      await say(ASK[lang].compare);
      await page.locator('task-surface-dock[state="editing"]').waitFor({ state: 'attached' });
      await shoot('panel');
      await dock.getByRole('radio').nth(1).click();
      await dock.getByRole('button', { name: compare.model[lang].submit!.label }).click();
      await page.locator('demo-chat-app .queued').waitFor();
      await shoot('queued');
      await admit();
      await page.locator('action-card').nth(1).waitFor();
      await shoot('answered');
      await say(ASK[lang].plan);
      await page.locator('task-surface-dock[state="editing"]').waitFor({ state: 'attached' });
      await shoot('order');
      await dock.getByRole('button', { name: lang === 'zh' ? '关闭任务' : 'Dismiss' }).click();
      await page.locator('task-surface-dock[state="hidden"]').waitFor({ state: 'attached' });
      await say(ASK[lang].hello);
      await shoot('dismissed');
      await context.close();
    }
  }
  return written;
}
