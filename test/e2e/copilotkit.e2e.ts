// The AG-UI example's page in CopilotKit, in real Chromium: CopilotKit's React chat (CopilotChat,
// its HttpAgent as a self-managed agent, @copilotkit/react-core 1.74 from examples/copilotkit/'s own
// install) over the adapter's routes and the demo Host (its scripted agent). The Dock and the card are
// the package's unchanged elements, rendered from the panel's and the card's activities. The panel is
// answered by keyboard; a double click, a reload mid-way and a retried run each leave exactly one user
// message per answer; Dismiss starts no run and adds no message; typing bypasses; axe finds nothing in
// the whole page (CopilotKit's chat included: the page names its icon buttons); no page or console
// error (the CSP's included: zod runs jitless before CopilotKit's modules).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { COPILOTKIT_INSTALL, startAgUiDemo, type AgUiDemo } from '../../demo/ag-ui/server.js';
import type { SessionId } from '../../protocol/index.js';
import { axe, watchProblems } from './ai-sdk-harness.js';
import { sharedChromium, type SharedChromium } from './harness.js';

const TITLE = 'Pick a database for the ledger service';

describe('Inside a CopilotKit app (CopilotChat + the adapter, examples/copilotkit)', () => {
  let browser: Browser;
  let chromium: SharedChromium | undefined;
  let demo: AgUiDemo;
  let dataDir: string;
  before(async () => {
    // Not skipped when missing: the example's own install is part of the test's setup (`npm test` runs it first: scripts/ensure-examples.mjs).
    assert.ok(
      existsSync('examples/copilotkit/node_modules/@copilotkit/react-core'),
      `examples/copilotkit/node_modules is missing: run \`${COPILOTKIT_INSTALL}\``,
    );
    dataDir = mkdtempSync(join(tmpdir(), 'ts-copilotkit-e2e-'));
    // The agent thinks a while before each answer, so a reload can land while a turn runs.
    demo = await startAgUiDemo({ dataDir, thinkMs: 250, page: 'copilotkit' });
    chromium = await sharedChromium();
    browser = chromium.browser;
  });
  after(async () => {
    await chromium?.close();
    await demo?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers by keyboard once through a double click, a reload and a retried run; dismisses without a run; bypasses', async (t) => {
    const page = await browser.newPage();
    t.after(() => page.close());
    const problems = watchProblems(page);
    const runs: string[] = [];
    const dismissals: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'POST' && path === '/api/ag-ui') runs.push(request.postData() ?? '');
      if (request.method() === 'POST' && path === '/api/ag-ui/dismiss') dismissals.push(request.postData() ?? '');
    });
    await page.goto(`${demo.url}/`);
    await page.locator('body[data-ready]').waitFor();
    const threadId = (await page.evaluate(
      async () => ((await (await fetch('/api/thread')).json()) as { threadId: string }).threadId,
    )) as SessionId;
    const log = async () => (await demo.demo.host.readLog(threadId, { limit: 1000 })).events;
    const userMessages = async () => (await log()).filter((e) => e.type === 'user/message');
    const answers = async () => (await userMessages()).filter((e) => e.type === 'user/message' && e.source.taskSurface !== undefined);
    const dock = page.locator('task-surface-dock');
    const heading = dock.getByRole('heading', { name: TITLE });
    const composer = page.getByRole('textbox', { name: 'Message' });
    const say = async (text: string) => {
      await composer.fill(text);
      await composer.press('Enter');
    };
    const panelLine = (status: string) => page.locator('.ts-closed').filter({ hasText: `${TITLE}: ${status}` });
    const assistantSaid = (text: RegExp) => page.locator('[data-testid="copilot-assistant-message"]').filter({ hasText: text });
    const userSaid = (text: RegExp) => page.locator('[data-testid="copilot-user-message"]').filter({ hasText: text });

    // The agent's show_task_surface call arrives as the panel's activity: CopilotChat renders the Dock.
    await say('compare databases');
    await heading.waitFor();
    assert.deepEqual(await axe(page), [], 'axe with the panel open');

    // By keyboard: the radio group's arrows, Tab to the text, Enter on the button, twice at once.
    await dock.getByRole('radio', { name: /PostgreSQL/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('multi-region');
    const send = dock.getByRole('button', { name: 'Use this database' });
    await send.focus();
    const before = runs.length;
    await Promise.all([page.keyboard.press('Enter'), page.keyboard.press('Enter')]);
    await assistantSaid(/Here is what I got/).waitFor();
    await panelLine('submitted').waitFor();
    assert.equal(runs.length - before, 1, 'one run for the answer pressed twice');
    assert.equal((await answers()).length, 1, 'one user message for the answer');
    assert.equal(await userSaid(/multi-region/).count(), 1, 'one user message on the page');
    assert.match((await answers())[0]!.text, /CockroachDB/);
    const card = page.locator('action-card').first();
    const schedule = card.getByRole('button', { name: 'Schedule' });
    await schedule.waitFor();
    assert.deepEqual(await axe(page), [], 'axe with the card');

    // The card's button by keyboard: one decision through the act route, no run, no message.
    const [runsAtCard, messagesAtCard] = [runs.length, (await userMessages()).length];
    await schedule.focus();
    await page.keyboard.press('Enter');
    await card
      .getByText(/Scheduled/i)
      .first()
      .waitFor();
    const decisions = (await log()).filter((e) => e.type === 'action-cards/decision');
    assert.deepEqual(
      decisions.map((e) => e.type === 'action-cards/decision' && e.phase),
      ['scheduled'],
      'one decision recorded',
    );
    assert.equal(runs.length, runsAtCard, 'the act started no run');
    assert.equal((await userMessages()).length, messagesAtCard, 'the act added no message');

    // A retried run (the same input posted again): nothing is added.
    const answerRun = runs.at(-1)!;
    const messagesBefore = (await userMessages()).length;
    const retried = await page.evaluate(async (body) => {
      const response = await fetch('/api/ag-ui', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return response.text();
    }, answerRun);
    assert.match(retried, /RUN_FINISHED/);
    assert.doesNotMatch(retried, /TEXT_MESSAGE_START/, 'the retried run brings nothing new');
    assert.doesNotMatch(retried, /pendingToolCallIds/, 'the routes leave the outcome bare for CopilotKit');
    assert.equal((await userMessages()).length, messagesBefore, 'the retried run adds no message');

    // A reload mid-way: the panel is open again, and a double click then sends one message.
    await say('compare them again');
    await heading.waitFor();
    await page.reload();
    await page.locator('body[data-ready]').waitFor();
    await heading.waitFor();
    await assistantSaid(/Here is what I got/).waitFor();
    assert.equal(await assistantSaid(/Here is what I got/).count(), 1, 'the transcript came back with the thread');
    await dock.getByRole('radio', { name: /SQLite/ }).click();
    await send.dblclick();
    // Once the Host has the answer, the page reloads while the agent is still thinking about it.
    while ((await answers()).length < 2) await page.waitForTimeout(20);
    assert.equal(await assistantSaid(/Going with/).count(), 1, 'the reply to this answer is not in yet');
    await page.reload();
    await page.locator('body[data-ready]').waitFor();
    await panelLine('submitted').nth(1).waitFor();
    await assistantSaid(/Going with/)
      .nth(1)
      .waitFor();
    assert.equal(await assistantSaid(/Going with/).count(), 2, 'the reply arrived after the reload');
    assert.equal((await answers()).length, 2, 'one more user message for the double click and the reload');
    assert.equal(await userSaid(/SQLite/).count(), 1);

    // Dismiss: the panel closes, no run, no message.
    await say('compare databases once more');
    await heading.waitFor();
    const [runsBefore, countBefore] = [runs.length, (await userMessages()).length];
    await dock.getByRole('button', { name: 'Dismiss' }).click();
    await panelLine('dismissed').waitFor();
    assert.equal(await heading.count(), 0);
    assert.equal(runs.length, runsBefore, 'Dismiss started no run');
    assert.equal(dismissals.length, 1, 'one dismissal request');
    assert.equal((await userMessages()).length, countBefore, 'no user message for a dismissal');

    // Typing instead of answering bypasses the open panel.
    await say('compare databases one last time');
    await heading.waitFor();
    await say('never mind, any of them');
    await panelLine('bypassed').waitFor();
    assert.equal(await heading.count(), 0);
    assert.equal((await answers()).length, 2, 'still one user message per answer');
    assert.deepEqual(await axe(page), [], 'axe at the end');
    assert.deepEqual(problems(), [], 'no page or console error in any state');
  });
});
