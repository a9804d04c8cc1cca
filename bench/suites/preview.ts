// The panel while the model writes it: the maximal model's show_task_surface call streamed at 50
// tokens (4 characters each) a second through each path's streaming shape, and when the person sees
// its first block and can answer it, each over the call's stream time (the baseline, the same run);
// then, in Chromium, the layout shift when the Dock's preview becomes the panel.
//
// The stream is ~16,000 tokens, 5½ minutes at 50 a second: it is played in stream time, not wall
// time. Each token is handed to the path and the path is let run (its sockets, its timers) before
// the next; a figure is the token's place in the stream plus the wall time the path took to show it.
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/server';
import { parsePartialJson, type UIMessage } from 'ai';
import { parse } from 'partial-json';
import { WebSocket } from 'ws';
import { createLoopDriver } from '../../agents/loop.js';
import { createChatTaskSurface, type TaskSurfaceChat } from '../../ai-sdk/chat.js';
import { taskSurfaceTools } from '../../ai-sdk/tools.js';
import { maximalModel } from '../../fixtures/models.js';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { createPanelLedger } from '../../mcp/ledger.js';
import { createTaskSurfaceMcpServer } from '../../mcp/server.js';
import type { NormalizedTaskSurfaceModel } from '../../protocol/normalized.js';
import { mintMessageId, mintRpcId, type SessionId, type SessionView } from '../../protocol/index.js';
import { createLocalTransport } from '../../transport/local.js';
import type { HostTransport } from '../../transport/types.js';
import { createWebSocketTransport, type WebSocketConstructor } from '../../transport/ws/client.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { launch } from './render.js';

const TOKENS_PER_SECOND = 50;
const CHARS_PER_TOKEN = 4;
const ARGS = JSON.stringify({ model: maximalModel() });
const TOKENS = Math.ceil(ARGS.length / CHARS_PER_TOKEN);
const STREAM_S = TOKENS / TOKENS_PER_SECOND;
const pause = () => new Promise((resolve) => setImmediate(resolve));
const blocksIn = (view: SessionView | null) => view?.preview?.model.sections.reduce((n, s) => n + s.blocks.length, 0) ?? 0;

/** When the first block showed (stream seconds) and when the panel was answerable, as fractions of the stream. */
interface Timing {
  firstBlock: number;
  answerable: number;
  /** Wall milliseconds the path took per token (a token arrives every 20 ms at 50 a second). */
  msPerToken?: number;
}

/** Times one path's run in wall time, per token. */
async function timed(run: () => Promise<Timing>): Promise<Timing> {
  const start = performance.now();
  const timing = await run();
  return { ...timing, msPerToken: (performance.now() - start) / TOKENS };
}

/** Token `i`'s place in the stream (s) plus the wall time (s) since it was handed over. */
function streamClock() {
  let token = 0;
  let handed = 0;
  return {
    tick(i: number) {
      token = i;
      handed = performance.now();
    },
    now: () => token / TOKENS_PER_SECOND + (performance.now() - handed) / 1000,
  };
}

/** The Host with the shared loop driver, its model adapter streaming the call as tool-argument deltas; the person on `connect`'s transport. */
async function hostPath(connect: (host: ReturnType<typeof createHost>) => Promise<{ transport: HostTransport; close(): Promise<void> }>) {
  const clock = streamClock();
  const host = createHost({
    store: createMemoryStore(),
    onError: () => {},
    driver: createLoopDriver({
      label: 'bench',
      retries: 0,
      timeoutMs: 60_000,
      async call(_request, io) {
        for (let i = 1; i <= TOKENS; i++) {
          clock.tick(i);
          io.onToolInput?.(0, 'show_task_surface', ARGS.slice((i - 1) * CHARS_PER_TOKEN, i * CHARS_PER_TOKEN));
          await pause();
        }
        return { text: '', toolCalls: [{ name: 'show_task_surface', arguments: ARGS }] };
      },
    }),
  });
  const { transport, close } = await connect(host);
  const sessionId = host.openSession({ title: 'bench' });
  const timing: Partial<Timing> = {};
  let answerable!: () => void;
  const done = new Promise<void>((resolve) => (answerable = resolve));
  transport.watchSession(sessionId, (view) => {
    if (timing.firstBlock === undefined && blocksIn(view) > 0) timing.firstBlock = clock.now();
    const active = view.taskSurface.active;
    if (active && timing.answerable === undefined) {
      void transport.taskSurface.getActive({ sessionId, surfaceId: active.surfaceId }).then((got) => {
        if (got.active && timing.answerable === undefined) {
          timing.answerable = clock.now();
          answerable();
        }
      });
    }
  });
  await transport.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'review the services' });
  await done;
  await close();
  await host.dispose();
  return timing as Timing;
}

