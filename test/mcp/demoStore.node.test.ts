// `/mcp` on the demo never falls back to memory without a word: a panel file that cannot be opened
// fails the start and says which file and why.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createDemoMcp } from '../../demo/mcp.js';

test('a demo whose mcp.db cannot be opened fails at start, naming the file', (t) => {
  const data = mkdtempSync(join(tmpdir(), 'ts-demo-mcp-store-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  mkdirSync(join(data, 'mcp.db')); // a folder where the file should be
  assert.throws(
    () => createDemoMcp({ dataDir: data, principalOf: () => null }),
    (error: Error) => error.message.startsWith(`/mcp: cannot open ${join(data, 'mcp.db')}: `) && /--memory/.test(error.message),
  );
});
