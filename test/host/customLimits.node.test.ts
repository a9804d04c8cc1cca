// A Host built with larger limits than the defaults keeps serving the surfaces it accepted under
// them: the stored model is read back with the Host's limits, after an unload and after a restart.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { CreateHostOptions, Host } from '../../host/types.js';
import type { JsonValue, SessionId, TaskSurfaceId } from '../../protocol/index.js';
import { until } from '../transport/helpers.js';
import { ids, makeHost, ScriptedDriver, withOpenSurface } from './helpers.js';
import { storeFactories, type StoreHandle } from './stores.js';

const ROWS = 300; // over the default of 200 table rows, under the Host's 400
const bigModel: JsonValue = {
  version: 1,
  title: 'Many rows',
  sections: [
    {
      id: 's',
      blocks: [{ kind: 'table', columns: [{ id: 'n', label: 'N' }], rows: Array.from({ length: ROWS }, (_, i) => ({ n: `r${i}` })) }],
    },
  ],
  fields: [{ kind: 'text', id: 'why', label: 'Why', required: true }],
  submit: { label: 'Send' },
};
const options: Partial<CreateHostOptions> = { limits: { tableRows: 400 }, maxLoadedSessions: 1 };

/** The open surface as getActive answers it: its table's row count, or the refusal. */
async function activeRows(host: Host, sessionId: SessionId, surfaceId: TaskSurfaceId): Promise<number | string> {
  const active = await host.taskSurface.getActive({ sessionId, surfaceId });
  if (!active.active) return active.reason;
  const block = active.model.sections[0]!.blocks[0]!;
  return block.kind === 'table' ? block.rows.length : block.kind;
}

for (const factory of storeFactories) {
  describe(`a surface accepted under larger limits (${factory.name} store)`, () => {
    const start = async (t: TestContext) => {
      const handle: StoreHandle = await factory.create();
      const hosts: Host[] = [];
      t.after(async () => {
        for (const host of hosts) await host.dispose();
        await handle.cleanup();
      });
      const open = (driver = new ScriptedDriver()) => {
        const host = makeHost(handle, { driver, ...options });
        hosts.push(host);
        return host;
      };
      return { handle, open };
    };
    /** Opens the big surface on a Host of its own, then stops that Host and reopens the store. */
    const openThenStop = async (open: (driver?: ScriptedDriver) => Host, handle: StoreHandle) => {
      const driver = new ScriptedDriver();
      const first = open(driver);
      const opened = await withOpenSurface(first, driver, bigModel);
      await first.dispose();
      await handle.reopen();
      return opened;
    };

    it('stays open and takes its submission after its session is unloaded and loaded again', async (t) => {
      const { open } = await start(t);
      const driver = new ScriptedDriver();
      const host = open(driver);
      const { sessionId, surfaceId } = await withOpenSurface(host, driver, bigModel);
      assert.equal(await activeRows(host, sessionId, surfaceId), ROWS);
      host.openSession({ title: 'another' });
      await until(() => host.loadedSessionCount() === 1);
      assert.equal(await host.load(sessionId), true);
      assert.equal(await activeRows(host, sessionId, surfaceId), ROWS);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: { why: 'ok' } });
      assert.equal(submitted.accepted, true, JSON.stringify(submitted));
    });

    it('stays open and takes its submission after the Host restarts', async (t) => {
      const { handle, open } = await start(t);
      const { sessionId, surfaceId } = await openThenStop(open, handle);
      const host = open();
      if (factory.name === 'postgres') assert.equal(await host.load(sessionId), true);
      assert.equal(await activeRows(host, sessionId, surfaceId), ROWS);
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: { why: 'ok' } });
      assert.equal(submitted.accepted, true, JSON.stringify(submitted));
    });

    it('counts as not open after a restart with limits its model is over: getActive and submit answer not-open', async (t) => {
      const { handle, open } = await start(t);
      const { sessionId, surfaceId } = await openThenStop(open, handle);
      const host = makeHost(handle, { driver: new ScriptedDriver() }); // the default 200 rows
      t.after(() => host.dispose());
      if (factory.name === 'postgres') assert.equal(await host.load(sessionId), true);
      assert.equal(await activeRows(host, sessionId, surfaceId), 'not-open');
      const submitted = await host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: { why: 'ok' } });
      assert.deepEqual(submitted, { accepted: false, reason: 'not-open' });
    });
  });
}