/** An AI SDK page: `useChat`'s message with an `input-streaming` part (its input healed by the SDK's `parsePartialJson` per `tool-input-delta`), then the tool's output. */
async function aiSdkPath(): Promise<Timing> {
  const clock = streamClock();
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'review the services' }] };
  let messages: UIMessage[] = [user];
  let status: TaskSurfaceChat['status'] = 'streaming';
  const chat: TaskSurfaceChat = {
    id: 'bench',
    get messages() {
      return messages;
    },
    get status() {
      return status;
    },
    sendMessage: async () => {},
    setMessages: (next) => void (messages = next),
    experimental_queuedMessages: [],
  };
  const adapter = createChatTaskSurface(chat);
  const timing: Partial<Timing> = {};
  adapter.transport.watchSession('bench' as SessionId, (view) => {
    if (timing.firstBlock === undefined && blocksIn(view) > 0) timing.firstBlock = clock.now();
    if (view.taskSurface.active && timing.answerable === undefined) timing.answerable = clock.now();
  });
  const part = (state: string, input: unknown, output?: unknown) =>
    ({ type: 'tool-show_task_surface', toolCallId: 'call_1', state, input, ...(output ? { output } : {}) }) as UIMessage['parts'][number];
  let text = '';
  for (let i = 1; i <= TOKENS; i++) {
    clock.tick(i);
    text += ARGS.slice((i - 1) * CHARS_PER_TOKEN, i * CHARS_PER_TOKEN);
    const { value } = await parsePartialJson(text);
    messages = [user, { id: 'a1', role: 'assistant', parts: [part('input-streaming', value)] }];
    adapter.update(chat);
    await pause();
  }
  // The route's tool ran: its output is the shown panel (checked on the server as docs/ai-sdk.md says).
  const tools = taskSurfaceTools() as unknown as Record<string, { execute(input: unknown, o: unknown): Promise<unknown> }>;
  const output = await tools['show_task_surface']!.execute(JSON.parse(ARGS), { toolCallId: 'call_1', messages: [] });
  messages = [user, { id: 'a1', role: 'assistant', parts: [part('output-available', JSON.parse(ARGS), output)] }];
  status = 'ready';
  adapter.update(chat);
  await pause();
  adapter.dispose();
  return timing as Timing;
}

/**
 * An MCP host streaming the call to the app view (`tool-input-partial`) and the view reading its
 * preview from the real server through the SDK `Client` (the view tool's `preview`) at its own pace:
 * one read at a time, at most one per 250 ms of stream time, of the latest prefix healed by
 * partial-json (healed only when read: a host heals each one, which is not the view's time). A
 * read's figure is its token's place plus the read's wall time. Then the call and its result, and
 * the view's read of the panel, which makes it answerable.
 */
