// The panels' drafts through `/mcp`'s per-person views (issue 37): bounded in all and per person,
// so one person's drafts never push out another's and many people cannot hold 64 × 256 drafts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStore } from '../../host/store/memory.js';
import { MAX_DRAFTS, MAX_DRAFTS_PER_PERSON } from '../../mcp/drafts.js';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import { ownedPanels } from '../../mcp/panelOwner.js';
import { handleViewCall } from '../../mcp/viewTool.js';
import type { Principal } from '../../protocol/index.js';
import { smallModel } from './helpers.js';

const person = (id: string) => ({ id }) as Principal;

/** Shows a panel as `view`'s person and writes `why` as its draft; the panel's id. */
async function drafted(view: PanelLedger, why: string): Promise<string> {
  const shown = await view.show({ model: smallModel() }, 'model', { record: true });
  assert.ok(shown.ok, shown.content);
  await handleViewCall(view, { action: 'draft', viewId: shown.viewId, values: { why } });
  return shown.viewId;
}

const draftOf = async (view: PanelLedger, viewId: string) =>
  ((await handleViewCall(view, { action: 'read', viewId })).structuredContent as { draft?: { why: string } }).draft?.why;

describe('drafts of panels shown through per-person views', () => {
  test('16 per person (their own oldest goes), 256 in all', async (t) => {
    assert.deepEqual([MAX_DRAFTS_PER_PERSON, MAX_DRAFTS], [16, 256], 'the documented bounds');
    const store = createMemoryStore();
    const ledger = createPanelLedger({ store });
    t.after(async () => {
      await ledger.close();
      store.close();
    });
    const panels = ownedPanels(ledger, { showsPerMinute: Infinity });
    const bob = panels.as(person('bob'));
    const bobs = await drafted(bob, 'bob');
    const alice = panels.as(person('alice'));
    const alices: string[] = [];
    for (let i = 0; i < MAX_DRAFTS_PER_PERSON + 4; i++) alices.push(await drafted(alice, `alice ${i}`));
    assert.equal(await draftOf(alice, alices[3]!), undefined, "Alice's own oldest went");
    assert.equal(await draftOf(alice, alices[4]!), 'alice 4');
    assert.equal(await draftOf(bob, bobs), 'bob', "Alice's drafts never push out Bob's");

    // Many people, each within their own bound: the total holds, the least recently written first.
    const people = Math.ceil(MAX_DRAFTS / MAX_DRAFTS_PER_PERSON);
    let last = '';
    for (let p = 0; p < people; p++) {
      const view = panels.as(person(`p${p}`));
      for (let i = 0; i < MAX_DRAFTS_PER_PERSON; i++) last = await drafted(view, `p${p} ${i}`);
    }
    assert.equal(await draftOf(bob, bobs), undefined, 'past the total, the oldest draft of all went');
    assert.equal(await draftOf(panels.as(person(`p${people - 1}`)), last), `p${people - 1} ${MAX_DRAFTS_PER_PERSON - 1}`);
  });
});
