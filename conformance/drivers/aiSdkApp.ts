/*
 * The app around a chat route written as docs/ai-sdk.md's ("The server"): the names that route
 * leaves to the app (`loadChat`, `saveChat`, `model`, `instructions`, `yourTools`), its chats kept
 * per conversation, and the scripted model.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ToolSet, UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { CardKind } from '../../host/types.js';
import type { TaskSurfaceLimitsInput } from '../../protocol/limits.js';

/** What one conversation gives the route: its chats, its scripted model, its kinds and limits. */
export interface AppContext {
  chats: Map<string, UIMessage[]>;
  doStream(options: LanguageModelV4CallOptions): Promise<{ stream: ReadableStream<LanguageModelV4StreamPart> }>;
  kinds: readonly CardKind[] | undefined;
  limits: TaskSurfaceLimitsInput | undefined;
  /** Waiting messages at or above which `propose_action` refuses (undefined: the default). */
  queuedMessageLimit: number | undefined;
  /** Per chat, how many messages the page reported waiting (the waiting route saves it). */
  waiting: Map<string, number>;
  /** The person may only read the chat. */
  readOnly: boolean;
}

// On globalThis: the route's import of this module may load a second instance of it (a loader's URL differs).
const CURRENT = Symbol.for('task-surface.conformance.aiSdkApp');
const holder = globalThis as { [CURRENT]?: AppContext };
const app = (): AppContext => {
  const current = holder[CURRENT];
  if (!current) throw new Error('the docs route ran outside a conversation of the AI SDK driver');
  return current;
};

/** Runs `body` with `context` as the app the route sees (the kit runs one scenario at a time). */
export function asApp<T>(context: AppContext, body: () => T): T {
  holder[CURRENT] = context;
  return body();
}

// The names the docs' route reads (`kinds` and `limits` are the route module's own, set per request).
export const loadChat = async (id: string): Promise<UIMessage[]> => structuredClone(app().chats.get(id) ?? []);
export const saveChat = async (id: string, messages: UIMessage[]): Promise<void> => void app().chats.set(id, structuredClone(messages));
export const loadWaiting = async (id: string): Promise<number> => app().waiting.get(id) ?? 0;
export const saveWaiting = async (id: string, count: number): Promise<void> => void app().waiting.set(id, count);
export const model = new MockLanguageModelV4({ doStream: (options) => app().doStream(options) });
export const instructions = 'You help plan trips.';
export const yourTools: ToolSet = {};

/** The person the page acts as (its requests carry them in a header: the app's session, say). */
export const PERSON = { id: 'person', name: 'The person' };
const PERSON_HEADER = 'x-conformance-person';
/** Headers of the page's requests. */
export const personHeaders = { [PERSON_HEADER]: PERSON.id };
// The act route's names: who is asking, and what they may do with a chat (the owner writes, unless read-only).
export const signedIn = async (request: Request) => {
  const id = request.headers.get(PERSON_HEADER) ?? 'nobody';
  return { id, name: id };
};
export const chatAccess = (_chatId: string, person: { id: string }): 'none' | 'read' | 'write' =>
  person.id !== PERSON.id ? 'none' : app().readOnly ? 'read' : 'write';
/** The kinds of the conversation the act route is loaded for (read once, when its module loads). */
export const currentKinds = (): readonly CardKind[] => app().kinds ?? [];

/**
 * An app's chat route as a module: `POST` (the route), and `configure`, which sets the two names it
 * reads per app (`kinds`, `limits`, `queuedMessageLimit`) before each request. test/conformance/docsRoute.ts makes one from
 * docs/ai-sdk.md's snippet, importing the other names from this module.
 */
export interface ChatRoute {
  POST(request: Request): Promise<Response>;
  configure(context: Pick<AppContext, 'kinds' | 'limits' | 'queuedMessageLimit'>): void;
}

/** An app's route for the count of messages waiting in the page's chat. */
export interface WaitingRoute {
  POST(request: Request): Promise<Response>;
}

/** An app's card act route as a module (its `acts` hold the running operations: one per process). */
export interface ActRoute {
  POST(request: Request): Promise<Response>;
}
