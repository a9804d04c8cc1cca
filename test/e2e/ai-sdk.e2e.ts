// The AI SDK example in real Chromium: useChat on the page, streamText with the AI SDK's own
// MockLanguageModelV4 on the server, the app's messages in a JSON file. The panel appears above the
// composer; a hurried double click sends exactly one user message; Dismiss starts no chat request;
// typing bypasses; a reload shows the same state; a failed submission keeps the typed answer; axe
// finds nothing; no page or console error (the example's CSP reports none) in any state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UIMessage } from 'ai';
import type { Browser } from 'playwright-core';
import type { AiSdkDemo } from '../../demo/ai-sdk/server.js';
import { axe, startExample, watchProblems } from './ai-sdk-harness.js';

describe('Inside an AI SDK app (useChat + streamText, the example)', () => {
  let browser: Browser;
  let demo: AiSdkDemo;
  let model: Awaited<ReturnType<typeof startExample>>['model'];
  let close = async () => {};
  before(async () => {
    ({ browser, demo, model, close } = await startExample());
  });
  after(() => close());

  it('shows the panel above the composer, submits once, dismisses without a request, bypasses, and survives a reload', async (t) => {
    const page = await browser.newPage();
    t.after(() => page.close());
    const chatRequests: { message: UIMessage }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/chat') chatRequests.push(request.postDataJSON());
    });
    const problems = watchProblems(page);
    await page.goto(`${demo.url}/?chat=e2e-chat`);
    const persisted = () => demo.store.load('e2e-chat');
    const dock = page.locator('task-surface-dock');
    const composer = page.getByRole('textbox', { name: 'Message' });
    const say = async (text: string) => {
      await composer.fill(text);
      await page.locator('form').getByRole('button', { name: 'Send' }).click();
    };
    const rowStatus = (nth: number, status: string) =>
      page
        .locator('task-surface-toolview')
        .nth(nth)
        .locator('.status')
        .filter({ hasText: new RegExp(`: ${status}$`) })
        .waitFor();

    // The model's show_task_surface call streams to useChat; the Dock opens above the composer.
    await say('plan a trip with a panel');
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    await rowStatus(0, 'Open');
    const [dockBox, formBox] = [await dock.boundingBox(), await page.locator('form').boundingBox()];
    assert.ok(dockBox && formBox && dockBox.y + dockBox.height <= formBox.y + 1, 'the Dock sits above the composer');
    assert.deepEqual(await axe(page), [], 'axe with the panel open');

    // A hurried double click: exactly one user message, in the next request and in the file.
    await dock.getByRole('radio', { name: /The coast/ }).click();
    await dock.getByRole('textbox', { name: /Why/ }).fill('the sea');
    const before = chatRequests.length;
    await dock.getByRole('button', { name: 'Send' }).dblclick();
    await page.getByText(/Thanks, noted: Destination: The coast; Why: the sea/).waitFor();
    await rowStatus(0, 'Submitted');
    const sent = chatRequests.slice(before);
    assert.equal(sent.length, 1, 'one request for the double click');
    const taskSurface = (sent[0]!.message.metadata as { taskSurface: { values: unknown } }).taskSurface;
    assert.deepEqual(taskSurface.values, { place: 'coast', why: 'the sea' });
    const submissions = persisted().filter((m) => m.role === 'user' && (m.metadata as { taskSurface?: unknown })?.taskSurface);
    assert.equal(submissions.length, 1, 'one submission in the persisted messages');

    // Dismiss: the panel closes, the file records it, no chat request and no model call.
    await say('another panel please');
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    const [requests, calls] = [chatRequests.length, model.doStreamCalls.length];
    await dock.getByRole('button', { name: 'Dismiss' }).click();
    await rowStatus(1, 'Dismissed');
    assert.equal(await dock.getByRole('heading', { name: 'Plan the trip' }).count(), 0);
    assert.equal(chatRequests.length, requests, 'Dismiss started no chat request');
    assert.equal(model.doStreamCalls.length, calls, 'Dismiss called no model');
    assert.ok(
      persisted()
        .at(-1)!
        .parts.some((p) => p.type === 'data-task-surface-dismissal'),
      'the dismissal is persisted',
    );

    // Typing instead of answering bypasses the open panel.
    await say('one more panel');
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    await say('never mind, the hills');
    await page.getByText('You said: never mind, the hills.').waitFor();
    await rowStatus(2, 'Answered in chat');
    assert.equal(await dock.getByRole('heading').count(), 0);

    // A reload folds the persisted messages to the same state.
    const bubbles = await page.locator('li').count();
    await page.reload();
    await rowStatus(2, 'Answered in chat');
    await rowStatus(1, 'Dismissed');
    await rowStatus(0, 'Submitted');
    assert.equal(await page.locator('li').count(), bubbles);
    assert.equal(await dock.getByRole('heading').count(), 0, 'no panel after the reload');
    assert.equal(persisted().filter((m) => m.role === 'user').length, 5);
    assert.deepEqual(await axe(page), [], 'axe after the reload');
    assert.deepEqual(problems(), [], 'no page or console error (no CSP violation) in any state');
  });

  it('keeps the typed answer when the submission is refused or fails, through a reload, and sends it once later', async (t) => {
    const page = await browser.newPage();
    t.after(() => page.close());
    const problems = watchProblems(page, [/Failed to load resource: the server responded with a status of 503/]);
    await page.goto(`${demo.url}/?chat=e2e-refused`);
    const dock = page.locator('task-surface-dock');
    const why = dock.getByRole('textbox', { name: /Why/ });
    const rowIs = (status: string) =>
      page
        .locator('task-surface-toolview .status')
        .filter({ hasText: new RegExp(`: ${status}$`) })
        .waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('a panel');
    await page.locator('form').getByRole('button', { name: 'Send' }).click();
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    await dock.getByRole('radio', { name: /The hills/ }).click();
    await why.fill('kept');
    // The server does not take it (an outage here; a refusal answers the same way): nothing is lost.
    // The request is held first: while it runs, the panel is pending and the row is not "Submitted".
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      '**/api/chat',
      async (route) => {
        await held;
        await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"failed"}' });
      },
      { times: 1 },
    );
    await dock.getByRole('button', { name: 'Send' }).click();
    await page.locator('task-surface-dock[state="pending"]').waitFor();
    await rowIs('Open');
    answer();
    await page.locator('task-surface-dock[state="editing"]').waitFor();
    assert.equal(await why.inputValue(), 'kept', 'the typed answer after the failed request');
    assert.equal(
      await page
        .locator('task-surface-toolview .status')
        .filter({ hasText: /Submitted/ })
        .count(),
      0,
      'not shown as submitted',
    );
    await page.reload();
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    assert.equal(await why.inputValue(), 'kept', 'the typed answer after a reload');
    await dock.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/Thanks, noted: Destination: The hills; Why: kept/).waitFor();
    const submissions = demo.store.load('e2e-refused').filter((m) => (m.metadata as { taskSurface?: unknown })?.taskSurface);
    assert.equal(submissions.length, 1, 'one submission, sent once the server takes it');
    assert.deepEqual(problems(), []);
  });

  it('reopens an open panel after a reload, and a retried submission adds nothing', async (t) => {
    const page = await browser.newPage();
    t.after(() => page.close());
    const problems = watchProblems(page);
    await page.goto(`${demo.url}/?chat=e2e-reload`);
    const dock = page.locator('task-surface-dock');
    await page.getByRole('textbox', { name: 'Message' }).fill('a panel');
    await page.locator('form').getByRole('button', { name: 'Send' }).click();
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    await page.reload();
    await dock.getByRole('heading', { name: 'Plan the trip' }).waitFor();
    await dock.getByRole('textbox', { name: /Why/ }).fill('calm');
    await dock.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/Thanks, noted/).waitFor();
    // The server saves the reply when its stream ends (onFinish), a moment after the page shows it.
    const replied = () => JSON.stringify(demo.store.load('e2e-reload').at(-1)?.parts ?? []).includes('Thanks, noted');
    for (let i = 0; i < 100 && !replied(); i++) await page.waitForTimeout(20);
    assert.ok(replied(), 'the reply is saved');
    const messages = demo.store.load('e2e-reload');
    const submission = messages.find((m) => (m.metadata as { taskSurface?: unknown })?.taskSurface)!;
    // The same request again (a network retry): the first answer, nothing appended, no model call.
    const calls = model.doStreamCalls.length;
    const retry = await page.evaluate(
      async (body) => (await fetch('/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
      JSON.stringify({ id: 'e2e-reload', message: submission }),
    );
    assert.equal(retry, 200);
    assert.equal(demo.store.load('e2e-reload').length, messages.length);
    assert.equal(model.doStreamCalls.length, calls);
    assert.deepEqual(problems(), []);
  });
});
