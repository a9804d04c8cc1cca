// Every stdio configuration snippet of README.md and docs/mcp.md runs exactly as written from a
// fresh clone: the commit's tree in a new folder (node_modules linked in, as `npm ci` would make
// it), `/path/to/task-surface` read as that folder, the command and arguments spawned by the SDK's
// stdio transport as an MCP host spawns them. No snippet names a package that
// is not published. The HTTP snippet's `/mcp` is held by test/mcp/demo.node.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { APPS, smallModel, textOf } from './helpers.js';

const PLACEHOLDER = '/path/to/task-surface';
const root = resolve(import.meta.dirname, '../..');

interface ServerEntry {
  command?: string;
  args?: string[];
  type?: string;
  url?: string;
}

/** The `mcpServers` entries of every JSON block of a Markdown file, with where they stand. */
function snippets(file: string): { where: string; name: string; entry: ServerEntry }[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found = [];
  for (const match of text.matchAll(/```json\n([\s\S]*?)```/g)) {
    if (!match[1]!.includes('mcpServers')) continue;
    const line = text.slice(0, match.index).split('\n').length;
    const config = JSON.parse(match[1]!) as { mcpServers: Record<string, ServerEntry> };
    for (const [name, entry] of Object.entries(config.mcpServers)) found.push({ where: `${file}:${line}`, name, entry });
  }
  return found;
}

const all = [...snippets('README.md'), ...snippets('docs/mcp.md')];
const stdio = all.filter((s) => s.entry.command !== undefined);

test('the docs carry a stdio and an HTTP snippet, and name no unpublished package', () => {
  assert.ok(stdio.length > 0, 'a stdio snippet');
  assert.ok(
    all.some((s) => s.entry.url !== undefined),
    'an HTTP snippet',
  );
  for (const { where, entry } of stdio) {
    assert.notEqual(entry.command, 'npx', `${where}: npx fetches a package from the registry, and task-surface is not published there`);
  }
});

describe('a stdio snippet from a fresh clone', () => {
  let clone = '';
  before(() => {
    clone = mkdtempSync(join(tmpdir(), 'task-surface-clone-'));
    // The commit's tree, as `git clone` checks it out (uncommitted work is not part of a fresh clone).
    const tar = join(clone, '.head.tar');
    execFileSync('git', ['archive', '--format=tar', '-o', tar, 'HEAD'], { cwd: root });
    execFileSync('tar', ['-xf', tar, '-C', clone]);
    rmSync(tar);
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  });
  after(() => rmSync(clone, { recursive: true, force: true }));

  for (const { where, name, entry } of stdio) {
    test(`${where} (${name}): starts, lists the tools and shows a panel`, { timeout: 180_000 }, async (t) => {
      const args = (entry.args ?? []).map((arg) => (arg === PLACEHOLDER ? clone : arg));
      assert.ok(args.includes(clone) || !(entry.args ?? []).some((a) => a.startsWith('/')), `${where}: the only path is ${PLACEHOLDER}`);
      const client = new Client({ name: 'snippet-host', version: '1.0.0' }, { capabilities: APPS });
      await client.connect(new StdioClientTransport({ command: entry.command!, args, stderr: 'pipe' }));
      t.after(() => client.close());
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(names.sort(), ['show_task_surface', 'task_surface_answer', 'task_surface_view']);
      const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
      assert.notEqual(shown.isError, true, textOf(shown));
      assert.match(textOf(shown), /is now shown to the user/);
    });
  }
});
