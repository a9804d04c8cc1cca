// The AI SDK example's server: streamText with the Task Surface tools and stop rule, each person's
// messages in JSON files, and the route checks before every model call. `npm run demo:ai-sdk`.
// Its door is the examples' one (demo/exampleDoor.ts, shared with the AG-UI example): each address's
// and person's requests counted first, the Host header checked, writes only from its own origin and
// as JSON, every API call as the identity its signed cookie names; each chat is its owner's alone.
import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
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
import { buildExamplePage } from '../exampleHttp.js';
import {
  EXAMPLE_REQUEST_LIMITS,
  startExampleDoor,
  type ExampleApiCall,
  type ExampleBodyLimits,
  type ExampleDoorOptions,
  type ExampleRequestLimits,
} from '../exampleDoor.js';
import { createDemoIdentities, type DemoIdentities } from '../identity.js';
import { HttpError } from './guard.js';
import { MessageRate } from '../../host/limits/rate.js';
import { CHAT_ID, createChatStore, type ChatStore } from './store.js';

/** A chat's stored messages at most (then it takes no new message). */
export const MAX_CHAT_BYTES = 4 * 1024 * 1024;
/** Chats one person may have. */
export const MAX_CHATS_PER_PRINCIPAL = 200;
/** Messages (model turns) one person may send a minute: a burst of this many, then evenly, as the Host's `messagesPerMinute`. */
export const TURNS_PER_MINUTE = 30;

/** How many requests may be started and answered at once: the examples' door's (demo/exampleDoor.ts). */
export type AiSdkRequestLimits = ExampleRequestLimits;
export const AI_SDK_REQUEST_LIMITS: Readonly<AiSdkRequestLimits> = EXAMPLE_REQUEST_LIMITS;

const INSTRUCTIONS =
  'You help plan trips. When a choice needs several answers, call show_task_surface with a short panel; ' +
  'the answer arrives as the next user message. When a plan is worth keeping, load the create-page skill ' +
  'and offer a card.';

/** The example's own options, and its door's (`ExampleDoorOptions`: the same for every example). */
export interface AiSdkDemoOptions extends ExampleDoorOptions {
  /** Any AI SDK language model (the scripted one by default). */
  model: LanguageModel;
  /** Where the chats' JSON files live, and the identity cookie's signing secret. */
  dataDir: string;
  /** File parts in user messages: refused unless the app names the origins they may come from. */
  files?: TaskSurfaceUserParts['files'];
  /** A chat's stored bytes at most. Default 4 MiB. */
  maxChatBytes?: number;
  /** Chats one person may have. Default 200. */
  maxChatsPerPrincipal?: number;
  /** Messages one person may send a minute (each runs the model); a retry of one is free. Default 30. */
  turnsPerMinute?: number;
}

export interface AiSdkDemo {
  url: string;
  store: ChatStore;
  /** The visitors' identities (the signed cookie the page gets on its first visit). */
  identities: DemoIdentities;
  server: Server;
  /** The door's body limits, its options and defaults resolved. */
  limits: Readonly<ExampleBodyLimits>;
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
  const maxChatBytes = options.maxChatBytes ?? MAX_CHAT_BYTES;
  const maxChats = options.maxChatsPerPrincipal ?? MAX_CHATS_PER_PRINCIPAL;
  const turnsPerMinute = options.turnsPerMinute ?? TURNS_PER_MINUTE;
  const turns = new MessageRate(turnsPerMinute);
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

  /** The API, as the identity the request's cookie names (the door checked everything before). */
  async function api({ request, path, principal, json }: ExampleApiCall): Promise<Response> {
    const owner = principal.id;
    if (request.method === 'GET' && path.startsWith('/api/chats/'))
      return Response.json((await store.read(owner, chatIdOf(decodeURIComponent(path.slice(11))))) ?? []);
    if (request.method !== 'POST') throw new HttpError(404, 'not found');
    if (path === '/api/chat') return chat(owner, await json());
    if (path === '/api/chat/dismiss') return dismiss(owner, await json());
    // `{ chatId, callId, verb, payload? }`: a card's action, its decisions saved before the answer.
    if (path === '/api/chat/act') {
      const body = await json();
      return actionCardActResponse(await acts.act({ ...body, chatId: actKey(owner, chatIdOf(body['chatId'])) }));
    }
    throw new HttpError(404, 'not found');
  }

  const door = await startExampleDoor(options, { identities, page: { html: page, css, scripts }, api });
  return { url: door.url, store, identities, server: door.server, limits: door.limits, close: door.close };
}

/** A size in words: bytes below 1 MiB, else MiB with one decimal. */
const mib = (bytes: number) => (bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`);
