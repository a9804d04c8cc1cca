// The browser blocks of README.md and docs/, run as written in Chromium: each block bundled by
// esbuild with its `task-surface/*` imports pointed at this checkout's source (as the demo's build
// does) between a prelude for the names its page leaves to the app and an epilogue that reports
// what it made; an html block is the page's body. A page error or console error fails the test.
// test/docsFences.node.test.ts lists every block and which test runs it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { createHost, createMemoryStore } from '../../host/index.js';
import { mintMessageId, mintRpcId, type SessionId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { fence } from '../docsFences.js';
import { sharedChromium, type SharedChromium } from './harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ALIAS = {
  'task-surface/components': './components/index.ts',
  'task-surface/bundle': './components/bundle.ts',
  'task-surface/transport': './transport/index.ts',
  'task-surface/host': './host/index.ts',
  'task-surface/protocol': './protocol/index.ts',
};

let browser: Browser;
let chromium: SharedChromium | undefined;
let server: Server;
let served = { html: '', js: '' };

before(async () => {
  chromium = await sharedChromium();
  browser = chromium.browser;
  server = createServer((request, response) => {
    const js = request.url === '/snippet.js';
    response.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html; charset=utf-8' });
    response.end(
      js ? served.js : `<!doctype html><html><body>${served.html}<script type="module" src="/snippet.js"></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  await chromium?.close();
  server?.closeAllConnections();
  server?.close();
});

/**
 * Opens a page whose body is `html` and whose one module is `prelude`, the block `key` as written and
 * `epilogue` (which sets `window.snippetDone`); resolves once that is set, with the page.
 */
async function run(
  key: string,
  { prelude = '', epilogue = '', html = '' }: { prelude?: string; epilogue?: string; html?: string },
): Promise<Page> {
  const block = fence(key);
  const result = await build({
    stdin: {
      contents: `${prelude}\n${block.code}\n${epilogue}\n`,
      loader: block.lang === 'js' ? 'js' : 'ts',
      resolveDir: root,
      sourcefile: 'snippet.ts',
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    alias: ALIAS,
    logLevel: 'silent',
  });
  served = { html, js: result.outputFiles[0]!.text };
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  after(() => page.close());
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page
    .waitForFunction(() => (window as { snippetDone?: boolean }).snippetDone === true, undefined, { timeout: 20_000 })
    .catch((error: Error) =>
      assert.fail(`${key}: the block did not finish (${error.message}); the page said: ${errors.join(' | ') || 'nothing'}`),
    );
  assert.deepEqual(errors, [], `${key}: the page logged no error`);
  return page;
}

/** A Host in the page with session `s1`, whose driver shows a plan when the person writes. */
const HOST_PRELUDE = `
import { createHost, createMemoryStore } from 'task-surface/host';
import { mintMessageId, mintRpcId } from 'task-surface/protocol';
const host = createHost({ store: createMemoryStore(), ids: { session: () => 's1' }, driver: { async runTurn(turn) {
  await turn.callTool('show_task_surface', { model: { version: 1, title: 'Pick a plan', sections: [], submit: { label: 'Choose' },
    fields: [{ kind: 'choice', id: 'plan', label: 'Plan', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] }] } });
} } });
host.openSession({ title: 'Snippet' });`;

describe('docs/components.md', { timeout: 60_000 }, () => {
  it('a transport from an ancestor (js) reaches the Dock of the html block, in Chinese', async () => {
    // The elements are added after the provider, as the page says (an element asks once, when it connects).
    const html = fence('docs/components.md § Components (`task-surface/components`, `dist/task-surface.js`) · html 1').code;
    const page = await run('docs/components.md § Components (`task-surface/components`, `dist/task-surface.js`) · js 1', {
      prelude: HOST_PRELUDE,
      epilogue: `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(html)});
await host.session.send({ sessionId: 's1', messageId: mintMessageId(), rpcId: mintRpcId(), text: 'help me pick' });
await host.whenIdle('s1');
window.snippetDone = true;`,
    });
    const dock = page.locator('task-surface-dock');
    await dock.getByRole('heading', { name: 'Pick a plan' }).waitFor();
    await dock.getByRole('button', { name: '关闭任务' }).waitFor();
  });

  it('Languages: a product’s French table, registered and disposed', async () => {
    const page = await run('docs/components.md § Languages · ts 1', {
      epilogue: `const before = strings('fr').required;
dispose();
window.snippetResult = [before, strings('fr').required];
window.snippetDone = true;`,
    });
    assert.deepEqual(await page.evaluate(() => (window as { snippetResult?: unknown }).snippetResult), ['(obligatoire)', '(required)']);
  });
});

describe('README.md', { timeout: 60_000 }, () => {
  it('Languages: a product’s French table, registered', async () => {
    const page = await run('README.md § Languages · ts 1', {
      epilogue: `window.snippetResult = strings('fr').required;
window.snippetDone = true;`,
    });
    assert.equal(await page.evaluate(() => (window as { snippetResult?: unknown }).snippetResult), '(obligatoire)');
  });
});

describe('docs/action-cards.md', { timeout: 60_000 }, () => {
  it('Browser: the shipped card bodies load when first asked for', async () => {
    const page = await run('docs/action-cards.md § Browser: `<action-card>` · ts 1', {
      epilogue: `import { cardBodyFor } from './components/action-card/bodies.ts';
const loaded = async (action) => { for (let i = 0; i < 200 && !cardBodyFor(action); i++) await new Promise((r) => setTimeout(r, 10)); return cardBodyFor(action)?.action; };
window.snippetResult = [await loaded('create_page'), await loaded('schedule_follow_up')];
window.snippetDone = true;`,
    });
    assert.deepEqual(await page.evaluate(() => (window as { snippetResult?: unknown }).snippetResult), [
      'create_page',
      'schedule_follow_up',
    ]);
  });
});

describe('README.md, a plain page', { timeout: 60_000 }, () => {
  it('Quick start, in a page: the bundle by URL, a WebSocket Host, the Dock shows the panel', async () => {
    const bundle = await build({
      entryPoints: ['./components/bundle.ts'],
      absWorkingDir: root,
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const host = createHost({
      store: createMemoryStore(),
      ids: { session: () => 's1' },
      driver: {
        async runTurn(turn) {
          if (turn.input.at(-1)?.source.taskSurface) return turn.reply('Thanks!');
          await turn.callTool('show_task_surface', {
            model: {
              version: 1,
              title: 'Pick a plan',
              sections: [],
              submit: { label: 'Choose' },
              fields: [{ kind: 'text', id: 'why', label: 'Why' }],
            },
          });
        },
      },
    });
    const sessionId = host.openSession({ title: 'Quick start' }) as SessionId;
    const html = fence('README.md § Quick start · html 1').code;
    const page = createServer((request, response) => {
      const js = request.url === '/assets/task-surface.js';
      response.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html; charset=utf-8' });
      response.end(js ? bundle.outputFiles[0]!.text : `<!doctype html><html lang="en"><body>${html}</body></html>`);
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const endpoint = await createWebSocketServer({ host, server: page, path: '/ws', allowAnonymous: true });
    after(async () => {
      await endpoint.close();
      page.closeAllConnections();
      page.close();
      await host.dispose();
    });
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    tab.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    after(() => tab.close());
    await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
    await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'help me pick' });
    await tab.locator('task-surface-dock').getByRole('heading', { name: 'Pick a plan' }).waitFor();
    await tab.locator('task-surface-dock').getByRole('textbox', { name: 'Why' }).fill('cheaper');
    await tab.locator('task-surface-dock').getByRole('button', { name: 'Choose' }).click();
    await host.whenIdle(sessionId);
    for (let i = 0; i < 200 && host.getView(sessionId).taskSurface.active; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(host.getView(sessionId).taskSurface.active, null, 'the answer reached the Host and closed the surface');
    assert.deepEqual(errors, []);
  });
});

describe('docs/demo.md, The WebSocket transport', { timeout: 60_000 }, () => {
  it('the browser half: a transport on the page’s own origin reads and writes a session of the Host behind /ws', async () => {
    const host = createHost({
      store: createMemoryStore(),
      ids: { session: () => 's1' },
      driver: {
        async runTurn(turn) {
          turn.reply('Hello from the Host');
        },
      },
    });
    const sessionId = host.openSession({ title: 'Transport' }) as SessionId;
    const endpoint = await createWebSocketServer({ host, server, path: '/ws', allowAnonymous: true });
    after(async () => (await endpoint.close(), await host.dispose()));
    const page = await run('docs/demo.md § The WebSocket transport · ts 2', {
      prelude: `import { mintMessageId, mintRpcId } from 'task-surface/protocol';`,
      epilogue: `const sent = await transport.session.send({ sessionId: 's1', messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hello over /ws' });
let texts = [];
for (let i = 0; i < 100 && !texts.includes('Hello from the Host'); i++) {
  if (i > 0) await new Promise((done) => setTimeout(done, 50));
  texts = (await transport.readLog('s1', { limit: 20 })).events.flatMap((event) => (event.type === 'user/message' || event.type === 'assistant/message' ? [event.text] : []));
}
window.snippetResult = { accepted: sent.accepted, texts };
transport.dispose();
window.snippetDone = true;`,
    });
    const result = (await page.evaluate(() => (window as { snippetResult?: unknown }).snippetResult)) as {
      accepted: boolean;
      texts: string[];
    };
    assert.equal(result.accepted, true, 'the message was accepted over the page’s own origin');
    assert.deepEqual(result.texts, ['hello over /ws', 'Hello from the Host'], 'the log read back through the transport');
    const log = await host.readLog(sessionId, { limit: 20 });
    assert.ok(
      log.events.some((event) => event.type === 'user/message' && event.text === 'hello over /ws'),
      'the Host has the message',
    );
  });
});
