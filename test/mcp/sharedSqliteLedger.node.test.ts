// One SQLite file, two panel ledgers, each over its own connection opened shared (mcp/sharedSqlite.ts),
// as two stdio servers on one data folder have: a panel shown through one is read, answered, marked
// and dismissed through the other, and races (two answers, a read and a confirmation, a dismissal and
// an answer) end one way, seen alike by both. Across real processes: stdioShared.node.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import { openSharedSqlite } from '../../mcp/sharedSqlite.js';
import type { TaskSurfaceSubmissionId } from '../../protocol/index.js';
import { smallModel } from './helpers.js';

function twoLedgers(t: TestContext): [PanelLedger, PanelLedger, (viewId: string) => string[]] {
  const dir = mkdtempSync(join(tmpdir(), 'ts-shared-ledger-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'mcp.db');
  const open = () => {
    const { store, exclusive } = openSharedSqlite(file);
    const ledger = createPanelLedger({ store, exclusive });
    t.after(async () => {
      await ledger.close();
      store.close();
    });
    return { ledger, store };
  };
  const a = open();
  const b = open();
  const types = (viewId: string) =>
    a.store.db
      .prepare<[string], { body: string }>('SELECT body FROM events WHERE session_id = ? ORDER BY seq')
      .all(viewId)
      .map((row) => (JSON.parse(row.body) as { type: string }).type);
  return [a.ledger, b.ledger, types];
}

const answer = (n: number) => ({
  submissionId: `sub_race_${n}` as TaskSurfaceSubmissionId,
  values: { db: n % 2 ? 'pg' : 'sqlite', why: `reason ${n}` },
});

test('a panel shown through one is read, answered and marked through the other', async (t) => {
  const [a, b] = twoLedgers(t);
  const shown = await a.show({ model: smallModel() }, 'model', { record: true });
  assert.ok(shown.ok, shown.content);
  assert.equal((await b.state(shown.viewId)).status, 'open');
  assert.equal((await b.submit(shown.viewId, answer(1))).status, 'submitted');
  const seen = await a.state(shown.viewId);
  assert.ok(seen.status === 'submitted' && seen.submissionId === 'sub_race_1' && !seen.delivered);
  await a.delivered(shown.viewId, 'sub_race_1' as TaskSurfaceSubmissionId);
  const read = await b.state(shown.viewId);
  assert.ok(read.status === 'submitted' && read.delivered && read.channel === 'message');
});

test('two answers at once, one through each: one user message, both read the winner', async (t) => {
  const [a, b, types] = twoLedgers(t);
  for (let round = 0; round < 4; round++) {
    const shown = await a.show({ model: smallModel() }, 'model', { record: true });
    assert.ok(shown.ok, shown.content);
    assert.equal((await a.state(shown.viewId)).status, 'open');
    assert.equal((await b.state(shown.viewId)).status, 'open');
    const [fromA, fromB] = await Promise.all([a.submit(shown.viewId, answer(2 * round)), b.submit(shown.viewId, answer(2 * round + 1))]);
    assert.ok(fromA.status === 'submitted' && fromB.status === 'submitted', `${fromA.status} / ${fromB.status}`);
    assert.equal(fromA.submissionId, fromB.submissionId);
    const stored = types(shown.viewId);
    assert.equal(stored.filter((type) => type === 'user/message').length, 1, stored.join(', '));
  }
});

test('the answer-tool read and the ui/message confirmation race: one channel delivers', async (t) => {
  const [a, b] = twoLedgers(t);
  const shown = await a.show({ model: smallModel() }, 'model', { record: true });
  assert.ok(shown.ok, shown.content);
  await a.submit(shown.viewId, answer(7));
  const id = 'sub_race_7' as TaskSurfaceSubmissionId;
  const [viaA, viaB] = await Promise.all([a.mark(shown.viewId, id, 'answer-tool'), b.delivered(shown.viewId, id)]);
  assert.ok(viaA.status === 'submitted' && viaB.status === 'submitted');
  assert.equal(viaA.channel, viaB.channel);
  assert.ok(viaA.delivered && viaB.delivered);
});

test('a dismissal and an answer at once: one of them, seen alike by both', async (t) => {
  const [a, b, types] = twoLedgers(t);
  const shown = await a.show({ model: smallModel() }, 'model', { record: true });
  assert.ok(shown.ok, shown.content);
  await b.state(shown.viewId);
  const [dismissed, submitted] = await Promise.all([a.dismiss(shown.viewId, 'dis_race' as never), b.submit(shown.viewId, answer(9))]);
  assert.equal(dismissed.status, submitted.status);
  assert.equal((await a.state(shown.viewId)).status, (await b.state(shown.viewId)).status);
  const stored = types(shown.viewId);
  assert.ok(!(stored.includes('user/message') && stored.includes('task-surface/dismissed')), stored.join(', '));
});

test('an owner’s panel is its owner’s through the other ledger too', async (t) => {
  const [a, b] = twoLedgers(t);
  const ana = { id: 'ana', name: 'Ana' };
  const shown = await a.show({ model: smallModel() }, 'model', { record: true, owner: ana });
  assert.ok(shown.ok, shown.content);
  assert.equal(await b.owns(shown.viewId, ana), true);
  assert.equal(await b.owns(shown.viewId, { id: 'bo', name: 'Bo' }), false);
  assert.equal((await b.submit(shown.viewId, { ...answer(3), by: ana })).status, 'submitted');
});
