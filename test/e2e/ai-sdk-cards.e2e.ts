// An action card in the AI SDK example, in real Chromium: the scripted model loads the create-page
// skill and proposes a card; the card acts by keyboard through the app's route; a hurried double
// Enter records one decision, and exactly one decision reaches the model's next request; axe finds
// nothing in light and dark.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { AiSdkDemo } from '../../demo/ai-sdk/server.js';
import { axe, startExample, watchProblems } from './ai-sdk-harness.js';

describe('An action card inside the AI SDK example', () => {
  let browser: Browser;
  let demo: AiSdkDemo;
  let model: Awaited<ReturnType<typeof startExample>>['model'];
  let close = async () => {};
  before(async () => {
    ({ browser, demo, model, close } = await startExample());
  });
  after(() => close());

  for (const scheme of ['light', 'dark'] as const) {
    it(`shows the card, acts once by keyboard, and tells the model once (${scheme})`, async (t) => {
      const page = await browser.newPage({ colorScheme: scheme });
      t.after(() => page.close());
      const problems = watchProblems(page);
      const acts: unknown[] = [];
      const chats: unknown[] = [];
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (request.method() === 'POST' && path === '/api/chat/act') acts.push(request.postDataJSON());
        if (request.method() === 'POST' && path === '/api/chat') chats.push(request.postDataJSON());
      });
      const chatId = `cards-${scheme}`;
      await page.goto(`${demo.url}/?chat=${chatId}`);
      const composer = page.getByRole('textbox', { name: 'Message' });
      // As a person does: write once the last answer has finished (the page ignores Enter while a
      // turn streams, and disables Send to say so), then Enter.
      const say = async (text: string) => {
        await page.locator('form').getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
        await composer.fill(text);
        await composer.press('Enter');
      };
      await say('please save this plan');

      const card = page.locator('action-card');
      await card.getByRole('heading', { name: /Save the plan as a page/ }).waitFor();
      const answer = page.getByText('You can save the plan as a page with the card below.');
      await answer.waitFor();
      const [answerBox, cardBox] = [await answer.boundingBox(), await card.boundingBox()];
      assert.ok(
        answerBox && cardBox && cardBox.y >= answerBox.y + answerBox.height - 1,
        'the card is drawn under the answer it belongs to',
      );
      assert.deepEqual(await axe(page), [], `axe with the card (${scheme})`);

      // Keyboard only: Shift+Tab from the composer reaches the card's button; Enter twice, hurried.
      const create = card.getByRole('button', { name: 'Create page' });
      const focused = () =>
        create.evaluate((button) => {
          let active = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active === button;
        });
      await composer.focus();
      for (let i = 0; i < 12 && !(await focused()); i++) await page.keyboard.press('Shift+Tab');
      assert.ok(await focused(), 'Shift+Tab from the composer reaches the card button');
      const calls = model.doStreamCalls.length;
      const chatRequests = chats.length;
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await card
        .locator('.process')
        .filter({ hasText: /created/i })
        .waitFor();
      assert.ok(acts.length >= 1, 'the action went to the app route');
      assert.equal(chats.length, chatRequests, 'an act starts no chat request');
      assert.equal(model.doStreamCalls.length, calls, 'an act calls no model');
      const phases = () =>
        demo.store
          .load(chatId)
          .flatMap((m) => m.parts)
          .filter((p) => p.type === 'data-action-card-decision')
          .map((p) => (p as { data: { phase: string } }).data.phase);
      assert.deepEqual(phases(), ['creating', 'created'], 'one decision, saved');
      assert.deepEqual(await axe(page), [], `axe after the action (${scheme})`);

      // The next request: exactly one notice, with the card's latest decision once.
      await say('thanks');
      await page.getByText(/You said: thanks/).waitFor();
      const prompt = JSON.stringify(model.doStreamCalls.at(-1)!.prompt);
      assert.equal(prompt.split('Latest status of action cards').length - 1, 1, 'one notice');
      assert.equal(prompt.split('\\"phase\\":\\"created\\"').length - 1, 1, 'one decision');
      await say('and again');
      await page.getByText(/You said: and again/).waitFor();
      assert.ok(!JSON.stringify(model.doStreamCalls.at(-1)!.prompt.at(-1)).includes('Latest status'), 'not reported twice');

      // A reload folds the saved messages: the same card, in the same phase.
      await page.reload();
      await card
        .locator('.process')
        .filter({ hasText: /created/i })
        .waitFor();
      assert.deepEqual(phases(), ['creating', 'created']);
      assert.deepEqual(problems(), [], 'no page or console error (no CSP violation)');
    });
  }
});
