// The AG-UI example in real Chromium: @ag-ui/client's HttpAgent on the page, the adapter's routes over
// the demo Host (its scripted agent) on the server. The panel is answered by keyboard; a double
// click, a reload mid-way and a retried run each leave exactly one user message per answer; Dismiss
// starts no run and adds no message; typing bypasses; axe finds nothing; no page or console error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAgUiDemo, type AgUiDemo } from '../../demo/ag-ui/server.js';
import type { SessionId } from '../../protocol/index.js';
import { axe, watchProblems } from './ai-sdk-harness.js';
import { sharedChromium, type SharedChromium } from './harness.js';

const TITLE = 'Pick a database for the ledger service';

describe('Inside an AG-UI app (HttpAgent + the adapter, the example)', () => {
  let browser: Browser;
  let chromium: SharedChromium | undefined;
  let demo: AgUiDemo;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ts-ag-ui-e2e-'));
    // The agent thinks a while before each answer, so a reload can land while a turn runs.
    demo = await startAgUiDemo({ dataDir, thinkMs: 250 });
    chromium = await sharedChromium();
    browser = chromium.browser;
  });
  after(async () => {
    await chromium?.close();
    await demo?.close();
    rmSync(dataDir, { recursive: true, force: true });
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
    const transcriptLine = (text: string | RegExp) => page.locator('#transcript li').filter({ hasText: text });

    // The agent's show_task_surface call arrives as the panel's activity: the Dock opens.
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
    await page.getByText(/Here is what I got/).waitFor();
    await transcriptLine(`${TITLE}: submitted`).waitFor();
    assert.equal(runs.length - before, 1, 'one run for the answer pressed twice');
    assert.equal((await answers()).length, 1, 'one user message for the answer');
    assert.equal(
      await page
        .locator('#transcript li.user')
        .filter({ hasText: /multi-region/ })
        .count(),
      1,
      'one user message on the page',
    );
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
    assert.equal((await userMessages()).length, messagesBefore, 'the retried run adds no message');

    // A reload mid-way: the panel is open again, and a double click then sends one message.
    await say('compare them again');
    await heading.waitFor();
    await page.reload();
    await page.locator('body[data-ready]').waitFor();
    await heading.waitFor();
    assert.equal(await transcriptLine(/Here is what I got/).count(), 1, 'the transcript came back with the thread');
    await dock.getByRole('radio', { name: /SQLite/ }).click();
    await send.dblclick();
    // Once the Host has the answer, the page reloads while the agent is still thinking about it.
    while ((await answers()).length < 2) await page.waitForTimeout(20);
    assert.equal(await transcriptLine(/Going with/).count(), 1, 'the reply to this answer is not in yet');
    await page.reload();
    await page.locator('body[data-ready]').waitFor();
    await transcriptLine(`${TITLE}: submitted`).nth(1).waitFor();
    assert.equal(await transcriptLine(/Going with/).count(), 2, 'the reply arrived after the reload');
    assert.equal((await answers()).length, 2, 'one more user message for the double click and the reload');
    assert.equal(
      await page
        .locator('#transcript li.user')
        .filter({ hasText: /SQLite/ })
        .count(),
      1,
    );

    // Dismiss: the panel closes, no run, no message.
    await say('compare databases once more');
    await heading.waitFor();
    const [runsBefore, countBefore] = [runs.length, (await userMessages()).length];
    await dock.getByRole('button', { name: 'Dismiss' }).click();
    await transcriptLine(`${TITLE}: dismissed`).waitFor();
    assert.equal(await heading.count(), 0);
    assert.equal(runs.length, runsBefore, 'Dismiss started no run');
    assert.equal(dismissals.length, 1, 'one dismissal request');
    assert.equal((await userMessages()).length, countBefore, 'no user message for a dismissal');

    // Typing instead of answering bypasses the open panel.
    await say('compare databases one last time');
    await heading.waitFor();
    await say('never mind, any of them');
    await transcriptLine(`${TITLE}: bypassed`).waitFor();
    assert.equal(await heading.count(), 0);
    assert.equal((await answers()).length, 2, 'still one user message per answer');
    assert.deepEqual(await axe(page), [], 'axe at the end');
    assert.deepEqual(problems(), [], 'no page or console error in any state');
  });
});
