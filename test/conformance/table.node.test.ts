// docs/conformance.md's table is the kit's: regenerated here and compared, so a stale page fails.
// `UPDATE_CONFORMANCE=1` writes it instead.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { it } from 'node:test';
import { SCENARIOS } from '../../conformance/index.js';
import { conformanceTable } from '../../conformance/table.js';
import { snippetOf } from './snippet.js';
import { TABLE_DRIVERS } from './drivers.js';

const PAGE = new URL('../../docs/conformance.md', import.meta.url);
const START = '<!-- conformance-table:start -->';
const END = '<!-- conformance-table:end -->';

it("docs/conformance.md's table is the one the kit generates", () => {
  const page = readFileSync(PAGE, 'utf8');
  const [before, rest] = page.split(START);
  const after = rest?.split(END)[1];
  assert.ok(before !== undefined && after !== undefined, `docs/conformance.md must hold ${START} … ${END}`);
  const next = `${before}${START}\n${conformanceTable(SCENARIOS, TABLE_DRIVERS)}\n${END}${after}`;
  if (process.env['UPDATE_CONFORMANCE']) writeFileSync(PAGE, next);
  assert.equal(
    page,
    next,
    'docs/conformance.md is stale: UPDATE_CONFORMANCE=1 node --import tsx --test test/conformance/table.node.test.ts',
  );
});

it("the README's AI SDK route is docs/ai-sdk.md's, the one the kit runs", () => {
  const readme = snippetOf(new URL('../../README.md', import.meta.url), '## Inside an AI SDK app');
  assert.equal(readme, snippetOf(new URL('../../docs/ai-sdk.md', import.meta.url), '## The server'));
});
