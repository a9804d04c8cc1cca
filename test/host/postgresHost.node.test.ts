// The Host over PostgreSQL: answers wait for durability, a lost write refuses them and reloads the
// session, a restart recovers from what is stored, and the WebSocket server loads sessions it did not create.
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import pg from 'pg';
import { createHost } from '../../host/createHost.js';
import { HostStoreError } from '../../host/errors.js';
import { createPostgresStore } from '../../host/store/postgres/index.js';
import type { SessionId, SessionView } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient, inTime, until, WAIT_MS } from '../transport/helpers.js';
import { counterIds, goodValues, ids, ScriptedDriver, withOpenSurface } from './helpers.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL, testPool } from './stores.js';

/** How long a wait on this PostgreSQL (a write, a turn, a view) may take on a loaded machine before it fails by name. */
const PG_WAIT_MS = 20_000;

if (TEST_DATABASE_URL) {
  describe('the Host over PostgreSQL', () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    after(() => testPool().end());

    /** A store on its own pool, named so a test can find (and cut) its connections. */
    const start = async (schema: string, driver = new ScriptedDriver(), onError: (error: Error) => void = () => undefined) => {
      const application = `ts-test-${Math.random().toString(36).slice(2, 10)}`;
      const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, application_name: application, max: 4 });
      pool.on('error', () => undefined);
      const store = await createPostgresStore({ pool, schema });
      const host = createHost({ store, driver, ids: counterIds(), onError });
      cleanups.push(async () => {
        await host.dispose();
        await store.close();
        await pool.end();
      });
      return { store, host, driver, application };
    };
    const newSchema = () => {
      const schema = freshSchema();
      cleanups.push(() => dropSchema(schema));
      return schema;
    };
    /** Holds an exclusive lock on a table until `release`: the store's next write to it waits. */
    const lockTable = async (schema: string, table: string) => {
      const client = await testPool().connect();
      await client.query('BEGIN');
      await client.query(`LOCK TABLE "${schema}".${table} IN ACCESS EXCLUSIVE MODE`);
      let held = true;
      const release = async () => {
        if (!held) return;
        held = false;
        await client.query('ROLLBACK');
        client.release();
      };
      cleanups.push(release); // a failed assertion must not leave the store waiting on it
      return release;
    };
    const waitingOnLock = async (application: string) =>
      (
        await testPool().query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [application],
        )
      ).rows.map((r) => r.pid);
    const storedTypes = async (schema: string, sessionId: string) =>
      (
        await testPool().query<{ body: string }>(`SELECT body FROM "${schema}".ts_events WHERE session_id = $1 ORDER BY seq`, [sessionId])
      ).rows.map((r) => JSON.parse(r.body) as { type: string; messageId?: string; outcome?: string; rerunOf?: string });

    /** Waits until one of the store's connections waits on a lock (its write is blocked), at once or by name within `WAIT_MS`. */
    const blocked = async (application: string) => {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const pids = await waitingOnLock(application);
        if (pids.length > 0) return pids;
        if (Date.now() > deadline) throw new Error(`not within ${WAIT_MS} ms: a write of ${application} to wait on the lock`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    /** The session's turns done, or a failure naming it after `PG_WAIT_MS`. */
    const idle = (host: { whenIdle(id: SessionId): Promise<void> }, sessionId: SessionId) =>
      inTime(host.whenIdle(sessionId), `session ${sessionId} to be idle`, PG_WAIT_MS);
    /** What the session did so far committed, or a failure naming it after `PG_WAIT_MS`. */
    const durable = (host: { whenDurable(id: SessionId): Promise<void> }, sessionId: SessionId) =>
      inTime(host.whenDurable(sessionId), `session ${sessionId} to be durable`, PG_WAIT_MS);

    it('answers session.send only once its queue row is committed', async () => {
      const schema = newSchema();
      const { host, application } = await start(schema, new ScriptedDriver());
      const sessionId = host.openSession({ title: 'T' });
      await durable(host, sessionId);
      const release = await lockTable(schema, 'ts_inbox');
      let answered = false;
      const sent = host.session
        .send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text: 'hi' })
        .finally(() => (answered = true));
      await blocked(application);
      assert.equal(answered, false, 'the row is not committed yet, so neither is the answer');
      await release();
      assert.ok((await inTime(sent, 'the answer once the lock is released', PG_WAIT_MS)).accepted);
    });

    it('answers a dismissal only once it is committed', async () => {
      const schema = newSchema();
      const { host, driver, application } = await start(schema);
      const { sessionId, surfaceId } = await withOpenSurface(host, driver);
      await durable(host, sessionId);
      const release = await lockTable(schema, 'ts_events');
      let answered = false;
      const dismissed = host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: ids.dismissal() }).finally(() => (answered = true));
      await blocked(application);
      assert.equal(answered, false);
      await release();
      assert.ok((await inTime(dismissed, 'the dismissal once the lock is released', PG_WAIT_MS)).dismissed);
      assert.ok((await storedTypes(schema, sessionId)).some((e) => e.type === 'task-surface/dismissed'));
    });

    it('runs the turn after a submission only once its user message is committed', async () => {
      const schema = newSchema();
      const { host, driver, application } = await start(schema);
      const { sessionId, surfaceId } = await withOpenSurface(host, driver);
      await durable(host, sessionId); // the surface's turn is committed: only the claim waits below
      const release = await lockTable(schema, 'ts_events');
      const result = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: goodValues });
      assert.ok(result.accepted);
      // The claim commits the user message in this process; its write waits on the lock.
      await blocked(application);
      assert.equal(driver.turns.length, 1, 'the model is not asked about a message that is not durable');
      await release();
      await until(() => driver.turns.length === 2, 5, PG_WAIT_MS);
      await idle(host, sessionId);
      await durable(host, sessionId);
      assert.ok((await storedTypes(schema, sessionId)).some((e) => e.type === 'user/message' && e.messageId === result.messageId));
    });

    it('a lost connection makes the session lost: the waiting answer is refused, watchers get the stored view', async () => {
      const schema = newSchema();
      const errors: Error[] = [];
      const { host, application } = await start(schema, new ScriptedDriver(), (error) => errors.push(error));
      const sessionId = host.openSession({ title: 'T' });
      await durable(host, sessionId);
      const views: SessionView[] = [];
      const stop = host.watchSession(sessionId, (view) => views.push(view));
      const release = await lockTable(schema, 'ts_inbox');
      const messageId = ids.message();
      const sent = host.session.send({ sessionId, messageId, rpcId: ids.rpc(), text: 'hello' });
      // Checked from now on: the store sees its connection cut (and refuses the answer) on its own
      // socket, possibly before this test's terminate query has even returned.
      const refused = assert.rejects(
        sent,
        (error: Error) => error instanceof HostStoreError && /making the change durable/.test(error.message),
      );
      const pids = await blocked(application);
      const seen = views.length;
      await testPool().query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
      await inTime(refused, 'the refusal once the connection is cut', PG_WAIT_MS);
      assert.ok(errors.some((e) => e instanceof HostStoreError && /reloaded from what is durable/.test(e.message)));
      await release();
      // Loaded again from what is durable: the message that was never committed is not there.
      await until(() => views.length > seen, 5, PG_WAIT_MS);
      assert.equal(views.at(-1)!.queue.length, 0);
      // The same message again is accepted afresh, and durable.
      const again = await host.session.send({ sessionId, messageId, rpcId: ids.rpc(), text: 'hello' });
      assert.ok(again.accepted);
      await idle(host, sessionId);
      assert.equal((await storedTypes(schema, sessionId)).filter((e) => e.messageId === messageId).length, 1);
      stop();
    });

    it('restarts from PostgreSQL: an interrupted turn ends interrupted and runs again; a claim not yet durable is gone', async () => {
      const schema = newSchema();
      const hang = new ScriptedDriver();
      const first = await start(schema, hang);
      const { sessionId, surfaceId } = await withOpenSurface(first.host, hang);
      // A second session whose turn is running when the process stops.
      const busy = first.host.openSession({ title: 'busy' });
      // It runs until the process stops (here: until the abandoned host is disposed at the end).
      hang.then((turn) => new Promise<void>((resolve) => turn.signal.addEventListener('abort', () => resolve())));
      await first.host.session.send({ sessionId: busy, messageId: ids.message(), rpcId: ids.rpc(), text: 'go' });
      await until(() => hang.turns.length === 2, 5, PG_WAIT_MS);
      await durable(first.host, busy);
      // "kill -9": a second process over the same schema; the first is abandoned as it is.
      const second = await start(schema);
      assert.equal(await second.host.load(sessionId), true);
      const active = await second.host.taskSurface.getActive({ sessionId, surfaceId });
      assert.ok(active.active);
      assert.equal(active.pending, null, 'the surface is editable again');
      assert.equal(await second.host.load(busy), true);
      second.host.getView(busy); // its inbox starts: recovery runs
      await until(() => second.driver.turns.length === 1, 5, PG_WAIT_MS);
      await idle(second.host, busy);
      await durable(second.host, busy);
      const log = await storedTypes(schema, busy);
      const started = log.filter((e) => e.type === 'turn/started');
      assert.deepEqual(
        log.filter((e) => e.type === 'turn/ended').map((e) => e.outcome),
        ['interrupted', 'completed'],
      );
      assert.equal(started.length, 2);
      assert.ok(started[1]!.rerunOf, 'run again once');
    });

    it('the WebSocket server loads a session another process created, and answers session.open once it is durable', async () => {
      const schema = newSchema();
      const first = await start(schema);
      const elsewhere = first.host.as({ id: 'alice' }).openSession({ title: 'made elsewhere' });
      await durable(first.host, elsewhere);
      const second = await start(schema);
      const created = await start(schema); // a third process makes it after the second one started
      const late = created.host.as({ id: 'alice' }).openSession({ title: 'made later' });
      await durable(created.host, late);
      const server = await createWebSocketServer({
        host: second.host,
        port: 0,
        heartbeatMs: 0,
        rateLimit: false,
        authenticate: () => ({ id: 'alice' }),
      });
      const client = connectClient(server.port, { heartbeatMs: 0 });
      cleanups.push(async () => {
        client.dispose();
        await server.close();
      });
      for (const id of [elsewhere, late]) {
        let view: SessionView | undefined;
        const stop = client.watchSession(id, (v) => (view = v));
        await until(() => view !== undefined, 5, PG_WAIT_MS);
        assert.equal(view!.sessionId, id);
        stop();
      }
      const opened = await client.openSession({ title: 'new' });
      const { rowCount } = await testPool().query(`SELECT 1 FROM "${schema}".ts_sessions WHERE session_id = $1`, [opened.sessionId]);
      assert.equal(rowCount, 1, 'committed before it was answered');
    });
  });
}
