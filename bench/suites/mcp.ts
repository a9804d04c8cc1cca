// The MCP app document: its gzip size (aim: at most 60 KB), and the time from the host handing the
// view a tool result to the first rendered, answerable panel in the AppBridge harness (bare
// sandboxed iframe, the server's read included), against rendering the same model with
// task-surface-view in a plain page of the same browser.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { everyKindModel } from '../../fixtures/models.js';
import { panelDocumentPath } from '../../mcp/document.js';
import { CHROMIUM_ARGS, startMcpHarness } from '../../fixtures/mcp/harness.js';
import { median } from '../stats.js';
import { componentsPage } from './render.js';

const RUNS = 9;
const AIM_GZIP = 60 * 1024;
// The time (epoch ms) of the first animation frame at which the panel is answerable, taken in the
// frame itself: waiting for it and reading it back costs Playwright round trips a person never sees.
const rendered = `(() => { const v = document.querySelector('task-surface-view'); return !!v && !!v.shadowRoot && !!v.shadowRoot.querySelector('h1, h2') && !v.hasAttribute('disabled') && performance.timeOrigin + performance.now(); })()`;

export default {
  title: 'MCP app document (size; tool result → first answerable panel in the AppBridge harness)',
  async run() {
    const browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const harness = await startMcpHarness(browser); // builds the document when it is missing or stale
    const html = readFileSync(panelDocumentPath()!, 'utf8');
    const gzip = gzipSync(html, { level: 9 }).length;
    const size = `${(gzip / 1024).toFixed(1)} KB gzip (${(html.length / 1024).toFixed(0)} KB raw; aim ≤ ${AIM_GZIP / 1024} KB: ${gzip <= AIM_GZIP ? 'met' : 'over'})`;
    console.log(`app document: ${size}`);

    try {
      const model = everyKindModel();
      const inHost: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const call = await harness.show(model);
        // No usable input: the panel waits for the result, as the figure says.
        const frame = await harness.mount('bare', { input: {}, result: call.result }, { theme: 'light', locale: 'en' });
        const end = (await (await frame.waitForFunction(rendered, undefined, { polling: 'raf' })).jsonValue()) as number;
        const start = (await harness.page.evaluate('window.resultSentAt')) as number;
        inHost.push(end - start);
      }
      const page = await componentsPage(
        browser,
        '<!doctype html><html lang="en"><body><main id="stage"></main><script type="module" src="/bundle.js"></script></body></html>',
      );
      const plain: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        plain.push(
          await page.evaluate(async (m) => {
            const stage = document.getElementById('stage')!;
            stage.replaceChildren();
            const start = performance.now();
            const view = document.createElement('task-surface-view') as HTMLElement & { model: unknown; updateComplete: Promise<unknown> };
            view.model = m;
            stage.append(view);
            await view.updateComplete;
            await new Promise((r) => requestAnimationFrame(r));
            return performance.now() - start;
          }, model),
        );
      }
      await page.close();
      const host = median(inHost);
      const base = median(plain);
      const ratio = `${(host / base).toFixed(1)}× a plain page (${host.toFixed(0)} ms vs ${base.toFixed(0)} ms, medians of ${RUNS})`;
      console.log(`tool result → first answerable panel in the harness: ${ratio}`);
      return { 'MCP app document': size, 'MCP tool result → panel': ratio };
    } finally {
      await harness.close();
      await browser.close();
    }
  },
};
