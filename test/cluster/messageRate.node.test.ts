// One principal's messages per minute for several processes (`createPostgresMessageRate`): each Host
// takes from one bucket per principal in PostgreSQL (`ts_address_buckets`, bucket `messages`), so a
// person whose sessions live in two processes gets 30 a minute in all, not 30 from each. Time is the
// database's: a test moves a row's stored time back instead of waiting for the refill.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { createPostgresMessageRate, type PostgresMessageRate } from '../../host/store/postgres/index.js';
import { migrate } from '../../host/store/postgres/migrations.js';
import type { Host } from '../../host/types.js';
import { mintMessageId, mintRpcId, type Principal, type SessionId } from '../../protocol/index.js';
import { freshSchema, testDatabaseUrl } from './helpers.js';

describe("one principal's messages a minute across processes (PostgreSQL)", () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  /** The second process's connections. */
  let other: pg.Pool;
  const rates: PostgresMessageRate[] = [];
  const hosts: Host[] = [];
  const rateOn = (pool: pg.Pool) => {
    const made = createPostgresMessageRate({ db: pool, schema: db.schema });
    rates.push(made);
    return made;
  };
  /** A Host (default quotas: 30 messages a minute) counting on `pool`, its rows left queued. */
  const hostOn = (pool: pg.Pool) => {
    const host = createHost({ store: createMemoryStore(), autoAdmit: false, messageRate: rateOn(pool) });
    hosts.push(host);
    return host;
  };
  const send = (host: Host, who: Principal, sessionId: SessionId) =>
    host.as(who).session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hello' });
  const rows = (principal: string) =>
    db.pool.query(`SELECT bucket, tokens FROM "${db.schema}".ts_address_buckets WHERE address = $1`, [principal]);

  before(async () => {
    db = await freshSchema('msgrate');
    await migrate(db.pool, db.schema);
    other = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  });
  after(async () => {
    for (const host of hosts) await host.dispose();
    for (const rate of rates) rate.close();
    await other?.end();
    await db?.drop();
  });

  it('30 messages in all through two Hosts; the 31st, through the other, is refused in the same words', async () => {
    const ann = { id: 'ann-two-hosts' };
    const [first, second] = [hostOn(db.pool), hostOn(other)];
    const [mine, theirs] = [first.as(ann).openSession({ title: 'here' }), second.as(ann).openSession({ title: 'there' })];
    for (let i = 0; i < 15; i++) {
      assert.ok((await send(first, ann, mine)).accepted, `message ${2 * i + 1}`);
      assert.ok((await send(second, ann, theirs)).accepted, `message ${2 * i + 2}`);
    }
    const refused = await send(second, ann, theirs);
    assert.ok(!refused.accepted && refused.reason === 'quota-exceeded', JSON.stringify(refused));
    assert.match(refused.message, /^this principal sent 30 messages in the last minute \(at most 30\); send again in [12] s$/);
    assert.ok(refused.retryAfterMs! > 0 && refused.retryAfterMs! <= 2_000, `retryAfterMs ${refused.retryAfterMs}`);
    assert.equal((await send(first, ann, mine)).accepted, false, 'nor through the first');
    assert.equal(first.getView(mine).queue.length + second.getView(theirs).queue.length, 30);
    const bob = { id: 'bob-two-hosts' };
    assert.ok(
      (await send(second, bob, second.as(bob).openSession({ title: 'bob' }))).accepted,
      'another principal has a bucket of its own',
    );
    assert.deepEqual(
      (await rows(ann.id)).rows.map((row) => row.bucket),
      ['messages'],
      "one row, in the bucket of its own (not the identities')",
    );
  });

  it('a token given back is there for the next message, never past 30', async () => {
    const rate = rateOn(db.pool);
    for (let i = 0; i < 30; i++) assert.equal(await rate.take('cy', 30), 0);
    assert.ok((await rate.take('cy', 30)) > 0);
    await rate.refund('cy', 30);
    assert.equal(await rate.take('cy', 30), 0, 'the refunded token');
    assert.ok((await rate.take('cy', 30)) > 0);
    await rate.refund('dee', 30); // no row: a bucket never taken from is full
    assert.equal((await rows('dee')).rows.length, 0);
    await rate.take('eve', 30);
    for (let i = 0; i < 3; i++) await rate.refund('eve', 30);
    assert.equal((await rows('eve')).rows[0]?.tokens, 30, 'never past 30');
  });

  it('a row idle a minute is full again and swept; a fresher one is kept', async () => {
    const rate = rateOn(db.pool);
    await rate.take('idle', 30);
    await rate.take('fresh', 30);
    await db.pool.query(`UPDATE "${db.schema}".ts_address_buckets SET at = at - interval '61 seconds' WHERE address = 'idle'`);
    assert.ok((await rate.sweep()) >= 1);
    assert.equal((await rows('idle')).rows.length, 0);
    assert.equal((await rows('fresh')).rows.length, 1);
  });
});
