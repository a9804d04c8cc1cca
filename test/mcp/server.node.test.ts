import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { PANEL_URI, VIEW_TOOL } from '../../mcp/constants.js';
import { startStdioServer } from '../../mcp/stdio.js';
import { showTaskSurfaceTool } from '../../protocol/index.js';
import { APPS, ensurePanelBuilt, httpClient, httpServer, smallModel, stdioClient, textOf } from './helpers.js';

// `npm test` builds the document first; run alone, a file may build it (slow on a busy machine).
before(ensurePanelBuilt, { timeout: 180_000 });

const transports: [string, (t: TestContext, capabilities: typeof APPS) => Promise<Client>][] = [
  ['stdio', (t, capabilities) => stdioClient(t, { capabilities })],
  ['Streamable HTTP', async (t, capabilities) => httpClient(t, (await httpServer(t)).url, capabilities)],
];

for (const [name, connect] of transports) {
  describe(`the MCP server over ${name}`, () => {
    // One server and client for these tests, which list, read and show, each with ids of its own:
    // over stdio a server is a process, about 3 s to start on a busy machine. Closed after the last.
    const closers: (() => unknown)[] = [];
    const suite = { after: (close: () => unknown) => void closers.push(close) } as unknown as TestContext;
    let shared: Promise<Client> | undefined;
    const connected = () => (shared ??= connect(suite, APPS));
    after(async () => {
      for (const close of closers.reverse()) await close();
    });

    test('lists show_task_surface with the project JSON Schema and the app resource', async () => {
      const client = await connected();
      const { tools } = await client.listTools();
      const show = tools.find((tool) => tool.name === 'show_task_surface');
      assert.ok(show, 'show_task_surface is listed');
      assert.deepEqual(
        show.inputSchema,
        showTaskSurfaceTool.inputSchema,
        'the inputSchema is the one the OpenAI and Anthropic declarations carry',
      );
      assert.equal(show.description, showTaskSurfaceTool.description);
      assert.deepEqual((show._meta as { ui: unknown }).ui, { resourceUri: PANEL_URI });
      const view = tools.find((tool) => tool.name === VIEW_TOOL);
      assert.deepEqual((view?._meta as { ui: { visibility: string[] } }).ui.visibility, ['app'], 'the view tool is app-only');
    });

    test('the resource is one self-contained document that loads nothing', async () => {
      const client = await connected();
      const { contents } = await client.readResource({ uri: PANEL_URI });
      assert.equal(contents.length, 1);
      const [doc] = contents as unknown as [{ mimeType: string; text: string; _meta: { ui: { csp: Record<string, unknown[]> } } }];
      assert.equal(doc.mimeType, 'text/html;profile=mcp-app');
      for (const domains of Object.values(doc._meta.ui.csp)) assert.deepEqual(domains, [], 'the CSP declares no origin');
      const tags = doc.text.replace(/<script type="module">[\s\S]*?<\/script>/, '<script type="module"></script>');
      assert.doesNotMatch(tags, /\s(src|href|srcset|action|poster|data)=/i, 'no markup attribute names a URL');
      assert.doesNotMatch(tags, /<(link|img|iframe|object|embed|base)\b/i);
      assert.doesNotMatch(tags, /url\(|@import/i, 'the styles fetch nothing');
      const script = /<script type="module">([\s\S]*)<\/script>/.exec(doc.text)?.[1] ?? '';
      assert.ok(script.length > 10_000, 'the script is inline');
      assert.doesNotMatch(
        script,
        /\bimport\s*\(|^\s*import\s|[;}]import\s*[{*"']|new\s+Worker|importScripts/,
        'the script imports nothing',
      );
    });

    test('a bad model gets an error result naming every issue with its path', async () => {
      const client = await connected();
      const model = { ...smallModel(), title: ' ', fields: [{ kind: 'choice', id: 'x', label: 'X', options: [] }] };
      const result = await client.callTool({ name: 'show_task_surface', arguments: { model } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /model\.title: /);
      assert.match(textOf(result), /model\.fields\[0\]\.options: /);
      assert.match(textOf(result), /call show_task_surface again/);
      const missing = await client.callTool({ name: 'show_task_surface', arguments: {} });
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /model/);
    });

    test('a good model gets the normalised model, the view id and the spec text', async () => {
      const client = await connected();
      const result = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
      assert.notEqual(result.isError, true);
      const content = result.structuredContent as { model: { fields: { id: string; initial?: unknown }[] }; surfaceId: string };
      assert.deepEqual(
        content.model.fields.map((f) => f.id),
        ['db', 'why'],
      );
      assert.equal(content.model.fields[1]!.initial, '', 'normalised: a text field without initial gets ""');
      assert.equal(typeof (result._meta as { viewUUID?: unknown }).viewUUID, 'string');
      assert.match(textOf(result), /is now shown to the user; your turn ends here/);
      const read = await client.callTool({
        name: VIEW_TOOL,
        arguments: { action: 'read', viewId: (result._meta as { viewUUID: string }).viewUUID },
      });
      assert.equal((read.structuredContent as { status: string }).status, 'open');
    });

    test('the view tool names what is wrong with a bad call', async () => {
      const client = await connected();
      const result = await client.callTool({ name: VIEW_TOOL, arguments: { action: 'submit', viewId: '' } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /arguments\.viewId/);
      const unknown = await client.callTool({ name: VIEW_TOOL, arguments: { action: 'read', viewId: 'no-such-panel' } });
      assert.equal((unknown.structuredContent as { status: string }).status, 'unknown');
    });
  });
}

test('over stdio, an answered panel stays answered across a restart (SQLite under --data-dir)', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ts-mcp-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await stdioClient(t, { capabilities: APPS, args: ['--data-dir', dataDir] });
  const shown = await first.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  const viewId = (shown._meta as { viewUUID: string }).viewUUID;
  const answer = { action: 'submit', viewId, submissionId: 'sub-1', values: { db: 'pg', why: 'joins' }, locale: 'zh' };
  const submitted = await first.callTool({ name: VIEW_TOOL, arguments: answer });
  const state = submitted.structuredContent as { status: string; text: string; delivered: boolean };
  assert.equal(state.status, 'submitted');
  assert.match(state.text, /PostgreSQL/);
  assert.match(state.text, /数据库|：/, 'the text is in the language the view asked for');
  assert.equal(state.delivered, false);
  await first.callTool({ name: VIEW_TOOL, arguments: { action: 'delivered', viewId, submissionId: 'sub-1' } });
  await first.close();

  const second = await stdioClient(t, { capabilities: APPS, args: ['--data-dir', dataDir] });
  const read = await second.callTool({ name: VIEW_TOOL, arguments: { action: 'read', viewId } });
  assert.deepEqual(
    { ...(read.structuredContent as object), model: undefined, surfaceId: undefined, text: undefined },
    {
      status: 'submitted',
      submissionId: 'sub-1',
      values: { db: 'pg', why: 'joins' },
      delivered: true,
      channel: 'message',
      model: undefined,
      surfaceId: undefined,
      text: undefined,
    },
  );
  const again = await second.callTool({ name: VIEW_TOOL, arguments: { ...answer, submissionId: 'sub-2' } });
  assert.equal((again.structuredContent as { submissionId: string }).submissionId, 'sub-1', 'a second answer is not recorded');
});

test('a second server on the same data folder starts and shares it (never memory-only)', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ts-mcp-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startStdioServer({ dataDir, stdin: new PassThrough(), log: () => undefined });
  t.after(() => first.close());
  const second = await startStdioServer({ dataDir, stdin: new PassThrough(), log: () => undefined });
  await second.close();
});
