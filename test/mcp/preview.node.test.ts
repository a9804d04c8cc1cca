// The MCP view's preview (issue 39): the view sends the arguments a host streamed so far
// (`ui/notifications/tool-input-partial`) to the app-only view tool, which reads them as the Host
// does (protocol/preview.ts, the server's limits) and stores nothing.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { parse } from 'partial-json';
import { createMemoryStore } from '../../host/store/memory.js';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import { PanelSession, type PanelHost } from '../../mcp/app/panelApp.js';
import { handleViewCall } from '../../mcp/viewTool.js';
import { smallModel } from './helpers.js';

/** The healed prefix of `{ model }`'s JSON up to `fraction` of it, as a host's partial parser gives it. */
const partial = (fraction: number) => {
  const text = JSON.stringify({ model: smallModel() });
  return parse(text.slice(0, Math.round(text.length * fraction))) as Record<string, unknown>;
};

function newLedger(t: TestContext) {
  const store = createMemoryStore();
  const ledger = createPanelLedger({ store });
  t.after(async () => {
    await ledger.close();
    store.close();
  });
  return { store, ledger };
}

/** A host whose tool calls go to the real view tool; `gate` holds preview reads. */
function viewHost(ledger: PanelLedger, reads: unknown[] = [], gate = () => Promise.resolve()): PanelHost {
  return {
    async callServerTool({ arguments: args }) {
      if (args['action'] === 'preview') {
        reads.push(args['arguments']);
        await gate();
      }
      return handleViewCall(ledger, args);
    },
    sendMessage: async () => ({}),
    updateModelContext: async () => ({}),
    getHostVersion: () => undefined,
  };
}

describe('the view tool: preview', () => {
  test('the settled part of streamed arguments, under the server limits; nothing stored', async (t) => {
    const { store, ledger } = newLedger(t);
    const stored = () => JSON.stringify(store.listSessions().map((r) => [r, store.listQueued(r.sessionId)]));
    const before = stored();
    const preview = async (args: unknown) => (await handleViewCall(ledger, { action: 'preview', arguments: args })).structuredContent;
    assert.deepEqual(await preview({}), { status: 'preview', model: null }, 'nothing written yet');
    assert.deepEqual(
      await preview({ model: { version: 1, title: 'Pick a da' } }),
      { status: 'preview', model: null },
      'a title still being written',
    );
    const half = (await preview(partial(0.6))) as { model: { title: string; sections: unknown[]; fields: unknown[] } };
    assert.equal(half.model.title, 'Pick a database');
    assert.equal(half.model.sections.length, 1, 'the whole section shows');
    assert.deepEqual(half.model.fields, [], 'the choice field still being written does not');
    // A preview reads no panel: a viewId or values are refused, and so are arguments past the bound.
    const stray = await handleViewCall(ledger, { action: 'preview', viewId: 'v1', arguments: {} });
    assert.equal(stray.isError, true);
    const big = await handleViewCall(ledger, {
      action: 'preview',
      arguments: { model: { title: 'x'.repeat(2 * ledger.limits.modelBytes) } },
    });
    assert.equal(big.isError, true);
    assert.match((big.content[0] as { text: string }).text, /^arguments\.arguments: \d+ bytes, more than the 131072 a preview reads$/);
    assert.equal(stored(), before, 'nothing of a preview is stored');
  });
});

describe('the view: preview reads of streamed arguments', () => {
  test('one read at a time, the latest arguments winning; the result ends it and a late read changes nothing', async (t) => {
    const { ledger } = newLedger(t);
    const reads: unknown[] = [];
    let release: () => void = () => {};
    let gate = Promise.resolve();
    const host = viewHost(ledger, reads, () => gate);
    const session = new PanelSession(host, { onChange: () => {}, locale: () => 'en', dismissedText: () => '', previewEveryMs: 0 });
    gate = new Promise((resolve) => (release = resolve));
    session.partial(partial(0.3));
    session.partial(partial(0.4));
    session.partial(partial(0.6));
    assert.equal(reads.length, 1, 'one read in flight');
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(reads, [partial(0.3), partial(0.6)], 'the arguments in between were never read: the latest won');
    assert.equal(session.phase.kind, 'preview');
    assert.equal(session.model?.title, 'Pick a database');

    // The result arrives while a read runs: the panel shows, and the late read changes nothing.
    gate = new Promise((resolve) => (release = resolve));
    session.partial(partial(0.9));
    const shown = await ledger.show({ model: smallModel() }, 'model', { record: true });
    assert.ok(shown.ok);
    await session.result(shown.model, shown.viewId);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(session.phase.kind, 'open');
    assert.equal(session.model, shown.model);
    session.partial(partial(1));
    assert.equal(reads.length, 3, 'no read once the panel is shown');
  });

  test('a cancelled call clears the preview', async (t) => {
    const { ledger } = newLedger(t);
    const host = viewHost(ledger);
    const session = new PanelSession(host, { onChange: () => {}, locale: () => 'en', dismissedText: () => '', previewEveryMs: 0 });
    session.partial(partial(0.6));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(session.phase.kind, 'preview');
    session.cancelled();
    assert.deepEqual([session.phase.kind, session.model], ['cancelled', null]);
  });
});
