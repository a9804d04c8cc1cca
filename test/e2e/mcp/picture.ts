// docs/mcp.png: the panel inside the MCP Apps host harness (sandbox proxy, dark, English), taken
// with playwright-core. `node --import tsx test/e2e/mcp/picture.ts`.
import { everyKindModel } from '../../../fixtures/models.js';
import { startMcpHarness } from '../../../fixtures/mcp/harness.js';

const harness = await startMcpHarness();
try {
  await harness.page.setViewportSize({ width: 820, height: 1400 });
  const model = everyKindModel();
  model.sections = model.sections.slice(0, 1);
  model.fields = (model.fields ?? []).filter((f) => f.kind !== 'order');
  const frame = await harness.mount('proxy', await harness.show(model), { theme: 'dark', locale: 'en', displayMode: 'inline' });
  // Answerable once the server said the call is open (the controls are disabled until then).
  await frame.waitForFunction(() => document.querySelector('task-surface-view')?.hasAttribute('disabled') === false);
  await harness.page.waitForTimeout(300);
  const height = await harness.page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().bottom + 16);
  await harness.page.screenshot({ path: 'docs/mcp.png', clip: { x: 0, y: 0, width: 820, height: Math.ceil(height) } });
  console.log(`docs/mcp.png: 820 x ${Math.ceil(height)}`);
} finally {
  await harness.close();
}
