// Several processes, one set of panels: two panel ledgers, each over its own PostgreSQL store (its own
// pool, its own copy of every session, as two processes have) on one schema. A panel shown through
// one is read, answered, marked and dismissed through the other; two answers that race are settled
// by the store's stated seq, so exactly one user message is stored. Runs when TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import pg from 'pg';
import type { QuotaOptions } from '../../host/limits/options.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import type { TaskSurfaceSubmissionId } from '../../protocol/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL, testPool } from '../host/stores.js';
import { smallModel } from './helpers.js';

/** Two ledgers on one fresh schema, as two processes of a deployment. */
async function twoProcesses(t: TestContext, quotas?: QuotaOptions): Promise<[PanelLedger, PanelLedger, string]> {
  const schema = freshSchema();
  const open = async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
    const store = await createPostgresStore({ pool, schema });
    const ledger = createPanelLedger({ store, ...(quotas ? { quotas } : {}) });
    t.after(async () => {
      await ledger.close();
      await store.close();
      await pool.end();
    });
    return ledger;
  };
  const a = await open();
  const b = await open();
  t.after(() => dropSchema(schema));
  return [a, b, schema];
}

const answer = (n: number) => ({
  submissionId: `sub_race_${n}` as TaskSurfaceSubmissionId,
  values: { db: n % 2 ? 'pg' : 'sqlite', why: `reason ${n}` },
});

async function storedTypes(schema: string, sessionId: string): Promise<string[]> {
  const { rows } = await testPool().query<{ body: string }>(`SELECT body FROM "${schema}".ts_events WHERE session_id = $1 ORDER BY seq`, [
    sessionId,
  ]);
  return rows.map((row) => (JSON.parse(row.body) as { type: string }).type);
}

if (TEST_DATABASE_URL) {
  describe('one set of panels across processes (PostgreSQL)', () => {
    test('a panel shown through one process is read, answered and marked through another', async (t) => {
      const [a, b] = await twoProcesses(t);
      const shown = await a.show({ model: smallModel() }, 'model', { record: true });
      assert.ok(shown.ok, shown.content);
      assert.equal((await b.state(shown.viewId)).status, 'open');
      const after = await b.submit(shown.viewId, answer(1));
      assert.equal(after.status, 'submitted');
      const seen = await a.state(shown.viewId);
      assert.ok(seen.status === 'submitted' && seen.submissionId === 'sub_race_1' && !seen.delivered);
      const marked = await a.delivered(shown.viewId, 'sub_race_1' as TaskSurfaceSubmissionId);
      assert.ok(marked.status === 'submitted' && marked.channel === 'message');
      const read = await b.state(shown.viewId);
      assert.ok(read.status === 'submitted' && read.delivered && read.channel === 'message');
      // The same answer again, through either process: nothing more is written.
      const again = await a.submit(shown.viewId, answer(1));
      assert.ok(again.status === 'submitted' && again.submissionId === 'sub_race_1');
    });

    test('two answers at once, one through each process: one user message, both read the winner', async (t) => {
      const [a, b, schema] = await twoProcesses(t);
      for (let round = 0; round < 4; round++) {
        const shown = await a.show({ model: smallModel() }, 'model', { record: true });
        assert.ok(shown.ok, shown.content);
        // Both have read the open panel before either answers.
        assert.equal((await a.state(shown.viewId)).status, 'open');
        assert.equal((await b.state(shown.viewId)).status, 'open');
        const [fromA, fromB] = await Promise.all([
          a.submit(shown.viewId, answer(2 * round)),
          b.submit(shown.viewId, answer(2 * round + 1)),
        ]);
        assert.ok(fromA.status === 'submitted' && fromB.status === 'submitted', `${fromA.status} / ${fromB.status}`);
        assert.equal(fromA.submissionId, fromB.submissionId);
        assert.deepEqual(fromA.values, fromB.values);
        const types = await storedTypes(schema, shown.viewId);
        assert.equal(types.filter((type) => type === 'user/message').length, 1, types.join(', '));
      }
    });

    test('the answer-tool read and the ui/message confirmation race: one channel delivers', async (t) => {
      const [a, b] = await twoProcesses(t);
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
      const [a, b] = await twoProcesses(t);
      const shown = await a.show({ model: smallModel() }, 'model', { record: true });
      assert.ok(shown.ok, shown.content);
      await b.state(shown.viewId);
      const [dismissed, submitted] = await Promise.all([a.dismiss(shown.viewId, 'dis_race' as never), b.submit(shown.viewId, answer(9))]);
      assert.equal(dismissed.status, submitted.status);
      assert.equal((await a.state(shown.viewId)).status, (await b.state(shown.viewId)).status);
    });

    test('an owner’s panel is its owner’s through the other process too', async (t) => {
      const [a, b] = await twoProcesses(t);
      const ana = { id: 'ana', name: 'Ana' };
      const shown = await a.show({ model: smallModel() }, 'model', { record: true, owner: ana });
      assert.ok(shown.ok, shown.content);
      assert.equal(await b.owns(shown.viewId, ana), true);
      assert.equal(await b.owns(shown.viewId, { id: 'bo', name: 'Bo' }), false);
      const after = await b.submit(shown.viewId, { ...answer(3), by: ana });
      assert.equal(after.status, 'submitted');
    });

    test('a principal’s panels count against its sessions in every process together', async (t) => {
      const [a, b] = await twoProcesses(t, { sessionsPerPrincipal: 3 });
      const ana = { id: 'ana', name: 'Ana' };
      for (const ledger of [a, b, a]) {
        const shown = await ledger.show({ model: smallModel() }, 'model', { record: true, owner: ana });
        assert.ok(shown.ok, shown.content);
      }
      await assert.rejects(b.show({ model: smallModel() }, 'model', { record: true, owner: ana }), /already owns 3 sessions \(at most 3\)/);
      const other = await b.show({ model: smallModel() }, 'model', { record: true, owner: { id: 'bo', name: 'Bo' } });
      assert.ok(other.ok, 'another principal still has its own share');
    });
  });
}
