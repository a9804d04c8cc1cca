// No test is committed focused (`.only` runs it alone in Mocha and hides the rest) or skipped without
// a reason: the lint step refuses both in test/ (eslint.config.js), as this checks on a snippet.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ESLint } from 'eslint';

const lint = async (code: string) => {
  const [result] = await new ESLint().lintText(code, { filePath: 'test/snippet.node.test.ts' });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-properties').map((m) => m.message);
};

it('refuses .only and an unexplained .skip in a test file, and takes a skip that says why', { timeout: 60_000 }, async () => {
  const focused = await lint("import { describe, it } from 'node:test';\ndescribe.only('a', () => {});\nit.only('b', () => {});\n");
  const why = 'is restricted from being used. a focused test hides the rest of the suite: remove .only before committing';
  assert.deepEqual(focused, [`'describe.only' ${why}`, `'it.only' ${why}`]);
  const skipped = await lint("import { it } from 'node:test';\nit.skip('c', () => {});\n");
  assert.deepEqual(skipped, ["'it.skip' is restricted from being used. say why it is skipped: { skip: 'why' } or t.skip('why')"]);
  assert.deepEqual(await lint("import { it } from 'node:test';\nit('d', { skip: 'no database here' }, () => {});\n"), []);
});
