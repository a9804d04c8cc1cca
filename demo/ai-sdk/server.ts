// The AI SDK example's server: streamText with the Task Surface tools and stop rule, each person's
// messages in JSON files, and the route checks before every model call. `npm run demo:ai-sdk`.
// Its doors are the main demo's: the Host header checked, writes only from its own origin and as
// JSON, every API call as the identity its signed cookie names, each chat its owner's alone; and
// before any of it, each address's and each person's requests counted (transport/door.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';

import type { AddressInfo } from 'node:net';
import { convertToModelMessages, isStepCount, streamText, type LanguageModel, type UIMessage } from 'ai';
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
  type TaskSurfaceUserParts,
} from '../../ai-sdk/index.js';
import { createMemoryPageStore, createPageKind } from '../../host/index.js';
import type { Principal } from '../../protocol/index.js';
import { DEMO_HTTP_LIMITS, type DemoHttpLimits } from '../http.js';
import {
  admitRequest,
  buildExamplePage,
  errorResponse,
  examplePageResponse,
  examplePrincipal,
  sendResponse,
  setExampleHeaders,
} from '../exampleHttp.js';
import { capConnections, createRequestLimiter, type RequestLimits } from '../../transport/door.js';
import { parseTrustedProxies, requestAddress, trustForwardedFor } from '../../transport/forwarded.js';
import { createBodyBudget } from '../../transport/body.js';
import { clientAddress } from '../../transport/proxyProtocol.js';
import { createDemoIdentities, type DemoIdentities } from '../identity.js';
import { createMintLimiter, type MintRate } from '../mintRate.js';
import { checkWrite, hostOf, HttpError, readJson } from './guard.js';
import { MessageRate } from '../../host/limits/rate.js';
import { CHAT_ID, createChatStore, type ChatStore } from './store.js';

/** A chat's stored messages at most (then it takes no new message). */
export const MAX_CHAT_BYTES = 4 * 1024 * 1024;
/** Chats one person may have. */
export const MAX_CHATS_PER_PRINCIPAL = 200;
/** Messages (model turns) one person may send a minute: a burst of this many, then evenly, as the Host's `messagesPerMinute`. */
export const TURNS_PER_MINUTE = 30;

/** How many requests may be started and answered at once, asked before any body is read. */
export interface AiSdkRequestLimits {
  /** Every request from one address (pages and files too: a page load is about 8). */
  perAddress: RequestLimits;
  /** Every `/api/` request of one person (a reply streaming counts until it ends). */
  perPrincipal: RequestLimits;
  /** Requests being answered in all; past it 503. */
  inFlight: number;
  /** Bytes of request bodies being read at once, all requests together; past it 503. */
  bodyBytesInFlight: number;
}

export const AI_SDK_REQUEST_LIMITS: Readonly<AiSdkRequestLimits> = Object.freeze({
  perAddress: Object.freeze({ perSecond: 20, burst: 60, inFlight: 32 }),
  perPrincipal: Object.freeze({ perSecond: 10, burst: 20, inFlight: 8 }),
  inFlight: 1_024,
  bodyBytesInFlight: 64 * 1024 * 1024,
});

const INSTRUCTIONS =
  'You help plan trips. When a choice needs several answers, call show_task_surface with a short panel; ' +
  'the answer arrives as the next user message. When a plan is worth keeping, load the create-page skill ' +
  'and offer a card.';

export interface AiSdkDemoOptions {
  /** Any AI SDK language model (the scripted one by default). */
  model: LanguageModel;
  /** Where the chats' JSON files live, and the identity cookie's signing secret. */
  dataDir: string;
  port?: number;
  host?: string;
  /** `host[:port]` names the server answers to besides 127.0.0.1:<port> and localhost:<port>. */
  allowedHosts?: readonly string[];
  /** Page origins that may write besides the page's own. */
  allowedOrigins?: readonly string[];
  /** File parts in user messages: refused unless the app names the origins they may come from. */
  files?: TaskSurfaceUserParts['files'];
  /** A chat's stored bytes at most. Default 4 MiB. */
  maxChatBytes?: number;
  /** Chats one person may have. Default 200. */
  maxChatsPerPrincipal?: number;
  /** Messages one person may send a minute (each runs the model); a retry of one is free. Default 30. */
  turnsPerMinute?: number;
  /** New identities per address (the page's first visit). Default 60 at once, then 30 a minute. */
  identityRate?: MintRate;
  /** Connections per address and request deadlines, as the main demo's (`DEMO_HTTP_LIMITS` by default). */
  httpLimits?: Partial<Omit<DemoHttpLimits, 'addressOf'>>;
  /** Requests per address and per person, and in flight in all (`AI_SDK_REQUEST_LIMITS` by default). */
  requestLimits?: {
    perAddress?: Partial<RequestLimits>;
    perPrincipal?: Partial<RequestLimits>;
    inFlight?: number;
    bodyBytesInFlight?: number;
  };
  /**
   * HTTP proxies (addresses and CIDRs) whose `X-Forwarded-For` names the client (its right-most
   * address that is not one of them); from any other peer the header is ignored. Default none.
   */
  trustedProxies?: readonly string[];
}

