// What the demo page's end-to-end tests share: axe over the whole page, and its switches.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core over the whole page, open shadow roots included; one line per violation and node. */
export async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }).axe.run;
    return (await run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.help}) at ${JSON.stringify(n.target)}: ${n.failureSummary ?? ''}`));
}

export const app = (page: Page) => page.locator('demo-chat-app');
export const setLang = (page: Page, lang: 'EN' | '中文') =>
  app(page)
    .locator('select.lang')
    .selectOption(lang === 'EN' ? 'en' : 'zh');
export const setTheme = (page: Page, theme: RegExp) => app(page).locator('.switch button').filter({ hasText: theme }).click();

/** Runs `check` in every look of the page: 1280×800 and 320×640, English and Chinese, light and dark. */
export async function inEveryLook(page: Page, check: (where: string, lang: 'EN' | '中文') => Promise<void>): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [320, 640],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const lang of ['EN', '中文'] as const) {
      await setLang(page, lang);
      for (const theme of lang === 'EN' ? [/^Light$/, /^Dark$/] : [/^浅色$/, /^深色$/]) {
        await setTheme(page, theme);
        await page.waitForTimeout(50); // one frame for the theme's colours
        await check(`${width}px ${lang} ${theme.source}`, lang);
      }
    }
  }
}
