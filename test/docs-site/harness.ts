// The docs site's end-to-end set-up: the site built once per test file, served by the demo server
// at /docs/ (its CSP and Trusted Types), and pages that record console errors and CSP violations.
import { after, before } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import { buildDocs } from '../../site/build.js';
import { setupE2E, sharedBuild, type E2E } from '../e2e/harness.js';

export interface DocsSite {
  server: DemoServer;
  docsRoot: string;
  e2e: E2E;
  /** A fresh browser context (its own localStorage: light, English), clipboard allowed. */
  context(): Promise<BrowserContext>;
}

export interface DocsPage {
  page: Page;
  /** Console errors, uncaught page errors and CSP / Trusted Types violations so far. */
  problems(): Promise<string[]>;
}

/** The one site of this process, with the number of test files that use it. */
let shared: { site: Promise<DocsSite>; contexts: BrowserContext[]; users: number } | undefined;

async function startSite(contexts: BrowserContext[]): Promise<DocsSite> {
  const e2e = await setupE2E();
  const docsRoot = await sharedBuild('ts-docs-build-', buildDocs); // once per run, as the demo's
  const server = await startDemoServer({ root: e2e.root, docsRoot, store: 'memory' });
  return {
    e2e,
    server,
    docsRoot,
    async context() {
      const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(20_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
      contexts.push(context);
      return context;
    },
  };
}

/**
 * Builds the docs (once per run) and starts the demo server with them and a Chromium: once per
 * process, so the docs files that `npm test` runs in one process share them (scripts/nodeTestPlan.mjs);
 * the last file's `after` closes them. Each test opens a context of its own.
 */
export function docsSuite(): () => DocsSite {
  let site: DocsSite | undefined;
  before(async () => {
    if (!shared) {
      const contexts: BrowserContext[] = [];
      shared = { site: startSite(contexts), contexts, users: 0 };
    }
    shared.users++;
    site = await shared.site;
  });
  after(async () => {
    if (!shared || --shared.users > 0) return;
    const { contexts } = shared;
    shared = undefined;
    for (const context of contexts) await context.close().catch(() => undefined);
    await site?.server.close();
    await site?.e2e.close();
  });
  return () => site!;
}

/** Opens `/docs/<file><hash>` in `context`, recording what went wrong on the page. */
export async function openDocs(site: DocsSite, context: BrowserContext, file: string, hash = ''): Promise<DocsPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  await page.goto(`${site.server.url}docs/${file}${hash}`);
  return {
    page,
    async problems() {
      const violations = page.isClosed() ? [] : await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
      return [...errors, ...violations.map((v) => `CSP: ${v}`)];
    },
  };
}

/**
 * Waits until every live example of an element page is on screen (none loading, none failed) and its
 * API tables are drawn: the API arrives by a fetch of its own, so it may come after the examples.
 */
export async function examplesReady(page: Page): Promise<void> {
  await page.locator('.example').first().waitFor();
  await page.waitForFunction(
    () =>
      document.querySelector('#api-title') !== null ||
      [...document.querySelectorAll('.api [role="alert"]')].some((a) => a.textContent !== 'Loading the API…'),
  );
  const apiFailed = await page.locator('.api [role="alert"]').allTextContents();
  if (apiFailed.length > 0) throw new Error(`the API tables failed: ${apiFailed.join('; ')}`);
  await page.waitForFunction(() => {
    const stages = [...document.querySelectorAll('.example .stage')];
    // No named function in here: tsx would wrap it in a helper the page does not have.
    return (
      stages.length > 0 &&
      stages.every(
        (s) => s.getAttribute('data-state') === 'failed' || (s.getAttribute('data-state') === 'ready' && s.hasAttribute('data-settled')),
      )
    );
  });
  const failed = await page.locator('.stage[data-state="failed"]').allTextContents();
  if (failed.length > 0) throw new Error(`examples failed: ${failed.join('; ')}`);
}

/** Switches the examples' theme with the header's buttons. */
export async function setTheme(page: Page, theme: 'Light' | 'Dark'): Promise<void> {
  await page.locator('#controls .switch button', { hasText: theme }).click();
  await page.waitForTimeout(50); // one frame for the colours
}
