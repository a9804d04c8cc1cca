// The conformance kit on the MCP App path with the real panel (fixtures/conformance/mcpView.ts: the
// MCP server through the SDK Client, the panel in Chromium behind ext-apps' AppBridge). One Chromium
// for the file, one page for every conversation. Here every scenario runs in English; what the person
// does in the panel (double submit, retry, dismiss, a submission after a dismissal, reload) runs in
// every other language in conformance-mcp-view-languages.e2e.ts (two files, each within the per-file budget).
//
// As in test/mcp/conformance.node.test.ts, the show result is checked to be the MCP words exactly
// and handed to the kit in the Host's words (fixtures/conformance/mcpViewConformance.ts); the
// scenarios the MCP path differs from on purpose run as `todo`, by their own `differs`
// (conformance/scenarios/surface.ts).
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { it } from 'node:test';
import { type Conversation } from '../../conformance/index.js';
import { type McpConversation } from '../../conformance/drivers/mcp.js';
import { describeMcpViewConformance } from '../../fixtures/conformance/mcpViewConformance.js';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { answer, show } from '../../conformance/fixtures.js';

describeMcpViewConformance('conformance: the MCP App, the real panel in Chromium', (driver, suite) => {
  suite({ locales: ['en'] });

  it('what the person typed survives the iframe reloading, and then submits', async () => {
    const c = (await driver.open({ locale: 'de' })) as Conversation &
      McpConversation & { typed(): Promise<string[]>; panel(): Promise<Frame | null> };
    try {
      c.script({ calls: [show()] });
      await c.say('Help me plan a trip');
      const frame = (await c.panel())!;
      await frame.locator('task-surface-view input[data-field="1"]').fill('kept across a reload');
      // The draft is kept on the server after a pause in typing; then the host re-renders the iframe.
      const viewId = (c.shownCall()!.result._meta as { viewUUID: string }).viewUUID;
      const draft = async () =>
        (
          (await c.callTool({ name: VIEW_TOOL, arguments: { action: 'read', viewId } })) as {
            structuredContent: { draft?: Record<string, unknown> };
          }
        ).structuredContent.draft?.['why'];
      for (let i = 0; i < 200 && (await draft()) !== 'kept across a reload'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      await c.reload();
      assert.ok((await c.typed()).includes('kept across a reload'), 'the typed text after the reload');
      assert.deepEqual(await c.submit({ submissionId: 'after-reload', values: answer('kept across a reload') }), { accepted: true });
    } finally {
      await c.close();
    }
  });
});
