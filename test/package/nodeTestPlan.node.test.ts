// npm test's node step (scripts/nodeTestPlan.mjs): every node test file runs exactly once, the shared
// processes hold at most CHUNK files of one folder, and the files that need a process of their own get one.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { it } from 'node:test';
// @ts-expect-error: a plain JavaScript script, without declarations
import { CHUNK, OWN_PROCESS, SHARED_FOLDERS, nodeTestPlan } from '../../scripts/nodeTestPlan.mjs';

const allFiles = () =>
  readdirSync('test', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.node.test.ts'))
    .map((f) => `test/${f}`)
    .sort();

it('runs every node test file exactly once, at most CHUNK of one shared folder to a process', (t) => {
  const files = allFiles();
  const plan = nodeTestPlan(files);
  t.after(() => rmSync(plan.dir, { recursive: true, force: true }));
  const imported: string[] = [];
  for (const chunk of plan.chunks as { path: string; files: string[] }[]) {
    const lines = readFileSync(chunk.path, 'utf8').match(/^import "(.+)";$/gm) ?? [];
    const members = lines.map((l) => relative(process.cwd(), fileURLToPath(l.slice(8, -2))));
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
