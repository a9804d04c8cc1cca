// Browser test files run side by side in one origin (web-test-runner, concurrency 2) and share its
// localStorage: a file that clears all of it wipes another file's drafts mid-test (a flake seen
// twice). Each file forgets only its own sessions' drafts (dockHelpers.forgetDrafts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';

it('no browser test file clears the shared localStorage', () => {
  const dir = new URL('../', import.meta.url);
  const browserFiles = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts') && !f.endsWith('.node.test.ts') && !f.startsWith('e2e'));
  assert.ok(browserFiles.length > 5, 'the browser test files were found');
  const code = (f: string) => readFileSync(new URL(f, dir), 'utf8').replace(/\/\/.*$/gm, ''); // comments may name it
  const offenders = browserFiles.filter((f) => /\b(localStorage|sessionStorage)\.clear\(/.test(code(f)));
  assert.deepEqual(offenders, []);
});
