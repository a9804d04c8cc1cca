// docs/ai-sdk.md's chat route ("The server") as a module, exactly as written there: a prelude gives
// it the app's names (conformance/drivers/aiSdkApp.ts), and its package specifiers point at this
// checkout's source and the installed `ai`.
import type { ActRoute, ChatRoute, WaitingRoute } from '../../conformance/drivers/aiSdkApp.js';
import { importSnippet, pointImports, snippetOf } from './snippet.js';

let route: Promise<ChatRoute> | undefined;

export function loadDocsRoute(): Promise<ChatRoute> {
  route ??= (async () => {
    const snippet = pointImports(snippetOf(new URL('../../docs/ai-sdk.md', import.meta.url), '## The server'), {
      'task-surface/ai-sdk': new URL('../../ai-sdk/index.js', import.meta.url).href,
      ai: import.meta.resolve('ai'),
    });
    const app = new URL('../../conformance/drivers/aiSdkApp.js', import.meta.url).href;
    const prelude =
      `import { loadChat, saveChat, loadWaiting, model, instructions, yourTools } from ${JSON.stringify(app)};\n` +
      'let kinds, limits, queuedMessageLimit;\nexport function configure(app) { ({ kinds, limits, queuedMessageLimit } = app); }\n';
    return importSnippet<ChatRoute>(prelude + snippet);
  })();
  return route;
}

/**
 * docs/ai-sdk.md's card act route ("Action cards"), as written: a new module (a new process's
 * `acts`) each call, with the kinds of the conversation it is loaded for.
 */
export function loadDocsActRoute(): Promise<ActRoute> {
  const snippet = pointImports(snippetOf(new URL('../../docs/ai-sdk.md', import.meta.url), '## Action cards'), {
    'task-surface/ai-sdk': new URL('../../ai-sdk/index.js', import.meta.url).href,
  });
  const app = new URL('../../conformance/drivers/aiSdkApp.js', import.meta.url).href;
  const prelude =
    `import { loadChat, saveChat, chatAccess, signedIn, currentKinds } from ${JSON.stringify(app)};\n` + 'const kinds = currentKinds();\n';
  return importSnippet<ActRoute>(prelude + snippet);
}

let waitingRoute: Promise<WaitingRoute> | undefined;

/** docs/ai-sdk.md's route for the messages waiting in the page's chat ("Messages written while a reply streams"), as written. */
export function loadDocsWaitingRoute(): Promise<WaitingRoute> {
  const snippet = snippetOf(new URL('../../docs/ai-sdk.md', import.meta.url), '## Messages written while a reply streams');
  const app = new URL('../../conformance/drivers/aiSdkApp.js', import.meta.url).href;
  waitingRoute ??= importSnippet<WaitingRoute>(`import { saveWaiting, chatAccess, signedIn } from ${JSON.stringify(app)};\n` + snippet);
  return waitingRoute;
}

/** The docs' three routes, as the AI SDK driver takes them. */
export const docsRoutes = { chat: loadDocsRoute, act: loadDocsActRoute, waiting: loadDocsWaitingRoute };
