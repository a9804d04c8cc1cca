// An MCP Apps host harness for the end-to-end tests, the bench and the README's picture: the MCP
// server in this process (an SDK Client that declares MCP Apps, over an in-memory pair), a harness
// page on one origin with the ext-apps AppBridge (test/e2e/mcp/bridge.ts), the spec's sandbox proxy
// on another origin, and Chromium. The page forwards the view's app-only tool calls to the server
// and hands every ui/message, model-context update and size report to the test.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/server';
import { build } from 'esbuild';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { createMemoryStore } from '../../../host/store/memory.js';
import { readPanelDocument } from '../../../mcp/document.js';
import { createPanelLedger, type PanelLedger } from '../../../mcp/ledger.js';
import { createTaskSurfaceMcpServer, PANEL_CSP } from '../../../mcp/server.js';
import type { TaskSurfaceModelV1 } from '../../../protocol/index.js';
import { APPS, ensurePanelBuilt } from '../../mcp/helpers.js';
import { CHROMIUM_ARGS } from '../harness.js';

const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps host harness</title>
<style>body{margin:0;padding:16px;font-family:system-ui;background:#111;color:#eee}main{max-width:720px}</style></head>
<body><main><h1>MCP Apps host harness</h1><div id="slot"></div></main><script type="module" src="/bridge.js"></script></body></html>`;

export interface HostMessage {
  text: string;
  accepted: boolean;
}

export type MountMode = 'proxy' | 'bare';

/** One harness: servers, the MCP server and client, one Chromium page, and what the host received. */
export interface McpHarness {
  page: Page;
  ledger: PanelLedger;
  client: Client;
  /** Every ui/message the view sent, and whether the host accepted it. */
  messages: HostMessage[];
  /** Every ui/update-model-context text. */
  contexts: string[];
  sizes: { width?: number; height?: number }[];
  /** Requests the browser made, by URL (the harness's own files are expected). */
  requests: string[];
  /** The next n ui/message requests are answered with an error. */
  failMessages(n: number): void;
  /** Calls show_task_surface as the model would; the result the host passes to the view. */
  show(model: TaskSurfaceModelV1): Promise<{ input: Record<string, unknown>; result: CallToolResult }>;
  mount(
    mode: MountMode,
    call: { input: Record<string, unknown>; result: CallToolResult },
    hostContext?: Record<string, unknown>,
  ): Promise<Frame>;
  reload(
    mode: MountMode,
    call: { input: Record<string, unknown>; result: CallToolResult },
    hostContext?: Record<string, unknown>,
  ): Promise<Frame>;
  unmount(): Promise<void>;
  close(): Promise<void>;
}

/** The harness's default host context: dark, Simplified Chinese, inline. */
export const DARK_ZH = { theme: 'dark', locale: 'zh-Hans', displayMode: 'inline', availableDisplayModes: ['inline'] };

async function listen(handler: Parameters<typeof createServer>[1], host: string): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

/** Starts everything; `browser` may be shared (it is launched here when absent). */
export async function startMcpHarness(shared?: Browser): Promise<McpHarness> {
  await ensurePanelBuilt();
  const html = readPanelDocument();
  const bridge = await build({
    entryPoints: [fileURLToPath(new URL('./bridge.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  const bridgeJs = bridge.outputFiles[0]!.text;
  const sandbox = readFileSync(new URL('./sandbox.html', import.meta.url), 'utf8');
  const reply = (body: string, type: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const hostSite = await listen((req, res) => {
    if (req.url === '/bridge.js') return reply(bridgeJs, 'text/javascript')(req, res);
    return reply(HOST_PAGE, 'text/html; charset=utf-8')(req, res);
  }, '127.0.0.1');
  // Another origin (another host name) for the proxy, as the spec asks of web hosts.
  const proxySite = await listen(reply(sandbox, 'text/html; charset=utf-8'), 'localhost');

  const store = createMemoryStore();
  const ledger = createPanelLedger({ store });
  const server = createTaskSurfaceMcpServer({ appHtml: html, ledger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'harness-host', version: '1.0.0' }, { capabilities: APPS });
  await client.connect(clientSide);

  const browser =
    shared ??
    (await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }));
  const page = await browser.newPage();
  const messages: HostMessage[] = [];
  const contexts: string[] = [];
  const sizes: { width?: number; height?: number }[] = [];
  const requests: string[] = [];
  let failing = 0;
  page.on('request', (request) => requests.push(request.url()));
  const textOf = (params: unknown) =>
    ((params as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');
  await page.exposeFunction('harnessCallTool', (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params));
  await page.exposeFunction('harnessMessage', (params: unknown) => {
    const accepted = failing === 0;
    if (!accepted) failing--;
    messages.push({ text: textOf(params), accepted });
    if (!accepted) throw new Error('the chat is busy');
    return {};
  });
  await page.exposeFunction('harnessContext', (params: unknown) => {
    contexts.push(textOf(params));
    return {};
  });
  await page.exposeFunction('harnessSize', (params: { width?: number; height?: number }) => void sizes.push(params));
  await page.goto(`${hostSite.origin}/`);

  const options = (
    mode: MountMode,
    call: { input: Record<string, unknown>; result: CallToolResult },
    hostContext: Record<string, unknown> = DARK_ZH,
  ) => ({
    mode,
    proxyUrl: `${proxySite.origin}/sandbox.html`,
    html,
    csp: PANEL_CSP,
    toolInput: call.input,
    toolResult: call.result,
    hostContext,
  });
  const panelFrame = async (): Promise<Frame> => {
    for (let i = 0; i < 200; i++) {
      const frame = page.frames().find((f) => f.url() === 'about:srcdoc');
      if (frame && (await frame.evaluate(() => document.querySelector('main')?.childElementCount ?? 0).catch(() => 0)) > 0) return frame;
      await page.waitForTimeout(25);
    }
    throw new Error('the panel never rendered in its iframe');
  };

  return {
    page,
    ledger,
    client,
    messages,
    contexts,
    sizes,
    requests,
    failMessages: (n) => void (failing = n),
    async show(model) {
      const input = { model } as Record<string, unknown>;
      const result = (await client.callTool({ name: 'show_task_surface', arguments: input })) as CallToolResult;
      return { input, result };
    },
    async mount(mode, call, hostContext) {
      await page.evaluate((o) => (window as unknown as { mount(o: unknown): Promise<void> }).mount(o), options(mode, call, hostContext));
      return panelFrame();
    },
    async reload(mode, call, hostContext) {
      await page.evaluate((o) => (window as unknown as { reload(o: unknown): Promise<void> }).reload(o), options(mode, call, hostContext));
      return panelFrame();
    },
    async unmount() {
      await page.evaluate(() => (window as unknown as { unmount(): Promise<void> }).unmount());
    },
    async close() {
      await page.close();
      if (!shared) await browser.close();
      await client.close();
      await server.close();
      await ledger.close();
      for (const site of [hostSite, proxySite]) {
        site.server.closeAllConnections();
        await new Promise((resolve) => site.server.close(resolve));
      }
    },
  };
}
