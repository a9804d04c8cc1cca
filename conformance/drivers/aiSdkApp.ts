/*
 * The app around the docs' chat route (docs/ai-sdk.md, "The server"): the names that route leaves to
 * the app (`loadChat`, `saveChat`, `model`, `instructions`, `yourTools`, `kinds`, `limits`), and the
 * route itself, read from the docs and run exactly as written. Node-only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
export const model = new MockLanguageModelV4({ doStream: (options) => app().doStream(options) });
export const instructions = 'You help plan trips.';
export const yourTools: ToolSet = {};

const DOCS = fileURLToPath(new URL('../../docs/ai-sdk.md', import.meta.url));

/** The server snippet of docs/ai-sdk.md, as written there. */
export function docsRoute(): string {
  const page = readFileSync(DOCS, 'utf8');
  const section = page.slice(page.indexOf('## The server'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('docs/ai-sdk.md has no ts snippet under "## The server"');
  return match[1]!;
}

/** The docs' route, and the setter of the two names it reads per app (`kinds`, `limits`). */
export interface DocsRoute {
  POST(request: Request): Promise<Response>;
  configure(context: Pick<AppContext, 'kinds' | 'limits'>): void;
}

let route: Promise<DocsRoute> | undefined;

/**
 * The docs' route as a module: the snippet unchanged, after one import line that gives it the app's
 * names; only its two package specifiers are pointed at files (`task-surface/ai-sdk` at this
 * checkout's source, `ai` at the installed one), since the module is written outside the package.
 */
export function loadDocsRoute(): Promise<DocsRoute> {
  route ??= (async () => {
    const snippet = docsRoute()
      .replace(/from 'task-surface\/ai-sdk';/, `from ${JSON.stringify(new URL('../../ai-sdk/index.js', import.meta.url).href)};`)
      .replace(/from 'ai';/, `from ${JSON.stringify(import.meta.resolve('ai'))};`);
    const prelude =
      `import { loadChat, saveChat, model, instructions, yourTools } from ${JSON.stringify(import.meta.url)};\n` +
      'let kinds, limits;\nexport function configure(app) { ({ kinds, limits } = app); }\n';
    // `.mts`: outside this package a `.ts` file would load as CommonJS, with its own copies of the
    // modules it imports (another formatter registry than the page's).
    const file = join(mkdtempSync(join(tmpdir(), 'task-surface-route-')), 'route.mts');
    writeFileSync(file, prelude + snippet);
    return (await import(pathToFileURL(file).href)) as DocsRoute;
  })();
  return route;
}
