// The panel ledger built without `maxLoadedPanels` (`createPanelLedger`): 256 panels stay in memory;
// past that the least recently used is dropped and read back from the store when asked.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createMemoryStore } from '../../host/store/memory.js';
import type { SessionLogStore } from '../../host/store/types.js';
import { createPanelLedger } from '../../mcp/ledger.js';
import { smallModel } from './helpers.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('keeps 256 panels in memory and reads the least recently used back from the store past that', async (t) => {
  const memory = createMemoryStore();
  const reads = new Map<string, number>();
  const store: SessionLogStore = Object.assign(Object.create(memory) as typeof memory, {
    read: ((sessionId, range) => {
      reads.set(sessionId, (reads.get(sessionId) ?? 0) + 1);
      return memory.read(sessionId, range);
    }) satisfies SessionLogStore['read'],
  });
  const ledger = createPanelLedger({ store });
  t.after(async () => {
    await ledger.close();
    memory.close();
  });
  const views: string[] = [];
  const show = async () => {
    const shown = await ledger.show({ model: smallModel() }, 'model', { record: true });
    assert.ok(shown.ok, shown.content);
    views.push(shown.viewId);
    await tick(5); // residency unloads past its bound just after a load
  };
  for (let i = 0; i < 256; i++) await show();
  reads.clear();
  assert.equal((await ledger.state(views[0]!)).status, 'open');
  assert.equal(reads.get(views[0]!), undefined, 'the first of 256 is still in memory');
  await show(); // the 257th: the second panel is now the least recently used
  assert.equal((await ledger.state(views[2]!)).status, 'open');
  assert.equal(reads.get(views[2]!), undefined, 'the third is still in memory');
  assert.equal((await ledger.state(views[1]!)).status, 'open', 'the dropped panel is still answered');
  assert.ok((reads.get(views[1]!) ?? 0) > 0, 'read back from the store');
});
