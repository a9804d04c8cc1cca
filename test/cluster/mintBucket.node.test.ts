// The identity bucket a cluster's processes share (demo/mintRate.ts, `createSharedMintLimiter`): one
// row per address in PostgreSQL, taken by one statement. Time is the database's: a test moves a row's
// stored time back instead of waiting for the refill.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrate } from '../../host/store/postgres/migrations.js';
import { createSharedMintLimiter, type SharedMintLimiter } from '../../demo/mintRate.js';
import { freshSchema, testDatabaseUrl } from './helpers.js';

describe('the shared identity bucket (PostgreSQL, one row per address)', () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  /** Another process's connections. */
  let other: pg.Pool;
  const limiters: SharedMintLimiter[] = [];
  const limiter = (rate = { burst: 60, perMinute: 30 }, pool: pg.Pool = db.pool) => {
    const made = createSharedMintLimiter({ db: pool, schema: db.schema, rate });
    limiters.push(made);
    return made;
  };
  /** Moves the address's stored time `seconds` into the past: as if that long had gone by. */
  const age = (address: string, seconds: number) =>
    db.pool.query(`UPDATE "${db.schema}".ts_address_buckets SET at = at - make_interval(secs => $2) WHERE address = $1`, [
      address,
      seconds,
    ]);
  const takeAll = async (mint: SharedMintLimiter, address: string) => {
    for (let taken = 0; ; taken++) {
      const wait = await mint.takeAddress(address);
      if (wait > 0) return { taken, wait };
    }
  };

  before(async () => {
    db = await freshSchema('mintbucket');
    await migrate(db.pool, db.schema);
    other = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  });
  after(async () => {
    for (const made of limiters) made.close();
    await other?.end();
    await db?.drop();
  });

  it('gives `burst` at once, then says when the next one comes; other addresses have their own', async () => {
    const mint = limiter();
    assert.deepEqual(await takeAll(mint, '192.0.2.1'), { taken: 60, wait: 2 });
    assert.equal(await mint.takeAddress('192.0.2.1'), 2, 'a refusal takes nothing');
    assert.equal(await mint.takeAddress('192.0.2.2'), 0, 'another address has a bucket of its own');
  });

  it('refills at `perMinute` from the stored time, never past `burst`', async () => {
    const mint = limiter();
    const address = '192.0.2.3';
    assert.deepEqual(await takeAll(mint, address), { taken: 60, wait: 2 });
    await age(address, 1);
    assert.equal(await mint.takeAddress(address), 1, 'half a token after 1 s: the next in 1 s');
    await age(address, 1);
    assert.equal(await mint.takeAddress(address), 0, 'one token after 2 s');
    assert.equal(await mint.takeAddress(address), 2);
    await age(address, 20);
    assert.deepEqual(await takeAll(mint, address), { taken: 10, wait: 2 }, '30 a minute: 10 in 20 s');
    await age(address, 3_600);
    assert.deepEqual(await takeAll(mint, address), { taken: 60, wait: 2 }, 'an hour later: full, not 1,800');
  });

  it('two takes at once of the last token, on two pools: exactly one gets it', async () => {
    const address = '192.0.2.4';
    const [a, b] = [limiter({ burst: 1, perMinute: 1 }), limiter({ burst: 1, perMinute: 1 }, other)];
    for (let round = 0; round < 5; round++) {
      await db.pool.query(`DELETE FROM "${db.schema}".ts_address_buckets WHERE address = $1`, [address]);
      // Round 0 races two inserts of a new row; the others two updates of a stored one.
      if (round > 0) await a.takeAddress(address).then(() => age(address, 60));
      const waits = await Promise.all([a.takeAddress(address), b.takeAddress(address)]);
      assert.deepEqual(
        waits.map((w) => w === 0).sort(),
        [false, true],
        `round ${round}: one of two takes got the token (${waits.join(', ')})`,
      );
    }
  });

  it('100 takes at once on two pools give the 60 the bucket holds, no more', async () => {
    const address = '192.0.2.5';
    // One token a minute: none comes back while the takes run, however slow the machine.
    const [a, b] = [limiter({ burst: 60, perMinute: 1 }), limiter({ burst: 60, perMinute: 1 }, other)];
    const waits = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).takeAddress(address)));
    assert.equal(waits.filter((w) => w === 0).length, 60);
  });

  it('sweeps the rows idle long enough to be full again, and only those', async () => {
    const mint = limiter();
    await mint.takeAddress('192.0.2.6');
    await mint.takeAddress('192.0.2.7');
    await age('192.0.2.6', 119);
    await age('192.0.2.7', 121);
    assert.equal(await mint.sweep(), 1, 'the row idle 121 s (full after 120 s) is deleted');
    const { rows } = await db.pool.query(
      `SELECT address FROM "${db.schema}".ts_address_buckets WHERE address LIKE '192.0.2.%' ORDER BY address`,
    );
    assert.ok(
      rows.some((r) => r.address === '192.0.2.6'),
      'the row idle 119 s is kept',
    );
    assert.ok(!rows.some((r) => r.address === '192.0.2.7'));
    assert.equal(await mint.takeAddress('192.0.2.7'), 0, 'a swept address starts full');
  });
});
