/*
 * The AI SDK path: the docs' chat route (aiSdkApp.ts) with a scripted `MockLanguageModelV4`, and the
 * page side in Node: the AI SDK's own `Chat` (@ai-sdk/react) with `DefaultChatTransport` as the docs'
 * page configures it, its fetch answered by the route, and `createChatTaskSurface(chat)` as the
 * Dock's and the card's transport. No browser: the elements' calls are made on that transport.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { Chat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import type { ActionCardDecisionPart } from '../../ai-sdk/cardMessages.js';
import { foldActionCards } from '../../ai-sdk/cards.js';
import { createChatTaskSurface, type ChatTaskSurface, type TaskSurfaceChat } from '../../ai-sdk/chat.js';
import { dismissTaskSurface } from '../../ai-sdk/checks.js';
import { foldTaskSurface } from '../../ai-sdk/fold.js';
import type {
  ActResult,
  JsonValue,
  SessionId,
  SessionView,
  TaskSurfaceDismissalId,
  TaskSurfaceId,
  TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import type {
  CallRead,
  ConformanceDriver,
  Conversation,
  ConversationOptions,
  ModelCall,
  ModelStep,
  SeenMessage,
  Supports,
} from '../driver.js';
import { asApp, personHeaders, type ActRoute, type AppContext, type ChatRoute, type WaitingRoute } from './aiSdkApp.js';
import { activeSeen, previewSeen } from './host.js';
import { ModelScript } from './script.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A part of a provider's stream, or a pause in it (a streamed call's midway: the stream waits for it). */
type Streamed = LanguageModelV4StreamPart | (() => Promise<void>);

/**
 * One scripted step as the stream a provider sends: its calls, its text, the finish. A streamed call
 * comes as `tool-input-start`, eight `tool-input-delta`s and `tool-input-end` before its `tool-call`,
 * with `midway` after the fourth delta (a cut one ends there, with an error).
 */
function stepParts(step: ModelStep | undefined, midway: (call: ModelCall) => Promise<void> = async () => {}): Streamed[] {
  const parts: Streamed[] = [{ type: 'stream-start', warnings: [] }];
  if (step?.text !== undefined) {
    parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: step.text }, { type: 'text-end', id: 't' });
  }
  for (const call of step?.calls ?? []) {
    const id = `call_${crypto.randomUUID()}`;
    const input = JSON.stringify(call.input);
    if (call.streamed) {
      parts.push({ type: 'tool-input-start', id, toolName: call.tool });
      for (let piece = 0; piece < 8; piece++) {
        const delta = input.slice(Math.round((input.length * piece) / 8), Math.round((input.length * (piece + 1)) / 8));
        parts.push({ type: 'tool-input-delta', id, delta });
        if (piece === 3) parts.push(() => midway(call));
        if (piece === 3 && call.streamed.cut) return [...parts, { type: 'error', error: new Error('the model stream broke mid-call') }];
      }
      parts.push({ type: 'tool-input-end', id });
    }
    parts.push({ type: 'tool-call', toolCallId: id, toolName: call.tool, input });
  }
  const calls = (step?.calls?.length ?? 0) > 0;
  parts.push({ type: 'finish', finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage });
  return parts;
}

const streamOf = (parts: Streamed[]) =>
  new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      for (let part = parts.shift(); part !== undefined; part = parts.shift()) {
        if (typeof part !== 'function') controller.enqueue(part);
        else return part(); // the stream resumes once the midway is over
      }
      controller.close();
    },
  });

/** The prompt as the kit reads it: each user text part its own message (a notice is a part of its own). */
function seen(prompt: LanguageModelV4Prompt): SeenMessage[] {
  return prompt.flatMap((message): SeenMessage[] => {
    if (message.role === 'system') return [{ role: 'system', text: message.content }];
    if (message.role === 'user')
      return message.content.flatMap((p) => (p.type === 'text' ? [{ role: 'user' as const, text: p.text }] : []));
    if (message.role === 'assistant') {
      const text = message.content
        .map((p) => (p.type === 'text' ? p.text : p.type === 'tool-call' ? JSON.stringify(p.input) : ''))
        .join('');
      return [{ role: 'assistant', text }];
    }
    return message.content.flatMap((p) =>
      p.type === 'tool-result' && 'value' in p.output ? [{ role: 'tool' as const, text: String(p.output.value) }] : [],
    );
  });
}

/** Every call the model made in `messages`, with what it read back. */
function callsIn(messages: readonly UIMessage[]): CallRead[] {
  return messages.flatMap((m) =>
    m.parts.flatMap((part): CallRead[] => {
      const p = part as { type: string; toolName?: string; state?: string; output?: { ok?: boolean; text?: string }; errorText?: string };
      const tool = p.type === 'dynamic-tool' ? p.toolName : p.type.startsWith('tool-') ? p.type.slice(5) : undefined;
      if (tool === undefined) return [];
      if (p.state === 'output-available') return [{ tool, ok: p.output?.ok === true, text: p.output?.text ?? '' }];
      if (p.state === 'output-error') return [{ tool, ok: false, text: p.errorText ?? '' }];
      return [];
    }),
  );
}

