import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dock, dockState, rowStatus, say, e2eSuite, surfaceAnswers } from './harness.js';

const suite = e2eSuite();

describe('Task surface in the demo chat (real Chromium, real WebSocket host)', () => {
  it('shows the surface the agent asked for in the Dock, and a read-only row in the transcript', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dock(page).getByRole('heading', { name: 'Pick a database for the ledger service' }).waitFor();
    const row = page.locator('task-surface-toolview');
    await rowStatus(page, 'Open');
    // Only the Dock edits: one submit button on the page; while open the row only points to the Dock.
    assert.equal(await page.getByRole('button', { name: 'Use this database' }).count(), 1);
    await row.getByText('Answer in the panel below.').waitFor();
    assert.equal(await row.getByRole('button', { name: 'Show the task' }).count(), 0, 'no second copy of the question');
    assert.equal(await row.locator('task-surface-view').count(), 0);
    assert.equal(
      await dock(page)
        .getByRole('radio', { name: /PostgreSQL/ })
        .getAttribute('aria-checked'),
      'true',
    );
  });

  it('edits and submits: one user message, and the agent reads the values back', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dock(page)
      .getByRole('radio', { name: /CockroachDB/ })
      .click();
    await dock(page)
      .getByRole('textbox', { name: /Why this one/ })
      .fill('we need two regions');
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await page.getByText('Going with CockroachDB.', { exact: false }).waitFor();
    await page.getByText('“we need two regions”').waitFor();
    await dockState(page, 'hidden');
    const answers = surfaceAnswers(await demo.events());
    assert.equal(answers.length, 1);
    assert.deepEqual(answers[0]!.type === 'user/message' && answers[0]!.source.taskSurface?.values, {
      database: 'cockroach',
      reason: 'we need two regions',
    });
    await rowStatus(page, 'Submitted');
    // The agent offered a follow-up card under its answer.
    await page.locator('action-card').getByText('Follow up in a week').waitFor();
  });

  it('dismisses: the Dock closes, the row says so, and no turn starts', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'review the change');
    await dock(page).getByRole('button', { name: 'Dismiss' }).click();
    await dockState(page, 'hidden');
    await rowStatus(page, 'Dismissed');
    // Closed, the row offers a read-only replay with no live controls.
    const row = page.locator('task-surface-toolview');
    await row.getByRole('button', { name: 'Show the task' }).click();
    await row.locator('task-surface-view').locator('figure').first().waitFor();
    for (const role of ['radio', 'textbox', 'switch', 'checkbox'] as const)
      assert.equal(await row.getByRole(role).count(), 0, `no ${role} in the row`);
    const events = await demo.events();
    const dismissedAt = events.findIndex((e) => e.type === 'task-surface/dismissed');
    assert.ok(dismissedAt > 0);
    assert.equal(events.slice(dismissedAt).filter((e) => e.type === 'turn/started').length, 0);
  });

  it('a plain message while a surface is open bypasses it', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'notification settings');
    await dock(page).getByRole('heading', { name: 'Notification settings' }).waitFor();
    await say(page, 'never mind, just tell me a joke');
    await page.getByText('You wrote a message instead of using the panel', { exact: false }).waitFor();
    await dockState(page, 'hidden');
    await rowStatus(page, 'Answered in chat');
  });
});
