// The AI SDK example's server: streamText with the Task Surface tools and stop rule, the app's
// messages in JSON files, and the route checks before every model call. `npm run demo:ai-sdk`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { convertToModelMessages, isStepCount, streamText, type LanguageModel } from 'ai';
import { build } from 'esbuild';
import {
  actionCardActResponse,
  checkTaskSurfaceMessage,
  createActionCardActs,
  dismissTaskSurface,
  mergeChatMessages,
  taskSurfaceCheckResponse,
  taskSurfaceDataPart,
  taskSurfaceDismissalResponse,
  taskSurfaceStopWhen,
  taskSurfaceTools,
} from '../../ai-sdk/index.js';
import { createMemoryPageStore, createPageKind } from '../../host/index.js';
import { CHAT_ID, createChatStore, type ChatStore } from './store.js';

/** The longest request body the example reads (a message, or a dismissal). */
const MAX_BODY_BYTES = 256 * 1024;

const INSTRUCTIONS =
  'You help plan trips. When a choice needs several answers, call show_task_surface with a short panel; ' +
  'the answer arrives as the next user message. When a plan is worth keeping, load the create-page skill ' +
  'and offer a card.';

export interface AiSdkDemoOptions {
  /** Any AI SDK language model (the scripted one by default). */
  model: LanguageModel;
  /** Where the chats' JSON files live. */
  dataDir: string;
  port?: number;
  host?: string;
}

export interface AiSdkDemo {
  url: string;
  store: ChatStore;
  server: Server;
  close(): Promise<void>;
}

/** Builds the page (React, @ai-sdk/react, the package from source) into memory: `app.js` and its chunks by name. */
async function buildPage(): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: { app: 'demo/ai-sdk/page.jsx' },
    outdir: 'assets',
    bundle: true,
    // Split as the package's own build is: its lazily loaded modules stay chunks.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    // The page imports the package by name, as an app would; here that is the source.
    alias: { 'task-surface/ai-sdk/react': './ai-sdk/react/index.ts', 'task-surface/ai-sdk': './ai-sdk/index.ts' },
    minify: process.env.TASK_SURFACE_AI_SDK_DEBUG === undefined,
    write: false,
    logLevel: 'warning',
  });
  return new Map(result.outputFiles.map((file) => [`/assets/${basename(file.path)}`, file.text]));
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}

function chatIdOf(value: unknown): string {
  if (typeof value !== 'string' || !CHAT_ID.test(value)) throw new HttpError(400, 'id must be a chat id (letters, digits, _ and -)');
  return value;
}

/** Writes a fetch Response (a UI message stream, a JSON answer) to Node's response. */
async function send(response: Response, out: ServerResponse): Promise<void> {
  out.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) out.write(chunk);
  out.end();
}

/** Starts the example on `port` (0: a free one). */
export async function startAiSdkDemo(options: AiSdkDemoOptions): Promise<AiSdkDemo> {
  const store = createChatStore(options.dataDir);
  const page = readFileSync('demo/ai-sdk/page.html', 'utf8');
  const css = readFileSync('demo/ai-sdk/page.css', 'utf8');
  const scripts = await buildPage();
  // The card kinds the model may propose, and the acts on their cards (one per process).
  const kinds = [createPageKind({ pages: createMemoryPageStore() })];
  const acts = createActionCardActs({ kinds, load: (id) => store.load(chatIdOf(id)), save: (id, messages) => store.save(id, messages) });

  /** POST /api/chat: `{ id, message }`, the page's new message; the conversation is the server's. */
  async function chat(body: Record<string, unknown>): Promise<Response> {
    const id = chatIdOf(body['id']);
    const messages = store.load(id);
    const check = checkTaskSurfaceMessage(messages, body['message'], { kinds });
    const answer = taskSurfaceCheckResponse(check);
    if (answer || !check.accepted) return answer!;
    // Durable before the model runs: a retry of this message (or submission) now finds it.
    store.save(id, check.messages);
    const tools = taskSurfaceTools({ messages: check.messages, kinds });
    const result = streamText({
      model: options.model,
      instructions: INSTRUCTIONS,
      messages: await convertToModelMessages(check.messages, { tools, convertDataPart: taskSurfaceDataPart }),
      tools,
      stopWhen: [isStepCount(5), taskSurfaceStopWhen],
    });
    return result.toUIMessageStreamResponse({
      originalMessages: check.messages,
      generateMessageId: () => crypto.randomUUID(),
      // Merged: a card's decision or a dismissal recorded while the reply streamed is kept.
      onFinish: ({ messages: all }) => store.save(id, mergeChatMessages(store.load(id), all)),
    });
  }

  /** POST /api/chat/dismiss: `{ id, surfaceId, dismissalId }`; recorded in the messages, no model call. */
  function dismiss(body: Record<string, unknown>): Response {
    const id = chatIdOf(body['id']);
    const result = dismissTaskSurface(store.load(id), { surfaceId: body['surfaceId'], dismissalId: body['dismissalId'] });
    if (result.dismissed && !result.repeated) store.save(id, result.messages);
    return taskSurfaceDismissalResponse(result);
  }

  async function route(request: IncomingMessage, url: URL): Promise<Response> {
    const path = url.pathname;
    if (request.method === 'GET' && path === '/') return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const script = request.method === 'GET' ? scripts.get(path) : undefined;
    if (script !== undefined) return new Response(script, { headers: { 'content-type': 'text/javascript' } });
    if (request.method === 'GET' && path === '/app.css') return new Response(css, { headers: { 'content-type': 'text/css' } });
    if (request.method === 'GET' && path.startsWith('/api/chats/'))
      return Response.json(store.load(chatIdOf(decodeURIComponent(path.slice(11)))));
    if (request.method === 'POST' && path === '/api/chat') return chat(await readJson(request));
    if (request.method === 'POST' && path === '/api/chat/dismiss') return dismiss(await readJson(request));
    // `{ chatId, callId, verb, payload? }`: a card's action, its decisions saved before the answer.
    if (request.method === 'POST' && path === '/api/chat/act') return actionCardActResponse(await acts.act(await readJson(request)));
    throw new HttpError(404, 'not found');
  }

  const server = createServer((request, response) => {
    response.setHeader('Content-Security-Policy', "default-src 'self'");
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
    const url = new URL(request.url ?? '/', 'http://localhost');
    route(request, url)
      .catch((error: unknown) =>
        error instanceof HttpError
          ? Response.json({ error: error.message }, { status: error.status })
          : Response.json({ error: 'the server failed; see its log' }, { status: 500 }),
      )
      .then((answer) => send(answer, response))
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
