// npm test's node step (scripts/nodeTestPlan.mjs): every node test file runs exactly once, the shared
// processes hold at most CHUNK files of one folder, and the files that need a process of their own get one;
// the end-to-end step's docs site files share processes too.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { it } from 'node:test';
// @ts-expect-error: a plain JavaScript script, without declarations
import * as testPlan from '../../scripts/nodeTestPlan.mjs';

const { CHUNK, E2E_CHUNK, E2E_SHARED, OWN_PROCESS, SHARED_FOLDERS, e2eTestPlan, nodeTestPlan } = testPlan;

const allFiles = (suffix = '.node.test.ts', dir = 'test') =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .map((f) => `${dir}/${f}`)
    .sort();

/** The files a generated group file imports, as paths from the project's root. */
const importsOf = (path: string) =>
  (readFileSync(path, 'utf8').match(/^import "(.+)";$/gm) ?? []).map((l) => relative(process.cwd(), fileURLToPath(l.slice(8, -2))));

it('runs every node test file exactly once, at most CHUNK of one shared folder to a process', (t) => {
  const files = allFiles();
  const plan = nodeTestPlan(files);
  t.after(() => rmSync(plan.dir, { recursive: true, force: true }));
  const imported: string[] = [];
  for (const chunk of plan.chunks as { path: string; files: string[] }[]) {
    const members = importsOf(chunk.path);
    assert.deepEqual(members, chunk.files, `${chunk.path} imports the files it names`);
    assert.ok(members.length <= CHUNK, `${chunk.path}: ${members.length} files`);
    assert.equal(new Set(members.map((f) => f.split('/')[1])).size, 1, 'one folder per process');
    assert.ok(SHARED_FOLDERS.includes(members[0]?.split('/')[1]));
    imported.push(...members);
  }
  const alone = (plan.paths as string[]).filter((p) => !p.endsWith('.group.mjs'));
  assert.deepEqual([...imported, ...alone].sort(), files);
  for (const file of OWN_PROCESS.keys()) assert.ok(alone.includes(file), `${file} runs alone`);
  assert.ok(imported.length > 50 && alone.length > 50, 'both kinds are in use');
});

it('runs every end-to-end file exactly once, the docs site files four to a process', (t) => {
  const files = allFiles('.e2e.ts', 'test/e2e');
  const plan = e2eTestPlan(files);
  t.after(() => rmSync(plan.dir, { recursive: true, force: true }));
  const grouped: string[] = [];
  for (const chunk of plan.chunks as { path: string; files: string[] }[]) {
    const members = importsOf(chunk.path);
    assert.deepEqual(members, chunk.files, `${chunk.path} imports the files it names`);
    assert.ok(members.length >= 1 && members.length <= E2E_CHUNK, `${chunk.path}: ${members.length} files`);
    assert.ok(
      members.every((f) => E2E_SHARED.test(f)),
      'only docs site files share a process',
    );
    grouped.push(...members);
  }
  const alone = (plan.paths as string[]).filter((p) => !p.endsWith('.group.mjs'));
  assert.deepEqual([...grouped, ...alone].sort(), files);
  assert.deepEqual(
    grouped.sort(),
    files.filter((f) => E2E_SHARED.test(f)),
    'every docs site file is grouped',
  );
  assert.ok(grouped.length >= 8, 'the docs site has its files');
});