async function mcpPath(): Promise<Timing> {
  const store = createMemoryStore();
  const ledger = createPanelLedger({ store });
  const server = createTaskSurfaceMcpServer({ appHtml: '<!doctype html><title>Task panel</title>', ledger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const apps = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
  const client = new Client({ name: 'bench-host', version: '1.0.0' }, { capabilities: apps as never });
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const timing: Partial<Timing> = {};
  let lastRead = -Infinity;
  for (let i = 1; i <= TOKENS; i++) {
    const at = i / TOKENS_PER_SECOND;
    if (at - lastRead < 0.25) continue;
    lastRead = at;
    const started = performance.now();
    const healed = parse(ARGS.slice(0, i * CHARS_PER_TOKEN)) as Record<string, unknown>;
    const read = await call(VIEW_TOOL, { action: 'preview', arguments: healed });
    const model = (read.structuredContent as { model: NormalizedTaskSurfaceModel | null }).model;
    if (timing.firstBlock === undefined && model?.sections.some((section) => section.blocks.length > 0))
      timing.firstBlock = at + (performance.now() - started) / 1000;
  }
  const started = performance.now();
  const shown = await call('show_task_surface', JSON.parse(ARGS) as Record<string, unknown>);
  const viewId = (shown._meta as { viewUUID: string }).viewUUID;
  const state = (await call(VIEW_TOOL, { action: 'read', viewId })).structuredContent as { status: string };
  if (state.status !== 'open') throw new Error(`the MCP panel is ${state.status}, not open`);
  timing.answerable = STREAM_S + (performance.now() - started) / 1000;
  await client.close();
  await server.close();
  await ledger.close();
  store.close();
  return timing as Timing;
}

/** The layout shift (CLS-like: the sum of layout-shift entries) when a Dock on a Host in the page turns its preview into the panel. */
async function layoutShift(): Promise<{ shift: number; grew: number }> {
  const out = await build({
    stdin: {
      contents: `import * as TS from './components/bundle.ts';
        import { createHost } from './host/createHost.ts';
        import { createMemoryStore } from './host/store/memory.ts';
        import { createLocalTransport } from './transport/local.ts';
        globalThis.TS = { ...TS, createHost, createMemoryStore, createLocalTransport };`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    target: 'es2022',
    platform: 'browser',
    logLevel: 'error',
  });
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.addInitScript('globalThis.__name = (f) => f;');
    await page.route('http://bench.test/**', (route) =>
      new URL(route.request().url()).pathname === '/bundle.js'
        ? route.fulfill({ contentType: 'text/javascript', body: out.outputFiles[0]!.text })
        : route.fulfill({
            contentType: 'text/html',
            body: '<!doctype html><meta charset="utf-8"><body style="margin:0;display:flex;flex-direction:column;height:100vh"><div style="flex:1"></div><div id="stage"></div><textarea aria-label="Message"></textarea><script type="module" src="/bundle.js"></script></body>',
          }),
    );
    await page.goto('http://bench.test/');
    await page.waitForFunction(() => 'TS' in globalThis);
    // The page streams the call to its own Host in stream time compressed 50×: the figure is the shift, not the time.
    return await page.evaluate(
      async ({ args, chars }) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page's bundle, untyped here
        const TS = (globalThis as any).TS;
        const shifts: { t: number; v: number }[] = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as { startTime: number; value: number; hadRecentInput: boolean }[])
            if (!e.hadRecentInput) shifts.push({ t: e.startTime, v: e.value });
        }).observe({ type: 'layout-shift', buffered: true });
        const host = TS.createHost({
          store: TS.createMemoryStore(),
          driver: {
            async runTurn(turn: {
              step(): void;
              showToolInput(n: string, a: string): void;
              callTool(n: string, a: unknown): Promise<unknown>;
            }) {
              turn.step();
              for (let at = chars; at < args.length + chars; at += chars * 50) {
                turn.showToolInput('show_task_surface', args.slice(0, at));
                await new Promise((r) => setTimeout(r, 20));
              }
              await turn.callTool('show_task_surface', JSON.parse(args));
            },
          },
        });
        const sessionId = host.openSession({ title: 'bench' });
        const dock = document.createElement('task-surface-dock') as unknown as HTMLElement & Record<string, unknown>;
        dock.draftStorage = null;
        dock.transport = TS.createLocalTransport(host);
        dock.sessionId = sessionId;
        document.getElementById('stage')!.append(dock);
        const states: { t: number; s: string }[] = [];
        new MutationObserver(() => states.push({ t: performance.now(), s: dock.getAttribute('state') ?? '' })).observe(dock, {
          attributes: true,
          attributeFilter: ['state'],
        });
        await host.session.send({ sessionId, messageId: 'm1', rpcId: 'r1', text: 'review the services' });
        await host.whenIdle(sessionId);
        while (dock.getAttribute('state') !== 'editing') await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 500));
        const opened = states.find((s) => s.s === 'editing')!.t;
        const shift = shifts.filter((e) => e.t >= opened - 50).reduce((sum, e) => sum + e.v, 0);
        return { shift, grew: states.filter((s) => s.s === 'preview').length };
      },
      { args: ARGS, chars: CHARS_PER_TOKEN },
    );
  } finally {
    await browser.close();
  }
}

const pct = (fraction: number) => `${(fraction * 100).toFixed(2)} %`;

export default {
  title: `Preview while the call streams (maximal model, ${ARGS.length} characters: ${TOKENS} tokens at ${TOKENS_PER_SECOND}/s = ${STREAM_S.toFixed(1)} s)`,
  async run() {
    const results: [string, Timing][] = [
      ['host', await timed(() => hostPath(async (host) => ({ transport: createLocalTransport(host), close: async () => {} })))],
      [
        'host-ws',
        await timed(() =>
          hostPath(async (host) => {
            const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
            const transport = createWebSocketTransport({
              url: `ws://127.0.0.1:${server.port}`,
              WebSocket: WebSocket as unknown as WebSocketConstructor,
            });
            return { transport, close: async () => (transport.dispose(), await server.close()) };
          }),
        ),
      ],
      ['ai-sdk', await timed(aiSdkPath)],
      ['mcp-app', await timed(mcpPath)],
    ];
    const headlines: Record<string, string> = {};
    for (const [path, t] of results) {
      const first = t.firstBlock / STREAM_S;
      const answer = t.answerable / STREAM_S;
      console.log(
        `${path}: first block at ${t.firstBlock.toFixed(2)} s = ${pct(first)} of the stream (aim ≤ 10 %); answerable at ${t.answerable.toFixed(2)} s = ${answer.toFixed(4)}× the stream time; ${t.msPerToken!.toFixed(2)} ms of wall time per token (20 ms apart at 50/s)`,
      );
      headlines[`preview ${path}`] = `first block at ${pct(first)} of the stream; answerable at ${answer.toFixed(4)}× the stream time`;
    }
    console.log(
      'mcp-app-view: the real view in Chromium is test/e2e/mcp.e2e.ts, which streams the maximal model to it at 20× this pace and holds its first block within 10 % of the stream and its layout shift within 0.05',
    );
    const { shift, grew } = await layoutShift();
    console.log(
      `layout shift when the Dock's preview became the panel (Chromium, host in the page): ${shift.toFixed(4)} (aim ≤ 0.05; ${grew} renders of the preview)`,
    );
    headlines['preview layout shift'] = `${shift.toFixed(4)} when the preview becomes the panel (aim ≤ 0.05)`;
    return headlines;
  },
};
