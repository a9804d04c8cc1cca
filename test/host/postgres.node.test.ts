// The PostgreSQL store's own promises (the host suites run against it too, through stores.ts):
// two writers cannot fork a log, fencing, group commit, migrations, and what "not loaded" means.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, afterEach, describe, it } from 'node:test';
import pg from 'pg';
import { createPostgresStore, migrate, migrations, SessionNotLoadedError, type PostgresStore } from '../../host/store/postgres/index.js';
import { ConflictError, FencedError } from '../../host/store/postgres/writer.js';
import type { SessionRecord } from '../../host/store/types.js';
import type { NewSessionEvent, SessionId } from '../../protocol/index.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL, testPool } from './stores.js';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';

const S = 'pg-session' as SessionId;
const record = (sessionId: SessionId = S): SessionRecord => ({
  sessionId,
  title: 'T',
  createdAt: 1,
  toolMode: 'native',
  readOnly: false,
  locale: 'en',
});
let notes = 0;
const note = (text: string): NewSessionEvent =>
  ({ type: 'assistant/message', messageId: `a-${++notes}`, turnId: 'turn-1', text }) as NewSessionEvent;

if (TEST_DATABASE_URL) {
  describe('PostgreSQL store', () => {
    const open: PostgresStore[] = [];
    const schemas: string[] = [];
    const store = async (schema: string) => {
      const s = await createPostgresStore({ pool: testPool(), schema });
      open.push(s);
      return s;
    };
    const schema = () => {
      const name = freshSchema();
      schemas.push(name);
      return name;
    };
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close();
      for (const name of schemas.splice(0)) await dropSchema(name);
    });
    after(() => testPool().end());
    const stored = async (name: string, sessionId: SessionId = S) =>
      (
        await testPool().query<{ seq: number; body: string }>(
          `SELECT seq, body FROM "${name}".ts_events WHERE session_id = $1 ORDER BY seq`,
          [sessionId],
        )
      ).rows;

    const texts = async (name: string) => (await stored(name)).map((r) => (JSON.parse(r.body) as { text: string }).text);

    it('two stores on one schema cannot fork a log: the second writer of a seq is refused and loses the session', async () => {
      const name = schema();
      const a = await store(name);
      a.createSession(record());
      a.append(S, note('base'), 1);
      await a.flush(S);
      const b = await store(name);
      assert.equal(await b.load(S), true);
      const lost: [SessionId, Error][] = [];
      b.onLost((sessionId, error) => lost.push([sessionId, error]));
      a.append(S, note('from a'), 2);
      await a.flush(S);
      // b still believes seq 2 is free: its copy is stale.
      assert.equal(b.append(S, note('from b'), 2).seq, 2);
      await assert.rejects(b.flush(S), (error: Error) => error instanceof ConflictError && /seq 2 is already stored/.test(error.message));
      assert.deepEqual(
        lost.map(([id, error]) => [id, error.name]),
        [[S, 'ConflictError']],
      );
      assert.throws(() => b.read(S), SessionNotLoadedError, 'the lost copy is dropped');
      assert.deepEqual(await texts(name), ['base', 'from a']);
      // Loaded again, b continues from what is durable.
      assert.equal(await b.load(S), true);
      assert.equal(b.lastSeq(S), 2);
      assert.equal(b.append(S, note('b again'), 3).seq, 3);
      await b.flush(S);
      assert.equal((await stored(name)).length, 3);
    });

    it('a batch is all or none: a conflict in it stores none of its events', async () => {
      const name = schema();
      const a = await store(name);
      a.createSession(record());
      await a.flush(S);
      const b = await store(name);
      await b.load(S);
      a.append(S, note('a1'), 1);
      await a.flush(S);
      b.appendMany(S, [
        { event: note('b1'), at: 1 },
        { event: note('b2'), at: 1 },
      ]);
      await assert.rejects(b.flush(S), ConflictError);
      assert.deepEqual(await texts(name), ['a1']);
    });

    it('creating a session another process already created is refused the same way', async () => {
      const name = schema();
      const a = await store(name);
      const b = await store(name);
      a.createSession(record());
      await a.flush(S);
      b.createSession(record());
      await assert.rejects(b.flush(S), /the session already exists in the database/);
      assert.throws(() => a.createSession(record()), /already exists/);
    });

    it('fencing: appends commit while the owner row holds the token, and a stale token is refused', async () => {
      const name = schema();
      const a = await store(name);
      a.createSession(record());
      await testPool().query(`INSERT INTO "${name}".ts_session_owners (session_id, owner_id, token) VALUES ($1, 'p1', 7)`, [S]);
      a.setFence(S, 7n);
      a.append(S, note('owned'), 1);
      await a.flush(S);
      // Another process takes the session over (a newer token).
      await testPool().query(`UPDATE "${name}".ts_session_owners SET owner_id = 'p2', token = 8 WHERE session_id = $1`, [S]);
      const lost: string[] = [];
      a.onLost((_id, error) => lost.push(error.name));
      a.append(S, note('stale'), 2);
      await assert.rejects(a.flush(S), (error: Error) => error instanceof FencedError && /token 7/.test(error.message));
      assert.deepEqual(lost, ['FencedError']);
      assert.deepEqual(await texts(name), ['owned']);
      // Without a fence (one process) nothing is checked.
      await a.load(S);
      a.setFence(S, undefined);
      a.append(S, note('unfenced'), 3);
      await a.flush(S);
      assert.equal((await stored(name)).length, 2);
    });

    it('group commit: everything queued in one event-loop turn is one transaction', async () => {
      const name = schema();
      const a = await store(name);
      a.createSession(record());
      for (let i = 0; i < 50; i++) a.append(S, note(`n${i}`), i);
      a.saveQueued(S, {
        itemId: 'item-1' as never,
        messageId: 'm-1' as never,
        placement: 'queued',
        source: { kind: 'user', rpcId: 'r-1' as never },
        text: 'hi',
        order: 1,
      });
      await a.flush(S);
      const xmins = async (table: string) =>
        (await testPool().query<{ xmin: string }>(`SELECT DISTINCT xmin::text FROM "${name}".${table} WHERE session_id = $1`, [S])).rows;
      const [events, inbox, sessions] = [await xmins('ts_events'), await xmins('ts_inbox'), await xmins('ts_sessions')];
      assert.equal(events.length, 1, 'the 50 events share one transaction');
      assert.deepEqual(inbox, events, 'the inbox row went in the same one');
      assert.deepEqual(sessions, events, 'and so did the session row');
      // The next turn's writes are the next transaction.
      a.append(S, note('later'), 51);
      await a.flush(S);
      assert.equal((await xmins('ts_events')).length, 2);
    });

    it('group commit spans sessions: one transaction for all, and a fenced or conflicting session alone is lost', async () => {
      const name = schema();
      const a = await store(name);
      const [s1, s2, s3] = ['g-1', 'g-2', 'g-3'] as [SessionId, SessionId, SessionId];
      for (const id of [s1, s2, s3]) a.createSession(record(id));
      await a.flush();
      await testPool().query(`INSERT INTO "${name}".ts_session_owners (session_id, owner_id, token) VALUES ($1, 'p1', 1), ($2, 'p1', 1)`, [
        s1,
        s2,
      ]);
      a.setFence(s1, 1n);
      a.setFence(s2, 1n);
      for (const id of [s1, s2, s3]) a.append(id, note(`first of ${id}`), 1);
      await a.flush();
      const xmins = async () =>
        (await testPool().query<{ xmin: string }>(`SELECT DISTINCT xmin::text FROM "${name}".ts_events WHERE seq = 1`)).rows;
      assert.equal((await xmins()).length, 1, 'three sessions, one transaction');
      // s2 is taken over by another process; s3's seq 2 is stored by another writer.
      await testPool().query(`UPDATE "${name}".ts_session_owners SET owner_id = 'p2', token = 2 WHERE session_id = $1`, [s2]);
      const b = await store(name);
      await b.load(s3);
      b.append(s3, note('b wrote s3 first'), 2);
      await b.flush(s3);
      const lost: [string, string][] = [];
      a.onLost((id, error) => lost.push([id, error.name]));
      for (const id of [s1, s2, s3]) a.append(id, note(`second of ${id}`), 2);
      const results = await Promise.allSettled([s1, s2, s3].map((id) => a.flush(id)));
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'rejected'],
      );
      assert.ok((results[1] as PromiseRejectedResult).reason instanceof FencedError);
      assert.ok((results[2] as PromiseRejectedResult).reason instanceof ConflictError);
      assert.deepEqual(lost.sort(), [
        [s2, 'FencedError'],
        [s3, 'ConflictError'],
      ]);
      const bodies = async (id: SessionId) => (await stored(name, id)).map((r) => (JSON.parse(r.body) as { text: string }).text);
      assert.deepEqual(await bodies(s1), [`first of ${s1}`, `second of ${s1}`]);
      assert.deepEqual(await bodies(s2), [`first of ${s2}`], "the fenced session's row was left out");
      assert.deepEqual(await bodies(s3), [`first of ${s3}`, 'b wrote s3 first']);
    });

    it('flush resolves only when the write is committed (seen from another connection)', async (t) => {
      const name = schema();
      const a = await store(name);
      // Another connection holds the sessions table, so the write cannot commit until it lets go.
      const holder = await testPool().connect();
      let held = true;
      const letGo = async () => {
        if (!held) return;
        held = false;
        await holder.query('COMMIT');
        holder.release();
      };
      t.after(letGo);
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${name}".ts_sessions IN ACCESS EXCLUSIVE MODE`);
      a.createSession(record());
      a.append(S, note('one'), 1);
      let flushed = false;
      const flushing = a.flush(S).then(() => {
        flushed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(flushed, false, 'not while the write cannot commit');
      await letGo();
      await flushing;
      assert.equal((await stored(name)).length, 1, 'committed when flush resolved');
    });

    it('a session known but not loaded answers listing and its owner, and refuses everything else clearly', async () => {
      const name = schema();
      const a = await store(name);
      a.createSession(record());
      a.append(S, { type: 'session/opened', owner: 'alice' } as NewSessionEvent, 1);
      await a.close();
      const b = await store(name);
      assert.deepEqual(
        b.listSessions().map((r) => r.sessionId),
        [S],
      );
      assert.equal(b.lastSeq(S), 1);
      assert.deepEqual(
        b.read(S, { limit: 1 }).map((e) => e.type),
        ['session/opened'],
      );
      assert.throws(() => b.read(S), /session pg-session is not loaded in this process: await load\(sessionId\) first/);
      assert.throws(() => b.append(S, note('x'), 1), SessionNotLoadedError);
      assert.throws(() => b.read('nope' as SessionId), /unknown session nope/);
      assert.equal(await b.load('nope' as SessionId), false);
      assert.equal(await b.load(S), true);
      assert.equal(b.read(S).length, 1);
    });

    it('refuses a bad schema name, no connection, and a schema from a newer version', async () => {
      await assert.rejects(
        createPostgresStore({ pool: testPool(), schema: 'x; DROP TABLE y' }),
        /schema must be a lower-case SQL identifier/,
      );
      await assert.rejects(createPostgresStore({}), /give a connectionString or a pool/);
      const name = schema();
      await store(name);
      await testPool().query(`INSERT INTO "${name}".ts_migrations (version, name) VALUES (999, 'future')`);
      await assert.rejects(
        createPostgresStore({ pool: testPool(), schema: name }),
        /has migration 999, newer than this task-surface knows/,
      );
    });

    it('migrations are idempotent', async () => {
      const name = schema();
      assert.deepEqual(
        await migrate(testPool(), name),
        migrations.map((m) => m.version),
      );
      assert.deepEqual(await migrate(testPool(), name), []);
      const { rows } = await testPool().query(`SELECT version FROM "${name}".ts_migrations ORDER BY version`);
      assert.deepEqual(
        rows.map((r) => r.version),
        migrations.map((m) => m.version),
      );
    });

    it('migrations are safe when several processes start at once on a fresh schema', async () => {
      const name = schema();
      const code = `import pg from 'pg'; import { migrate } from './host/store/postgres/migrations.ts';
        const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL });
        console.log(JSON.stringify(await migrate(pool, ${JSON.stringify(name)}))); await pool.end();`;
      const run = () =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(process.execPath, [...TSX_IMPORT, '--input-type=module', '-e', code], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          child.on('exit', (exit) => resolve({ code: exit, out }));
        });
      const results = await Promise.all([run(), run(), run()]);
      for (const r of results) assert.equal(r.code, 0, r.out);
      const applied = results.map((r) => JSON.parse(r.out.trim()) as number[]);
      assert.deepEqual(
        applied.flat().sort(),
        migrations.map((m) => m.version),
        'each migration applied by exactly one process',
      );
      const a = await store(name);
      a.createSession(record());
      await a.flush(S);
    });

    it('loads asked for together are read in bulk, and a damaged log fails only its own load', async () => {
      const name = schema();
      const a = await store(name);
      const ids = Array.from({ length: 30 }, (_, i) => `bulk-${i}` as SessionId);
      for (const id of ids) {
        a.createSession(record(id));
        a.append(id, note(`only ${id}`), 1);
      }
      a.saveQueued(ids[0]!, {
        itemId: 'item-1' as never,
        messageId: 'm-1' as never,
        placement: 'queued',
        source: { kind: 'user', rpcId: 'r-1' as never },
        text: 'queued',
        order: 1,
      });
      a.append(ids[1]!, note('second'), 2);
      await a.flush();
      // Someone edited the table: bulk-1 has a gap in its log.
      await testPool().query(`DELETE FROM "${name}".ts_events WHERE session_id = $1 AND seq = 1`, [ids[1]]);
      const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
      let connections = 0;
      // Counts the connections taken (pool.query takes one through connect(callback) too).
      const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
      (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args) => (connections++, connect(...args));
      const b = await createPostgresStore({ pool, schema: name });
      try {
        connections = 0;
        const results = await Promise.allSettled([...ids, 'bulk-none' as SessionId].map((id) => b.load(id)));
        assert.equal(connections, 1, '31 loads, one transaction');
        assert.equal(results[1]!.status, 'rejected');
        assert.match(String((results[1] as PromiseRejectedResult).reason), /missing \(the stored log has a gap\)/);
        assert.deepEqual(results.at(-1), { status: 'fulfilled', value: false }, 'an unknown session is answered false');
        for (const [i, id] of ids.entries()) {
          if (i === 1) continue;
          assert.deepEqual(results[i], { status: 'fulfilled', value: true });
          assert.deepEqual(
            b.read(id).map((e) => (e as { text?: string }).text),
            [`only ${id}`],
          );
        }
        assert.deepEqual(
          b.listQueued(ids[0]!).map((row) => row.text),
          ['queued'],
        );
        assert.throws(() => b.read(ids[1]!), SessionNotLoadedError);
      } finally {
        await b.close();
        await pool.end();
      }
    });

    it('unload keeps the writes still queued: a load right after reads them back', async () => {
      const name = schema();
      const a = await store(name);
      a.createSession(record());
      a.append(S, note('queued when unloaded'), 1);
      a.unload(S);
      assert.throws(() => a.read(S), SessionNotLoadedError);
      assert.equal(await a.load(S), true);
      assert.deepEqual(
        a.read(S).map((e) => (e as { text?: string }).text),
        ['queued when unloaded'],
      );
    });

    it('close flushes what is queued, and ends only a pool it made', async (t) => {
      const name = schema();
      const own = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema: name });
      own.createSession(record());
      own.append(S, note('last words'), 1);
      await own.close();
      assert.equal((await stored(name)).length, 1);
      assert.equal(own.pool.ended, true);
      const given = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
      const endGiven = closeWhenDone(t, { close: () => given.end() });
      const shared = await createPostgresStore({ pool: given, schema: name });
      await shared.close();
      assert.equal((await given.query('SELECT 1 AS one')).rows[0].one, 1, 'a given pool stays open');
      await endGiven();
    });
  });
}
