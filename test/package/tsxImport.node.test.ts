// A process a test or script starts preloads tsx as a file URL (fixtures/tsxImport.ts,
// scripts/test.mjs), never as the bare `--import tsx`: on a loaded machine a child that looks tsx
// up by name failed with ERR_MODULE_NOT_FOUND for node_modules/tsx/index.js (issue 36).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';

/** Spawns not yet moved, each in files another change owns right now; each names why it is left. */
const LEFT = new Map([
  ['test/mcp/helpers.ts', 'the MCP tests (being changed beside this)'],
  ['test/mcp/stdioLines.node.test.ts', 'the MCP tests (being changed beside this)'],
  ['demo/cluster.ts', 'the demo’s workers (being changed beside this)'],
  ['bench/suites/scale.ts', 'a bench (being changed beside this); not part of npm test'],
  ['bench/suites/load.ts', 'a bench, not part of npm test'],
  ['bench/suites/loadFlood.ts', 'a bench, not part of npm test'],
]);

it('no test, fixture, script, bench or demo file starts a process with a bare --import tsx', () => {
  const bare = ['test', 'fixtures', 'scripts', 'bench', 'demo']
    .flatMap((dir) => readdirSync(dir, { recursive: true }).map((f) => `${dir}/${String(f)}`))
    .filter((file) => /\.(ts|mjs|js)$/.test(file) && !LEFT.has(file))
    .filter((file) => /['"]--import['"],\s*['"]tsx['"]/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(bare, [], "use fixtures/tsxImport.ts's TSX_IMPORT (or import.meta.resolve('tsx'))");
});