/** The refusal reason in a failed request's error (the route answers `{ error: reason, message }`). */
function reasonOf(error: Error | undefined): string {
  try {
    return (JSON.parse(error?.message ?? '') as { error?: string }).error ?? 'failed';
  } catch {
    return 'failed';
  }
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let chats = 0;

/**
 * An app's routes: the chat route (loaded once), the card act route (loaded again for each
 * conversation and restart: a process's `acts`), the route the page reports waiting messages to.
 */
export interface AiSdkRoutes {
  chat(): Promise<ChatRoute>;
  act(): Promise<ActRoute>;
  waiting(): Promise<WaitingRoute>;
}

async function aiSdkConversation(routes: AiSdkRoutes, options: ConversationOptions): Promise<Conversation> {
  const { POST, configure } = await routes.chat();
  const script = new ModelScript();
  const chatId = `chat-${++chats}`;
  let steps: ModelStep[] | null = null;
  const context: AppContext = {
    chats: new Map(),
    kinds: options.kinds,
    limits: options.limits,
    queuedMessageLimit: options.queuedMessageLimit,
    waiting: new Map(),
    readOnly: options.readOnly ?? false,
    async doStream(call: LanguageModelV4CallOptions) {
      // The first model call of a request takes the next scripted response; a refused request takes none.
      steps ??= script.next();
      const step = steps.shift();
      if (!step) return { stream: streamOf(stepParts(undefined)) };
      await step.during?.(conversation);
      script.requests.push({ messages: seen(call.prompt) });
      return { stream: streamOf(stepParts(step, midway)) };
    },
  };
  const stored = () => context.chats.get(chatId) ?? [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    steps = null;
    configure(context);
    return asApp(context, () => POST(new Request('http://app.test/api/chat', init)));
  };
  let actRoute = await asApp(context, () => routes.act());
  const waitingRoute = await routes.waiting();
  /** The page's last report of its waiting messages, as its `fetch` sends it, answered by the waiting route. */
  let reported: Promise<void> = Promise.resolve();
  const postWaiting = (waiting: { chatId: string; count: number }) =>
    (reported = (async () => {
      const init = { method: 'POST', headers: { 'content-type': 'application/json', ...personHeaders }, body: JSON.stringify(waiting) };
      const response = await asApp(context, () => waitingRoute.POST(new Request('http://app.test/api/chat/waiting', init)));
      if (!response.ok) throw new Error(`the waiting route refused the count (${response.status})`);
    })());
  /** The page's act request, as its `fetch` sends it, answered by the act route. */
  const postAct = async (request: unknown) => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', ...personHeaders }, body: JSON.stringify(request) };
    const response = await asApp(context, () => actRoute.POST(new Request('http://app.test/api/chat/act', init)));
    const body = (await response.json()) as { result: ActResult; decisions: ActionCardDecisionPart[]; message?: string };
    if (!response.ok) throw new Error(body.message ?? `the act failed (${response.status})`);
    return body;
  };

  let view: SessionView | null = null;
  /** A streamed call half written: once the page shows its preview (or a moment passed), the person acts. */
  const midway = async (call: ModelCall) => {
    for (let i = 0; i < 200 && !view?.preview; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await call.streamed?.midway?.(conversation);
  };
  const open = () => {
    const chat = new Chat({
      id: chatId,
      // What the person writes while a reply streams waits in the page's chat, sent after it.
      experimental_queue: true,
      messages: structuredClone(stored()),
      transport: new DefaultChatTransport({
        api: '/api/chat',
        prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
        fetch,
      }),
    });
    // `Chat` sets its messages with a setter; `useChat` hands pages `setMessages`.
    const chatSide: TaskSurfaceChat = {
      id: chatId,
      get messages() {
        return chat.messages;
      },
      get status() {
        return chat.status;
      },
      sendMessage: (message) => chat.sendMessage(message),
      setMessages: (messages) => void (chat.messages = messages),
      get experimental_queuedMessages() {
        return chat.experimental_queuedMessages;
      },
    };
    const adapter = createChatTaskSurface(chatSide, {
      async onDismiss({ chatId: id, surfaceId, dismissalId }) {
        const result = dismissTaskSurface(stored(), { surfaceId, dismissalId });
        if (!result.dismissed) throw new Error(result.message);
        if (!result.repeated) context.chats.set(id, result.messages);
      },
      onAct: postAct,
      onWaiting: postWaiting,
    });
    const hooks = chat as unknown as Record<'~registerMessagesCallback' | '~registerStatusCallback', (f: () => void) => () => void>;
    const off = [
      hooks['~registerMessagesCallback'](() => adapter.update(chatSide)),
      hooks['~registerStatusCallback'](() => adapter.update(chatSide)),
    ];
    adapter.transport.watchSession(chatId as SessionId, (next) => (view = next));
    return { chat, adapter, update: () => adapter.update(chatSide), close: () => (off.forEach((f) => f()), adapter.dispose()) };
  };
  let page: { chat: Chat<UIMessage>; adapter: ChatTaskSurface; update(): void; close(): void } = open();
  const busy = () => page.chat.status === 'submitted' || page.chat.status === 'streaming';
  /** Until the page has settled what it sent: no request running, no submission shown pending. */
  const idle = async () => {
    for (let i = 0; i < 2000 && (busy() || view?.taskSurface.active?.pending); i++) await settle();
    await settle();
  };
  const sessionId = chatId as SessionId;

  const conversation: Conversation = {
    script: (...response) => script.push(response),
    async say(text) {
      await page.chat.sendMessage({ text });
      await idle();
      return page.chat.status === 'error' ? { accepted: false, reason: reasonOf(page.chat.error) } : { accepted: true };
    },
    /** The person writes while the reply streams: the page's chat holds the message and reports the count. */
    async queue(text) {
      if (!busy()) throw new Error('queue() is for a message written while a reply runs (use say)');
      const before = page.chat.experimental_queuedMessages.length;
      void page.chat.sendMessage({ text });
      for (let i = 0; i < 2000 && page.chat.experimental_queuedMessages.length === before; i++) await settle();
      page.update();
      await reported;
      return { accepted: true };
    },
    async submit({ submissionId, values, note, surfaceId }) {
      const asked = surfaceId ?? view?.taskSurface.active?.surfaceId ?? foldTaskSurface(page.chat.messages).open?.surfaceId ?? 'ts_none';
      const result = await page.adapter.transport.taskSurface.submit({
        sessionId,
        surfaceId: asked as TaskSurfaceId,
        submissionId: submissionId as TaskSurfaceSubmissionId,
        values: values as Record<string, JsonValue>,
        locale: options.locale,
        ...(note === undefined ? {} : { note }),
      });
      if (!result.accepted) return { accepted: false, reason: result.reason };
      await idle();
      return page.chat.status === 'error' ? { accepted: false, reason: reasonOf(page.chat.error) } : { accepted: true };
    },
    async dismiss({ dismissalId, surfaceId }) {
      const asked = surfaceId ?? view?.taskSurface.active?.surfaceId ?? 'ts_none';
      const result = await page.adapter.transport.taskSurface.dismiss({
        sessionId,
        surfaceId: asked as TaskSurfaceId,
        dismissalId: dismissalId as TaskSurfaceDismissalId,
      });
      return result.dismissed ? { dismissed: true } : { dismissed: false, reason: result.reason };
    },
    async active() {
      const shown = view?.taskSurface.active;
      if (!shown) return null;
      return activeSeen(page.adapter.transport, sessionId, shown.surfaceId);
    },
    async surfaces() {
      const { fold } = foldTaskSurface(stored());
      return [...fold.surfaceIds].map((surfaceId) => ({
        surfaceId,
        status: fold.active?.surfaceId === surfaceId ? ('open' as const) : (fold.outcomes.get(surfaceId)?.status ?? 'open'),
      }));
    },
    async act({ callId, verb, payload }) {
      const result = await page.adapter.transport.actionCards.act({
        sessionId,
        callId: callId as never,
        verb,
        ...(payload === undefined ? {} : { payload }),
      });
      await idle();
      return result;
    },
    async cards() {
      // As the person sees them: the page's chat, a card of a reply still streaming included.
      const cardView = view?.actionCards ?? foldActionCards(stored()).view;
      return cardView.proposals.map((p) => ({
        callId: p.callId,
        action: p.action,
        phase: cardView.decisions[p.callId]?.phase ?? 'proposed',
      }));
    },
    async preview() {
      return previewSeen(view?.preview?.model);
    },
    calls: () => callsIn(stored()),
    requests: () => script.requests,
    async reload() {
      page.close();
      page = open();
    },
    async restart() {
      // The chat route keeps nothing in memory; the act route's `acts` do (one per process).
      actRoute = await asApp(context, () => routes.act());
    },
    async close() {
      page.close();
    },
  };
  return conversation;
}

export const AI_SDK_SUPPORTS: Supports = {
  conversation: true,
  queue:
    "an AI SDK app has no queue of rows on its server: the page's Chat holds the messages written while a reply streams (experimental_queue) and sends each as its own request, so there is no row to edit, steer or remove and no queue-full",
  waiting: true,
  cards: true,
  toolModes:
    "the docs' route declares its tools to the model directly (native); `taskSurfaceTools({ toolMode: 'code' })` is for tools a program calls, and refuses every call (test/ai-sdk/tools.node.test.ts)",
  restart: true,
  preview: true,
};

/**
 * The AI SDK path around an app's `routes` (the kit runs docs/ai-sdk.md's, as written),
 * a scripted `MockLanguageModelV4`, and the page side in Node.
 */
export function aiSdkDriver(routes: AiSdkRoutes): ConformanceDriver {
  return {
    path: 'ai-sdk',
    description:
      "The chat, card act and waiting routes of docs/ai-sdk.md as written, a scripted `MockLanguageModelV4`; the page in Node: @ai-sdk/react's `Chat` (`experimental_queue`), `DefaultChatTransport`, `createChatTaskSurface`.",
    supports: AI_SDK_SUPPORTS,
    open: (options) => aiSdkConversation(routes, options),
  };
}
