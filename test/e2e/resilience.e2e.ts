import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SubmitTaskSurfaceRequest, SubmitTaskSurfaceResult } from '../../protocol/index.js';
import { dock, dockState, e2eSuite, rowStatus, say, surfaceAnswers, until, type Demo } from './harness.js';

const suite = e2eSuite();

/** Holds the host's submit calls until released, counting them. */
function holdSubmit(d: Demo) {
  const service = d.server.demo.host.taskSurface;
  const original = service.submit.bind(service);
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (arrived = r));
  const counter = { calls: 0, reached, release: () => release() };
  service.submit = async (input: SubmitTaskSurfaceRequest): Promise<SubmitTaskSurfaceResult> => {
    counter.calls++;
    arrived();
    await gate;
    return original(input);
  };
  return counter;
}

describe('Resilience: sockets, retries, tabs, reloads, history', () => {
  it('drops the socket mid-submission: the client reconnects, retries, and one answer is admitted', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dock(page)
      .getByRole('radio', { name: /CockroachDB/ })
      .click();
    const held = holdSubmit(demo);
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await held.reached;
    await page.evaluate(() => {
      const w = window as unknown as { __status: string[]; demo: { transport: import('../../transport/ws/client.js').WebSocketTransport } };
      w.__status = [];
      w.demo.transport.onStatus((status) => w.__status.push(status));
    });
    demo.server.ws.dropConnections();
    // The page noticed the drop (it shows "Reconnecting…" meanwhile); the answer comes after.
    await until(async () => (await page.evaluate(() => (window as unknown as { __status: string[] }).__status)).includes('closed'));
    held.release();
    await dockState(page, 'hidden');
    await page.getByText('Going with CockroachDB.', { exact: false }).waitFor();
    assert.equal(surfaceAnswers(await demo.events()).length, 1);
    assert.equal(held.calls, 1, 'the retried request joined the first call instead of running again');
    assert.deepEqual((await page.evaluate(() => (window as unknown as { __status: string[] }).__status)).slice(-1), ['open']);
  });

  it('double submit: a double click and a repeated submissionId admit one message', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'reorder the launch plan');
    await dock(page).getByRole('button', { name: 'Save the order' }).dblclick();
    await dockState(page, 'hidden');
    await say(page, 'review the change');
    await dockState(page, 'editing');
    const [a, b] = await page.evaluate(async (sessionId) => {
      const t = (window as unknown as { demo: { transport: import('../../transport/types.js').HostTransport } }).demo.transport;
      const view = await new Promise<import('../../protocol/index.js').SessionView>((resolve) => {
        const stop = t.watchSession(sessionId as never, (v) => {
          if (v.taskSurface.active) {
            resolve(v);
            queueMicrotask(stop);
          }
        });
      });
      const input = {
        sessionId: sessionId as never,
        surfaceId: view.taskSurface.active!.surfaceId,
        submissionId: 'double-1' as never,
        values: { approve: true, backport: false, comment: 'ship it' },
      };
      return Promise.all([t.taskSurface.submit(input), t.taskSurface.submit(input)]);
    }, demo.sessionId);
    assert.equal(a.accepted, true, JSON.stringify(a));
    assert.deepEqual(a, b);
    await page.getByText('Approved', { exact: false }).waitFor();
    assert.equal(surfaceAnswers(await demo.events()).length, 2, 'one per surface');
  });

  it('two sessions in two tabs: surfaces, drafts and answers stay in their own session', async () => {
    const demo = await suite.start();
    const other = demo.server.demo.host.as(demo.principal).openSession({ title: 'Second chat' });
    const tabA = await demo.open();
    const tabB = await demo.open(other);
    await say(tabA, 'compare databases');
    await dock(tabA)
      .getByRole('textbox', { name: /Why this one/ })
      .fill('draft in A');
    await dockState(tabB, 'hidden');
    await say(tabB, 'review the change');
    await dock(tabB).getByRole('heading', { name: 'Review: retry with back-off' }).waitFor();
    await dock(tabB).getByRole('switch', { name: 'Approve this change' }).click();
    await dock(tabB).getByRole('button', { name: 'Send review' }).click();
    await dockState(tabB, 'hidden');
    await dock(tabA).getByRole('heading', { name: 'Pick a database for the ledger service' }).waitFor();
    assert.equal(
      await dock(tabA)
        .getByRole('textbox', { name: /Why this one/ })
        .inputValue(),
      'draft in A',
    );
    assert.equal(await tabA.locator('task-surface-toolview').count(), 1);
    assert.equal(surfaceAnswers(await demo.events()).length, 0);
    assert.equal(surfaceAnswers(await demo.events(other)).length, 1);
    assert.equal(await tabB.getByText('Pick a database').count(), 0);
  });

  it('a draft survives a page reload', async () => {
    const demo = await suite.start();
    const page = await demo.open();
    await say(page, 'compare databases');
    await dock(page)
      .getByRole('radio', { name: /SQLite/ })
      .click();
    await dock(page)
      .getByRole('textbox', { name: /Why this one/ })
      .fill('fast and simple');
    await until(() => page.evaluate(() => JSON.stringify(localStorage).includes('fast and simple')));
    await page.reload();
    await dockState(page, 'editing');
    assert.equal(
      await dock(page)
        .getByRole('textbox', { name: /Why this one/ })
        .inputValue(),
      'fast and simple',
    );
    assert.equal(
      await dock(page)
        .getByRole('radio', { name: /SQLite/ })
        .getAttribute('aria-checked'),
      'true',
    );
  });

  it('recovers a surface whose row is outside the loaded history window', async () => {
    const demo = await suite.start();
    const host = demo.server.demo.host;
    const first = await demo.open();
    await say(first, 'notification settings');
    await dockState(first, 'editing');
    await first.close();
    // Sixty later events that do not close the surface push its row out of the newest page.
    for (let i = 0; i < 60; i++) host.plugins.append(demo.sessionId, { type: 'action-cards/notice', through: 1, text: `status ${i}` });
    const page = await demo.open();
    await dock(page).getByRole('heading', { name: 'Notification settings' }).waitFor();
    await dockState(page, 'editing');
    assert.equal(await page.locator('task-surface-toolview').count(), 0);
    await page.getByRole('button', { name: 'Load earlier messages' }).click();
    await rowStatus(page, 'Open');
    await dock(page).getByRole('button', { name: 'Save settings' }).click();
    await dockState(page, 'hidden');
    await rowStatus(page, 'Submitted');
  });
});
