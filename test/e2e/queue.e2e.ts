import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mintMessageId, mintRpcId } from '../../protocol/index.js';
import { admitNext, claimNext, dock, dockState, rowStatus, say, e2eSuite, surfaceAnswers, until } from './harness.js';

const suite = e2eSuite();

/** A demo whose host admits rows only when the test says so, with the compare surface open. */
async function openCompare() {
  const demo = await suite.start({ autoAdmit: false });
  const page = await demo.open();
  await say(page, 'compare databases');
  await admitNext(demo);
  await dockState(page, 'editing');
  await dock(page)
    .getByRole('radio', { name: /SQLite/ })
    .click();
  return { demo, page };
}
const status = (page: import('playwright-core').Page) => dock(page).locator('.status');

describe('Submission lifecycle through the queue', () => {
  it('goes queued → claiming → closed, and the Dock stays locked until the answer is durable', async () => {
    const { demo, page } = await openCompare();
    // Record every Dock state from here on: there must be no editable gap after submitting.
    await page.evaluate(() => {
      const el = document.querySelector('demo-chat-app')!.shadowRoot!.querySelector('task-surface-dock')!;
      const seen: string[] = ((window as unknown as { __dockStates: string[] }).__dockStates = []);
      new MutationObserver(() => seen.push(el.getAttribute('state') ?? '')).observe(el, { attributes: true, attributeFilter: ['state'] });
    });
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await status(page).filter({ hasText: 'Waiting for the agent to pick it up' }).waitFor();
    await page.locator('demo-chat-app .queued').filter({ hasText: 'from the panel' }).waitFor();
    assert.equal(await dock(page).getByRole('button', { name: 'Dismiss' }).isDisabled(), true);
    const claim = await claimNext(demo);
    await status(page).filter({ hasText: 'The agent is reading your answer' }).waitFor();
    await page.locator('demo-chat-app .queued').waitFor({ state: 'detached' });
    assert.equal(await dock(page).getByRole('button', { name: 'Use this database' }).isDisabled(), true);
    claim.commit();
    await dockState(page, 'hidden');
    await rowStatus(page, 'Submitted');
    const states = await page.evaluate(() => (window as unknown as { __dockStates: string[] }).__dockStates);
    const afterSubmit = states.slice(states.indexOf('submitting'));
    assert.ok(
      afterSubmit.length > 0 && !afterSubmit.includes('editing') && !afterSubmit.includes('rejected'),
      `states: ${states.join(' → ')}`,
    );
    assert.equal(surfaceAnswers(await demo.events()).length, 1);
  });

  it('removing the queued answer restores the editable surface with the values kept', async () => {
    const { demo, page } = await openCompare();
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await page.locator('demo-chat-app .queued').getByRole('button', { name: 'Withdraw answer' }).click();
    await dockState(page, 'editing');
    assert.equal(
      await dock(page)
        .getByRole('radio', { name: /SQLite/ })
        .getAttribute('aria-checked'),
      'true',
    );
    assert.equal(surfaceAnswers(await demo.events()).length, 0);
    await rowStatus(page, 'Open');
  });

  it('offers only Withdraw for a queued panel answer; edit and steer over the wire are refused and the row stays', async () => {
    const { demo, page } = await openCompare();
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    const row = page.locator('demo-chat-app .queued');
    await row.waitFor();
    assert.deepEqual(await row.getByRole('button').allTextContents(), ['Withdraw answer']);
    const itemId = await row.getAttribute('data-item');
    const results = await page.evaluate(
      async ({ sessionId, itemId }) => {
        const { transport } = (window as unknown as { demo: { transport: { session: { updateQueue(r: object): Promise<unknown> } } } })
          .demo;
        return [
          await transport.session.updateQueue({ op: 'steer', sessionId, itemId }),
          await transport.session.updateQueue({ op: 'edit', sessionId, itemId, text: 'something else' }),
        ];
      },
      { sessionId: demo.sessionId, itemId },
    );
    assert.deepEqual(results, [
      { ok: false, reason: 'task-surface-row' },
      { ok: false, reason: 'task-surface-row' },
    ]);
    assert.equal(demo.server.demo.host.getView(demo.sessionId).queue.length, 1);
    await status(page).filter({ hasText: 'Waiting for the agent to pick it up' }).waitFor();
  });

  it('a rejected admission gives the surface back; the retry is admitted once', async () => {
    const { demo, page } = await openCompare();
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    const claim = await claimNext(demo);
    await status(page).filter({ hasText: 'The agent is reading your answer' }).waitFor();
    claim.discard('rejected');
    await dockState(page, 'editing');
    assert.equal(
      await dock(page)
        .getByRole('radio', { name: /SQLite/ })
        .getAttribute('aria-checked'),
      'true',
    );
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await admitNext(demo);
    await dockState(page, 'hidden');
    await page.getByText('Going with SQLite.', { exact: false }).waitFor();
    assert.equal(surfaceAnswers(await demo.events()).length, 1);
  });

  it('a host restart while claiming brings the surface back editable, and nothing is doubled', async () => {
    const { demo, page } = await openCompare();
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await claimNext(demo);
    await status(page).filter({ hasText: 'The agent is reading your answer' }).waitFor();
    await demo.server.restartHost();
    await dockState(page, 'editing');
    assert.equal(
      await dock(page)
        .getByRole('radio', { name: /SQLite/ })
        .getAttribute('aria-checked'),
      'true',
    );
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await admitNext(demo);
    await dockState(page, 'hidden');
    await until(async () => surfaceAnswers(await demo.events()).length === 1);
    await page.getByText('Going with SQLite.', { exact: false }).waitFor();
    assert.equal(surfaceAnswers(await demo.events()).length, 1);
  });

  it('a message refused because the queue is full comes back to the composer with the reason', async () => {
    const demo = await suite.start({ autoAdmit: false });
    const page = await demo.open();
    const host = demo.server.demo.host;
    for (let i = 0; i < 100; i++) {
      await host.session.send({ sessionId: demo.sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: `waiting ${i}` });
    }
    await say(page, 'one too many');
    await page.locator('demo-chat-app .notice').filter({ hasText: 'Too many messages are waiting in this chat' }).waitFor();
    assert.equal(await page.locator('demo-chat-app .composer textarea').inputValue(), 'one too many');
    assert.equal(host.getView(demo.sessionId).queue.length, 100);
  });
});
