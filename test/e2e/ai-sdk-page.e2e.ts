// docs/ai-sdk.md's page ("The page"), run as written: bundled by esbuild (React, @ai-sdk/react,
// the package from source, as demo/ai-sdk builds its page) and mounted in Chromium against the docs'
// chat and waiting routes, also as written (test/conformance/docsRoute.ts), with a scripted model.
// The person asks, the Dock shows the panel, the answer reaches the route once and the model replies;
// a page error or console error fails the test.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { UIMessage } from 'ai';
import type { Browser } from 'playwright-core';
import { dismissTaskSurface, taskSurfaceDismissalResponse } from '../../ai-sdk/index.js';
import { asApp, type AppContext } from '../../conformance/drivers/aiSdkApp.js';
import { loadDocsRoute, loadDocsWaitingRoute } from '../conformance/docsRoute.js';
import { fence } from '../docsFences.js';
import { bundlePage } from './bundlePage.js';
import { sharedChromium, type SharedChromium } from './harness.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const MODEL = {
  version: 1,
  title: 'Pick a plan',
  sections: [],
  submit: { label: 'Choose' },
  fields: [{ kind: 'text', id: 'why', label: 'Why' }],
};

/** The model's responses, one per request: a panel, then a reply to the answer. */
const responses: LanguageModelV4StreamPart[][] = [
  [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: 'call-show-1', toolName: 'show_task_surface', input: JSON.stringify({ model: MODEL }) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
  ],
  [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Thanks, noted.' },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ],
];

const app: AppContext = {
  chats: new Map<string, UIMessage[]>(),
  kinds: undefined,
  limits: undefined,
  queuedMessageLimit: undefined,
  waiting: new Map(),
  readOnly: false,
  async doStream() {
    const parts = responses.shift() ?? [];
    return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
  },
};

/** A Node request as the Fetch API `Request` a route takes. */
async function asRequest(request: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers(
    Object.entries(request.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : [])),
  );
  // The app's session: the person the waiting route asks `signedIn` about.
  headers.set('x-conformance-person', 'person');
  return new Request(`http://app.test${request.url}`, {
    method: request.method,
    headers,
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
  });
}

let browser: Browser;
let chromium: SharedChromium | undefined;
let server: Server;
/** The page's bundle and its chunks, by path. */
let assets = new Map<string, string>();

before(async () => {
  const block = fence('docs/ai-sdk.md § The page · tsx 1');
  const mount = `\nimport { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')).render(<ChatPage id="chat-1" initialMessages={[]} />);\n`;
  const files = await bundlePage(block.code + mount, 'tsx', {
    'task-surface/ai-sdk/react': './ai-sdk/react/index.ts',
    'task-surface/ai-sdk': './ai-sdk/index.ts',
  });
  assets = new Map([...files].map(([name, text]) => [`/assets/${name}`, text]));
  const chat = await loadDocsRoute();
  const waiting = await loadDocsWaitingRoute();
  server = createServer((request, response) => {
    void (async () => {
      let answer: Response;
      const asset = assets.get(request.url ?? '');
      if (asset !== undefined) answer = new Response(asset, { headers: { 'content-type': 'text/javascript' } });
      else if (request.url === '/favicon.ico') answer = new Response(null, { status: 204 });
      else if (request.url === '/')
        answer = new Response(
          '<!doctype html><html lang="en"><body><div id="root"></div><script type="module" src="/assets/page.js"></script></body></html>',
          { headers: { 'content-type': 'text/html' } },
        );
      else {
        const asked = await asRequest(request);
        answer = await asApp(app, async () => {
          if (request.url === '/api/chat') return (chat.configure(app), chat.POST(asked));
          if (request.url === '/api/chat/waiting') return waiting.POST(asked);
          if (request.url === '/api/chat/dismiss') {
            const { chatId, ...dismissal } = (await asked.json()) as { chatId: string };
            const result = dismissTaskSurface(app.chats.get(chatId) ?? [], dismissal);
            if (result.dismissed && !result.repeated) app.chats.set(chatId, result.messages);
            return taskSurfaceDismissalResponse(result);
          }
          return new Response('not found', { status: 404 });
        });
      }
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body) Readable.fromWeb(answer.body as never).pipe(response);
      else response.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  chromium = await sharedChromium();
  browser = chromium.browser;
});
after(async () => {
  await chromium?.close();
  server?.closeAllConnections();
  server?.close();
});

describe("docs/ai-sdk.md's page, as written", { timeout: 90_000 }, () => {
  it('asks, answers in the Dock, and the model reads the answer once', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page
      .getByRole('textbox', { name: 'Message' })
      .waitFor({ timeout: 20_000 })
      .catch((error: Error) => assert.fail(`the page did not mount (${error.message}); it said: ${errors.join(' | ') || 'nothing'}`));
    await page.getByRole('textbox', { name: 'Message' }).fill('help me pick');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const dock = page.locator('task-surface-dock');
    await dock.getByRole('heading', { name: 'Pick a plan' }).waitFor();
    await dock.getByRole('textbox', { name: 'Why' }).fill('cheaper');
    await dock.getByRole('button', { name: 'Choose' }).click();
    await page.getByText('Thanks, noted.').waitFor();
    const stored = app.chats.get('chat-1') ?? [];
    const answers = stored.filter((m) => m.role === 'user' && (m.metadata as { taskSurface?: unknown } | undefined)?.taskSurface);
    assert.equal(answers.length, 1, 'one submission message on the server');
    assert.deepEqual((answers[0]!.metadata as { taskSurface: { values: unknown } }).taskSurface.values, { why: 'cheaper' });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