export interface AiSdkDemo {
  url: string;
  store: ChatStore;
  /** The visitors' identities (the signed cookie the page gets on its first visit). */
  identities: DemoIdentities;
  server: Server;
  close(): Promise<void>;
}

function chatIdOf(value: unknown): string {
  if (typeof value !== 'string' || !CHAT_ID.test(value)) throw new HttpError(400, 'id must be a chat id (letters, digits, _ and -)');
  return value;
}

/** A chat's key for the card acts (which know chats by one string): the owner's, then the id. */
const actKey = (owner: string, chatId: string) => `${owner}\u0000${chatId}`;
const fromActKey = (key: string): [string, string] => {
  const at = key.lastIndexOf('\u0000');
  return [key.slice(0, at), chatIdOf(key.slice(at + 1))];
};

/** Starts the example on `port` (0: a free one). */
export async function startAiSdkDemo(options: AiSdkDemoOptions): Promise<AiSdkDemo> {
  const store = createChatStore(options.dataDir);
  const identities = createDemoIdentities(options.dataDir);
  const mint = createMintLimiter(options.identityRate);
  const maxChatBytes = options.maxChatBytes ?? MAX_CHAT_BYTES;
  const maxChats = options.maxChatsPerPrincipal ?? MAX_CHATS_PER_PRINCIPAL;
  const turnsPerMinute = options.turnsPerMinute ?? TURNS_PER_MINUTE;
  const turns = new MessageRate(turnsPerMinute);
  const limits = options.requestLimits ?? {};
  const perAddress = createRequestLimiter({ ...AI_SDK_REQUEST_LIMITS.perAddress, ...limits.perAddress }, 'this address');
  const perPrincipal = createRequestLimiter({ ...AI_SDK_REQUEST_LIMITS.perPrincipal, ...limits.perPrincipal }, 'this person');
  const inAll = createRequestLimiter(
    { perSecond: Infinity, burst: Infinity, inFlight: limits.inFlight ?? AI_SDK_REQUEST_LIMITS.inFlight },
    'the server',
  );
  const bodies = createBodyBudget(limits.bodyBytesInFlight ?? AI_SDK_REQUEST_LIMITS.bodyBytesInFlight);
  const trusted = options.trustedProxies?.length ? parseTrustedProxies(options.trustedProxies) : undefined;
  const page = readFileSync('demo/ai-sdk/page.html', 'utf8');
  const css = readFileSync('demo/ai-sdk/page.css', 'utf8');
  const scripts = await buildExamplePage(
    'demo/ai-sdk/page.jsx',
    { 'task-surface/ai-sdk/react': './ai-sdk/react/index.ts', 'task-surface/ai-sdk': './ai-sdk/index.ts' },
    process.env.TASK_SURFACE_AI_SDK_DEBUG === undefined,
  );
  // The card kinds the model may propose, and the acts on their cards (one per process).
  const kinds = [createPageKind({ pages: createMemoryPageStore() })];
  const acts = createActionCardActs({
    kinds,
    load: async (key) => (await store.read(...fromActKey(key))) ?? [],
    save: (key, messages) => store.write(...fromActKey(key), messages),
  });

  /** The owner's chat, or [] for a new one; refused when it is full, or when the owner has too many. */
  async function room(owner: string, id: string): Promise<UIMessage[]> {
    const messages = await store.read(owner, id);
    if (messages === null) {
      const count = await store.count(owner);
      if (count >= maxChats) throw new HttpError(429, `you have ${count} chats (at most ${maxChats}): continue one of them`);
      return [];
    }
    const bytes = Buffer.byteLength(JSON.stringify(messages));
    if (bytes >= maxChatBytes) {
      throw new HttpError(413, `this chat holds ${mib(bytes)} (at most ${mib(maxChatBytes)}): it takes no more messages; start a new chat`);
    }
    return messages;
  }

  /** POST /api/chat: `{ id, message }`, the page's new message; the conversation is the server's. */
  async function chat(owner: string, body: Record<string, unknown>): Promise<Response> {
    const id = chatIdOf(body['id']);
    const messages = await room(owner, id);
    const check = checkTaskSurfaceMessage(messages, body['message'], { kinds, parts: { files: options.files } });
    const answer = taskSurfaceCheckResponse(check);
    if (answer || !check.accepted) return answer!;
    const wait = turns.take(owner);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new HttpError(
        429,
        `you sent ${turnsPerMinute} messages in the last minute (at most ${turnsPerMinute}): send again in ${seconds} s`,
        { retryAfterS: seconds },
      );
    }
    // Durable before the model runs: a retry of this message (or submission) now finds it.
    await store.write(owner, id, check.messages);
    const tools = taskSurfaceTools({ messages: check.messages, kinds });
    const result = streamText({
      model: options.model,
      instructions: INSTRUCTIONS,
      messages: await convertToModelMessages(check.messages, { tools, convertDataPart: taskSurfaceDataPart }),
      tools,
      stopWhen: [isStepCount(5), taskSurfaceStopWhen],
    });
    let saved: Promise<unknown> = Promise.resolve();
    const response = result.toUIMessageStreamResponse({
      originalMessages: check.messages,
      generateMessageId: () => crypto.randomUUID(),
      // Merged: a card's decision or a dismissal recorded while the reply streamed is kept.
      onFinish: ({ messages: all }) => {
        saved = store
          .update(owner, id, (stored) => mergeChatMessages(stored ?? [], all))
          .catch((error: unknown) => console.error('[ai-sdk example] saving the reply failed', error));
      },
    });
    // The stream ends once the reply is saved: a page that reads the chat then finds it.
    const durable = response.body!.pipeThrough(new TransformStream({ flush: () => saved.then(() => undefined) }));
    return new Response(durable, { status: response.status, headers: response.headers });
  }

  /** POST /api/chat/dismiss: `{ id, surfaceId, dismissalId }`; recorded in the messages, no model call. */
  async function dismiss(owner: string, body: Record<string, unknown>): Promise<Response> {
    const id = chatIdOf(body['id']);
    let answer!: Response;
    await store.update(owner, id, (stored) => {
      const result = dismissTaskSurface(stored ?? [], { surfaceId: body['surfaceId'], dismissalId: body['dismissalId'] });
      answer = taskSurfaceDismissalResponse(result);
      return result.dismissed && !result.repeated ? result.messages : null;
    });
    return answer;
  }

  /** The API, as the identity the request's cookie names. */
  async function api(request: IncomingMessage, path: string, principal: Principal): Promise<Response> {
    const owner = principal.id;
    if (request.method === 'GET' && path.startsWith('/api/chats/'))
      return Response.json((await store.read(owner, chatIdOf(decodeURIComponent(path.slice(11))))) ?? []);
    if (request.method !== 'POST') throw new HttpError(404, 'not found');
    if (path === '/api/chat') return chat(owner, await readJson(request, bodies));
    if (path === '/api/chat/dismiss') return dismiss(owner, await readJson(request, bodies));
    // `{ chatId, callId, verb, payload? }`: a card's action, its decisions saved before the answer.
    if (path === '/api/chat/act') {
      const body = await readJson(request, bodies);
      return actionCardActResponse(await acts.act({ ...body, chatId: actKey(owner, chatIdOf(body['chatId'])) }));
    }
    throw new HttpError(404, 'not found');
  }

  async function route(request: IncomingMessage, url: URL, response: ServerResponse): Promise<Response> {
    const host = hostOf(request, server.address(), options.allowedHosts ?? []);
    if (request.method !== 'GET' && request.method !== 'HEAD') checkWrite(request, host, options.allowedOrigins);
    const path = url.pathname;
    if (path.startsWith('/api/')) return api(request, path, examplePrincipal(request, response, identities, perPrincipal));
    return examplePageResponse(request, path, response, { identities, mint, html: page, css, scripts });
  }

  const http = { ...DEMO_HTTP_LIMITS, ...options.httpLimits };
  const server = createServer(
    { headersTimeout: http.headersTimeoutMs, requestTimeout: http.requestTimeoutMs, connectionsCheckingInterval: 1_000 },
    (request, response) => {
      setExampleHeaders(response);
      const url = new URL(request.url ?? '/', 'http://localhost');
      // Counted first, before the Host, the cookie or the body: a refusal here costs one answer.
      const counted = async () => {
        admitRequest(inAll, 'all', response);
        admitRequest(perAddress, requestAddress(request), response);
        return route(request, url, response);
      };
      counted()
        .catch(errorResponse)
        .then((answer) => sendResponse(answer, response))
        .catch(() => response.destroy());
    },
  );
  // One address holds at most 128 connections, as on the main demo's server; a trusted proxy's
  // connections carry many people, whose requests are counted by the address it forwards.
  const isProxy = trusted ? trustForwardedFor(server, trusted) : () => false;
  capConnections(server, http.connectionsPerAddress, (socket) => (isProxy(socket) ? null : clientAddress(socket)), http.connections);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    identities,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A size in words: bytes below 1 MiB, else MiB with one decimal. */
const mib = (bytes: number) => (bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`);
