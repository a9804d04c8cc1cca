// `npm run mutate` splits a group's test files into a few suites (scripts/mutate.mjs): a changed
// test must change only its own suite, or Stryker's incremental run tests the whole group again.
import assert from 'node:assert/strict';
import { it } from 'node:test';
// @ts-expect-error: a plain ES module script, without types
import { groupSuites, SHARDS } from '../../scripts/mutate.mjs';

type Suite = { path: string; text: string };
const files = Array.from({ length: 40 }, (_, i) => `test/host/file${i}.node.test.ts`);
const contents = new Map(files.map((f) => [f, `// ${f}`]));
const suites = (list: string[] = files): Suite[] => groupSuites('taskSurface', list, (f: string) => contents.get(f) ?? '');
const suiteOf = (all: Suite[], file: string) => all.filter((s) => s.text.includes(`/${file.split('/').pop()!.replace(/\.ts$/, '.js')}'`));

it('puts each test file in exactly one of the group’s suites, the same ones on every run', () => {
  const first = suites();
  assert.equal(first.length, SHARDS);
  for (const file of files) assert.equal(suiteOf(first, file).length, 1, file);
  assert.deepEqual(suites(), first);
});

it('a changed test file changes its own suite only', () => {
  const before = suites();
  contents.set(files[7]!, '// changed');
  const after = suites();
  const changed = after.filter((s, i) => s.text !== before[i]!.text);
  assert.deepEqual(
    changed.map((s) => s.path),
    suiteOf(after, files[7]!).map((s) => s.path),
  );
});

it('a new test file leaves every other file in the suite it was in', () => {
  const before = suites();
  const after = suites([...files, 'test/host/added.node.test.ts']);
  for (const file of files) assert.equal(suiteOf(after, file)[0]!.path, suiteOf(before, file)[0]!.path, file);
});

it('a group of fewer files than suites gets one suite a file at most', () => {
  assert.ok(suites(files.slice(0, 2)).length <= 2);
  assert.equal(suites(files.slice(0, 1)).length, 1);
});
