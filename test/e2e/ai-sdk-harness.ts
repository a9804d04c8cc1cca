// What the AI SDK example's end-to-end tests share: the example on a free port with the scripted
// model and a throwaway data folder, Chromium, and axe over the whole page.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { scriptedModel } from '../../demo/ai-sdk/model.js';
import { startAiSdkDemo, type AiSdkDemo } from '../../demo/ai-sdk/server.js';
import { sharedChromium } from './harness.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core over the whole page, open shadow roots included; one line per violation. */
export async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type Violation = { id: string; nodes: { target: unknown[] }[] };
    const run = (window as unknown as { axe: { run(d: Document, o: object): Promise<{ violations: Violation[] }> } }).axe.run;
    return (await run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${JSON.stringify(n.target)}`));
}

/**
 * Collects every page error and console error of `page` (a blocked `eval` under the example's CSP is
 * one): the tests want none, in every state they pass through. `expected` names the lines a test
 * causes on purpose (the browser's own line for a request it made fail).
 */
export function watchProblems(page: Page, expected: readonly RegExp[] = []): () => string[] {
  const found: string[] = [];
  page.on('pageerror', (error) => found.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error' || expected.some((pattern) => pattern.test(message.text()))) return;
    found.push(`console error: ${message.text()}`);
  });
  return () => [...found];
}

/** The example and this process's Chromium; `close` ends the example, lets go of the browser and removes the data folder. */
export async function startExample(): Promise<{
  demo: AiSdkDemo;
  browser: Browser;
  model: ReturnType<typeof scriptedModel>;
  close(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ts-ai-sdk-e2e-'));
  const model = scriptedModel();
  const demo = await startAiSdkDemo({ model, dataDir });
  const chromium = await sharedChromium();
  return {
    demo,
    browser: chromium.browser,
    model,
    async close() {
      await chromium.close();
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
