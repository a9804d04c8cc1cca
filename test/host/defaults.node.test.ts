// A Host built with nothing but its store: the defaults docs/host.md promises (docs/defaults.md).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CreateHostOptions } from '../../host/types.js';
import { DEFAULT_LIMITS, type JsonValue } from '../../protocol/index.js';
import { until } from '../transport/helpers.js';
import { ids, say, ScriptedDriver, withOpenSurface } from './helpers.js';

/** `createHost({ store })` plus only the options a test needs to observe the default it is about. */
function defaultHost(t: TestContext, options: Partial<CreateHostOptions> = {}) {
  const host = createHost({ store: createMemoryStore(), ...options });
  t.after(() => host.dispose());
  return host;
}

const tableModel = (rows: number): JsonValue => ({
  version: 1,
  title: 'Rows',
  sections: [
    {
      id: 's',
      blocks: [{ kind: 'table', columns: [{ id: 'n', label: 'N' }], rows: Array.from({ length: rows }, (_, i) => ({ n: `r${i}` })) }],
    },
  ],
  fields: [{ kind: 'text', id: 'why', label: 'Why' }],
  submit: { label: 'Send' },
});

describe('createHost defaults', () => {
  it('are the spec limits: 64 KiB model, 64 blocks, 32 fields, 200 table rows, 32 KiB submission', () => {
    assert.deepEqual(DEFAULT_LIMITS, { modelBytes: 65_536, blocks: 64, fields: 32, tableRows: 200, submissionBytes: 32_768 });
  });

  it('shows a surface of 200 table rows and refuses one of 201', async (t) => {
    const driver = new ScriptedDriver();
    const host = defaultHost(t, { driver });
    await withOpenSurface(host, driver, tableModel(200));
    const sessionId = host.openSession();
    let refused: { ok: boolean; content: string } | undefined;
    driver.then(async (turn) => {
      turn.step();
      refused = await turn.callTool('show_task_surface', { model: tableModel(201) });
    });
    await say(host, sessionId, 'go');
    await host.whenIdle(sessionId);
    assert.equal(refused?.ok, false);
    assert.match(refused!.content, /rows\[200\]: a table may have at most 200 rows; this one has 201/);
  });

  it('takes a submission of 32 KiB and refuses one byte more', async (t) => {
    const driver = new ScriptedDriver();
    const host = defaultHost(t, { driver, autoAdmit: false });
    const sessionId = host.openSession();
    driver.showSurface(tableModel(1));
    await say(host, sessionId, 'show');
    host.inbox.claimNext(sessionId)!.commit();
    await host.whenIdle(sessionId);
    const { surfaceId } = host.getView(sessionId).taskSurface.active!;
    // `{"values":{"why":"…"}}` is 21 bytes around the text.
    const submit = (bytes: number) =>
      host.taskSurface.submit({ sessionId, surfaceId, submissionId: ids.submission(), values: { why: 'x'.repeat(bytes - 21) } });
    const over = await submit(32 * 1024 + 1);
    assert.deepEqual(over, { accepted: false, reason: 'invalid-submission' });
    const at = await submit(32 * 1024);
    assert.equal(at.accepted, true, JSON.stringify(at));
  });

  it('queues 100 messages of one session and answers the 101st queue-full', async (t) => {
    const host = defaultHost(t, { autoAdmit: false });
    const sessionId = host.openSession();
    for (let i = 0; i < 100; i++) assert.equal((await say(host, sessionId, `m${i}`)).accepted, true, `message ${i}`);
    assert.deepEqual(await say(host, sessionId, 'one more'), { accepted: false, reason: 'queue-full' });
  });

  it('keeps 1,000 sessions in memory and unloads the least recently used past that', async (t) => {
    const host = defaultHost(t);
    for (let i = 0; i < 1_001; i++) host.openSession({ title: `s${i}` });
    await until(() => host.loadedSessionCount() <= 1_000);
    assert.equal(host.loadedSessionCount(), 1_000);
  });

  it('unloads a session left idle for 5 minutes, at the check run every minute', (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const host = defaultHost(t);
    const sessionId = host.openSession({ title: 'Idle' });
    t.mock.timers.tick(5 * 60_000 - 1); // checks at 1, 2, 3 and 4 minutes keep it
    assert.equal(host.loadedSessionCount(), 1);
    t.mock.timers.tick(1);
    assert.equal(host.loadedSessionCount(), 0, 'unloaded at the check at 5 minutes');
    assert.equal(host.sessionSummary(sessionId)?.title, 'Idle', 'and read back from the store when used again');
  });
});
