import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OwnerLookups, register, tablesIn, type Queryable } from '../../transport/cluster/ownership.js';
import { openPostgresStore } from '../host/stores.js';
import { freshSchema } from './helpers.js';

/** Counts the owner lookups sent to the database; `failBulk` makes every bulk lookup fail. */
function counting(db: Queryable, failBulk = false) {
  const sent = { bulk: 0, single: 0 };
  const counted: Queryable = {
    query(text, values) {
      if (text.includes('ts_session_owners AS o')) {
        if (text.includes('unnest')) {
          sent.bulk++;
          if (failBulk) return Promise.reject(new Error('deadlock detected'));
        } else sent.single++;
      }
      return db.query(text, values);
    },
  };
  return { sent, db: counted };
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('cluster owner lookups asked for in the same turn go to the database as one query', { timeout: 60_000 }, () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  const t = () => tablesIn(db.schema);
  before(async () => {
    db = await freshSchema('lookups');
    const store = await openPostgresStore(db.schema, db.pool);
    await store.close?.();
    await register(db.pool, t(), 'worker-a', 'ws://a', false);
    await register(db.pool, t(), 'worker-b', 'ws://b', false);
  });
  after(() => db.drop());

  it('a burst of lookups is one query; each caller gets its own session’s owner', async () => {
    const a = counting(db.pool);
    const lookupsA = new OwnerLookups(a.db, t(), 'worker-a', 10_000);
    const first = await Promise.all(ids('s', 40).map((id) => lookupsA.acquire(id)));
    assert.deepEqual(a.sent, { bulk: 1, single: 0 });
    assert.deepEqual(
      first,
      ids('s', 40).map(() => ({ kind: 'mine', token: 1n })),
    );

    const b = counting(db.pool);
    const lookupsB = new OwnerLookups(b.db, t(), 'worker-b', 10_000);
    const asked = [...ids('s', 40), ...ids('t', 10), 's-0'];
    const second = await Promise.all(asked.map((id) => lookupsB.acquire(id)));
    assert.deepEqual(b.sent, { bulk: 1, single: 0 });
    assert.deepEqual(
      second,
      asked.map((id) => (id.startsWith('s') ? { kind: 'peer', workerId: 'worker-a', url: 'ws://a' } : { kind: 'mine', token: 1n })),
    );
    // Asked again by its holder: the token goes up, as a single lookup does.
    assert.deepEqual(await lookupsA.acquire('s-1'), { kind: 'mine', token: 2n });
    assert.deepEqual(a.sent, { bulk: 1, single: 1 });
  });

  it('a burst larger than the bound is split into several queries', async () => {
    const a = counting(db.pool);
    const lookups = new OwnerLookups(a.db, t(), 'worker-a', 10_000);
    const answers = await Promise.all(ids('big', 1_200).map((id) => lookups.acquire(id)));
    assert.equal(a.sent.bulk, 3);
    assert.ok(answers.every((owner) => owner?.kind === 'mine'));
  });

  it('a bulk query that fails is asked again session by session', async () => {
    const a = counting(db.pool, true);
    const lookups = new OwnerLookups(a.db, t(), 'worker-a', 10_000);
    const answers = await Promise.all(['u-1', 'u-2', 'u-3', 't-0'].map((id) => lookups.acquire(id)));
    assert.deepEqual(a.sent, { bulk: 1, single: 4 });
    assert.deepEqual(answers, [
      { kind: 'mine', token: 1n },
      { kind: 'mine', token: 1n },
      { kind: 'mine', token: 1n },
      { kind: 'peer', workerId: 'worker-b', url: 'ws://b' },
    ]);
  });
});
