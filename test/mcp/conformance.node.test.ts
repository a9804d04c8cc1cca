// The conformance kit on the MCP App path (conformance/drivers/mcp.ts: the MCP server through the SDK
// Client, the driver as the host's chat and the panel), every scenario in every language.
//
// The show result differs on this path: an ordinary message does not close the panel, so the result
// names the panel id and `task_surface_answer` instead (issue 36). Each such result is checked here to
// be exactly the MCP words (`shownText`), then handed to the kit in the Host's words, so every other
// rule of the scenario still runs (`inHostWords`, conformance/drivers/mcp.ts). The scenarios that need a conversation the server does not have
// say so in their own `differs` (conformance/scenarios/surface.ts) and run as `todo`.
import { after, before, describe, it } from 'node:test';
import { conformanceSuite, registerProductLocale, type ConformanceDriver, type Conversation } from '../../conformance/index.js';
import { inHostWords, mcpDriver, type McpConversation } from '../../conformance/drivers/mcp.js';

const driver: ConformanceDriver = {
  ...mcpDriver,
  open: async (options) => inHostWords((await mcpDriver.open(options)) as Conversation & McpConversation),
};

describe('conformance: the MCP App', () => {
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  conformanceSuite({ test: it, driver });
});
