// Panel quotas are configurable (issue 37): `createPanelLedger({ quotas })` takes the Host's quota
// options (a principal's panels are its sessions; defaults docs/defaults.md), and the HTTP handler's
// `showsPerMinute` the show rate; past either, the show is refused in words, another principal served.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryStore } from '../../host/store/memory.js';
import { createPanelLedger } from '../../mcp/ledger.js';
import { ownedPanels } from '../../mcp/panelOwner.js';
import type { Principal } from '../../protocol/index.js';
import { smallModel } from './helpers.js';

test("a ledger's quotas and the show rate are the app's to set", async (t) => {
  const store = createMemoryStore();
  const ledger = createPanelLedger({ store, quotas: { sessionsPerPrincipal: 2 } });
  t.after(async () => {
    await ledger.close();
    store.close();
  });
  const show = (panels: ReturnType<typeof ownedPanels>, id: string) =>
    panels.as({ id } as Principal).show({ model: smallModel() }, 'model', { record: true });
  const generous = ownedPanels(ledger, { showsPerMinute: 100 });
  assert.ok((await show(generous, 'ann')).ok);
  assert.ok((await show(generous, 'ann')).ok);
  const third = await show(generous, 'ann');
  assert.equal(third.ok, false);
  assert.match(third.ok ? '' : third.content, /^quota-exceeded: /);
  assert.ok((await show(generous, 'ben')).ok, 'another principal is served');

  const slow = ownedPanels(ledger, { showsPerMinute: 1 });
  assert.ok((await show(slow, 'cy')).ok);
  const again = await show(slow, 'cy');
  assert.match(again.ok ? '' : again.content, /^quota-exceeded: this principal showed 1 panels in the last minute \(at most 1\)/);
});
