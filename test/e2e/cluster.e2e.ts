// `npm start -- --workers 3` in Chromium: the page reaches the workers through the round-robin
// balancer; kill -9 of the process that owns the chat leaves the Dock's draft in place, and the
// Dock recovers by itself: its answer is admitted once by the process that took the chat over.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshSchema, startWorkersDemo, type WorkersDemo } from '../cluster/helpers.js';
import { dock, rowStatus, say, setupE2E, type E2E } from './harness.js';

describe('Several host processes: the Dock recovers by itself when its chat’s process is killed', { timeout: 120_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  let demo: WorkersDemo;
  let e2e: E2E;

  before(async () => {
    db = await freshSchema('e2e_workers');
    demo = await startWorkersDemo(db.schema);
    e2e = await setupE2E();
  });
  after(async () => {
    await e2e?.close();
    await demo?.stop();
    await db?.drop();
  });

  it('keeps the draft through a kill -9 of the owner and admits the answer once', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1200, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('[page error]', error.message));
    await page.goto(`http://127.0.0.1:${demo.port}/`);
    await page.locator('demo-chat-app demo-transcript .top').waitFor();
    await say(page, 'compare databases');
    const cockroach = dock(page).getByRole('radio', { name: /CockroachDB/ });
    await cockroach.click();
    await dock(page).getByRole('textbox').first().fill('multi-region matters');

    const q = (sql: string, values: unknown[] = []) => db.pool.query(sql.replaceAll('$schema', `"${db.schema}"`), values);
    const { rows } = await q(
      `SELECT o.session_id, o.owner_id FROM $schema.ts_session_owners o JOIN $schema.ts_events e USING (session_id)
        WHERE e.body LIKE '%compare databases%'`,
    );
    assert.equal(rows.length, 1);
    const { session_id: sessionId, owner_id: ownerId } = rows[0] as { session_id: string; owner_id: string };
    const owner = demo.workers.find((w) => w.workerId === ownerId)!;
    assert.ok(owner, `the owner ${ownerId} is one of ${demo.output()}`);
    // The surface is durable before the kill (the page can show it a moment before the store commits it).
    while (
      (await q(`SELECT 1 FROM $schema.ts_events WHERE session_id = $1 AND body::json ->> 'type' = 'tool/result'`, [sessionId])).rows
        .length === 0
    )
      await new Promise((r) => setTimeout(r, 10));
    process.kill(owner.pid, 'SIGKILL');

    // The page never reloads: the draft is still there, and the Dock submits it once the chat answers again.
    assert.equal(await cockroach.isChecked(), true);
    assert.equal(await dock(page).getByRole('textbox').first().inputValue(), 'multi-region matters');
    await dock(page).getByRole('button', { name: 'Use this database' }).click();
    await rowStatus(page, 'Submitted');

    const answers = await q(
      `SELECT body FROM $schema.ts_events WHERE session_id = $1 AND body::json ->> 'type' = 'user/message'
          AND body::json -> 'source' -> 'taskSurface' IS NOT NULL`,
      [sessionId],
    );
    assert.equal(answers.rows.length, 1, 'admitted once');
    const values = (JSON.parse(answers.rows[0]!.body as string) as { source: { taskSurface: { values: Record<string, unknown> } } }).source
      .taskSurface.values;
    assert.equal(values.database, 'cockroach');
    const now = await q('SELECT owner_id FROM $schema.ts_session_owners WHERE session_id = $1', [sessionId]);
    assert.notEqual(now.rows[0]!.owner_id, ownerId, 'another process took the chat over');
    await context.close();
  });
});
