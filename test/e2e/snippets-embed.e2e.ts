// docs/demo.md's two quick starts ("Embedding the elements"), run as written on the demo host: the
// plain page's html and js blocks served in place of the demo's own embed files (which carry the
// same code with comments), and the React block bundled by esbuild (as the demo builds its
// embed page) and mounted. Each page sends, answers the panel in the Dock, and the agent reads it.
// test/docsFences.node.test.ts lists every block and which test runs it.
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fence } from '../docsFences.js';
import { bundlePage } from './bundlePage.js';
import { dock, dockState, sharedBuild, sharedChromium, startDemo, surfaceAnswers, type Demo, type E2E } from './harness.js';

// A page fulfilled by the test has no address of its own: Chromium's Local Network Access checks
// then take it for a public page and block its socket to the loopback demo. This Chromium is told
// not to check (the demo's own pages, served from the loopback, never meet them).
let e2e: E2E;
let demo: Demo | undefined;
before(async () => {
  const root = await sharedBuild();
  const { browser, close } = await sharedChromium(['--disable-features=LocalNetworkAccessChecks']);
  e2e = { browser, root, close };
});
after(() => e2e?.close());
afterEach(async () => {
  await demo?.close();
  demo = undefined;
});
const suite = { start: async () => (demo = await startDemo(e2e)) };
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quick start</title></head><body>${body}</body></html>`;

/** As test/e2e/embed.e2e.ts: type, send, answer in the Dock, the agent reads it back. */
async function roundTrip(d: Demo, tab: Page) {
  await tab.getByRole('textbox', { name: 'Message' }).fill('compare databases');
  await tab.getByRole('button', { name: 'Send' }).click();
  await dock(tab).getByRole('heading', { name: 'Pick a database for the ledger service' }).waitFor();
  await tab.locator('task-surface-toolview').waitFor();
  await dock(tab)
    .getByRole('radio', { name: /CockroachDB/ })
    .click();
  await dock(tab).getByRole('button', { name: 'Use this database' }).click();
  await dockState(tab, 'hidden');
  await tab.getByText(/Going with \W*CockroachDB/).waitFor();
  assert.equal(surfaceAnswers(await d.events()).length, 1);
}

describe("docs/demo.md's quick starts, as written", () => {
  it('the plain page: its html and js blocks on the demo host', async () => {
    const demo = await suite.start();
    const html = fence('docs/demo.md § Embedding the elements · html 1').code;
    const js = fence('docs/demo.md § Embedding the elements · js 1').code;
    await demo.context.route('**/embed/docs-plain?*', (route) => route.fulfill({ contentType: 'text/html', body: page(html) }));
    await demo.context.route('**/assets/embed-plain.js', (route) => route.fulfill({ contentType: 'text/javascript', body: js }));
    await roundTrip(demo, await demo.open(demo.sessionId, `/embed/docs-plain?session=${demo.sessionId}`));
  });

  it('the React page: its jsx block, bundled and mounted', async () => {
    const block = fence('docs/demo.md § Embedding the elements · jsx 1').code;
    const mount = `\nimport { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')).render(<Chat sessionId={new URLSearchParams(location.search).get('session')} />);\n`;
    const files = await bundlePage(block + mount, 'jsx', {
      'task-surface/components': './components/index.ts',
      'task-surface/transport': './transport/index.ts',
    });
    const demo = await suite.start();
    await demo.context.route('**/embed/docs-react?*', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: page('<div id="root"></div><script type="module" src="/assets/docs-react/page.js"></script>'),
      }),
    );
    await demo.context.route('**/assets/docs-react/*', (route) => {
      const file = files.get(basename(new URL(route.request().url()).pathname));
      return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ contentType: 'text/javascript', body: file });
    });
    await roundTrip(demo, await demo.open(demo.sessionId, `/embed/docs-react?session=${demo.sessionId}`));
  });
});
