// npm test's node step (scripts/nodeTestPlan.mjs): every node test file runs exactly once, the shared
// processes hold at most CHUNK files of one folder, and the files that need a process of their own get one;
// the end-to-end step's groups (the docs site's files, the demo page's) share processes too.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { it } from 'node:test';
// @ts-expect-error: a plain JavaScript script, without declarations
import * as testPlan from '../../scripts/nodeTestPlan.mjs';

const { CHUNK, E2E_CHUNK, E2E_GROUPS, E2E_SHARED, OWN_PROCESS, SHARED_FOLDERS, e2eTestPlan, nodeTestPlan } = testPlan;

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

it('runs every end-to-end file exactly once, the files of a group in E2E_GROUPS up to its chunk to a process', (t) => {
  const files = allFiles('.e2e.ts', 'test/e2e');
  const plan = e2eTestPlan(files);
  t.after(() => rmSync(plan.dir, { recursive: true, force: true }));
  const groupOf = (file: string) => (E2E_GROUPS as { name: string; files: RegExp; chunk: number }[]).find((g) => g.files.test(file));
  const grouped: string[] = [];
  for (const chunk of plan.chunks as { path: string; files: string[] }[]) {
    const members = importsOf(chunk.path);
    assert.deepEqual(members, chunk.files, `${chunk.path} imports the files it names`);
    const groups = new Set(members.map(groupOf));
    assert.equal(groups.size, 1, `${chunk.path}: the files of one group`);
    const [group] = groups;
    assert.ok(group, `${chunk.path}: only the files of a group share a process`);
    assert.ok(members.length >= 1 && members.length <= group.chunk, `${chunk.path}: ${members.length} files`);
    grouped.push(...members);
  }
  const alone = (plan.paths as string[]).filter((p) => !p.endsWith('.group.mjs'));
  assert.deepEqual([...grouped, ...alone].sort(), files);
  assert.deepEqual(grouped.sort(), files.filter((f) => groupOf(f)).sort(), 'every file of a group is grouped');
  assert.equal(E2E_GROUPS[0].files, E2E_SHARED, 'the docs site files are the first group');
  assert.equal(E2E_GROUPS[0].chunk, E2E_CHUNK);
  assert.ok(files.filter((f) => E2E_SHARED.test(f)).length >= 8, 'the docs site has its files');
  assert.ok(files.filter((f) => E2E_GROUPS[1].files.test(f)).length >= 6, 'the demo page has its files');
});
