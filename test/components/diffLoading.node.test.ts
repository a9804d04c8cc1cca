import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiffBlock } from '../../protocol/index.js';
import { diffView } from '../../components/view/diffLines.js';
import { lazyModulesPending, lazyModulesSettled } from '../../components/shared/lazy.js';

// Runs in its own process: the diff library has not been loaded when these start (in this order).
describe('diffView before the diff library has loaded', () => {
  it('shows a new file at once without loading the library', () => {
    const view = diffView({ kind: 'diff', before: null, after: 'x\n' });
    assert.equal(view.kind, 'patch');
    assert.equal(lazyModulesPending(), false, 'nothing was fetched');
  });

  it('gives the plain texts as a placeholder, then the compared diff once the library arrives', async () => {
    const block: DiffBlock = { kind: 'diff', before: 'a\nb\n', after: 'a\nc\n' };
    assert.deepEqual(diffView(block), { kind: 'loading', before: ['a', 'b'], after: ['a', 'c'] });
    assert.equal(lazyModulesPending(), true, 'the library is on its way');
    await lazyModulesSettled();
    const later = diffView(block);
    assert.equal(later.kind, 'patch', 'the placeholder was not cached');
    assert.deepEqual(later.kind === 'patch' && later.lines.map((l) => l.text), ['@@ -1,2 +1,2 @@', ' a', '-b', '+c']);
  });
});
