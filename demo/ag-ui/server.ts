// The AG-UI example's server: the demo Host (its scripted agent, SQLite under the data folder) behind
// the adapter's routes, and the page that drives it with @ag-ui/client's HttpAgent. `npm run demo:ag-ui`.
// Its door is the AI SDK example's, composed once (demo/exampleDoor.ts): each address's and person's
// requests counted first, the Host header checked, writes only from its own origin and as JSON, every
// API call as the identity its signed cookie names (`host.as(principal)`: a thread is its owner's alone).
// `page: 'copilotkit'` serves examples/copilotkit/ instead: the same routes under CopilotKit's chat.
import type { Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createAgUiRoutes, type AgUiHost } from '../../ag-ui/index.js';
import type { Principal } from '../../protocol/index.js';
import { HttpError } from '../ai-sdk/guard.js';
import { buildExamplePage } from '../exampleHttp.js';
import { startExampleDoor, type ExampleApiCall, type ExampleBodyLimits, type ExampleDoorOptions } from '../exampleDoor.js';
import { createDemoHost, type DemoHost } from '../host.js';
import { createDemoIdentities, type DemoIdentities } from '../identity.js';

/** The example's own options, and its door's (`ExampleDoorOptions`: the same as the AI SDK example's). */
export interface AgUiDemoOptions extends ExampleDoorOptions {
  /** Where the SQLite log and the identity cookie's secret live; omitted: memory only. */
  dataDir?: string;
  /** The scripted agent's pause before it answers (default 0). */
  thinkMs?: number;
  /** false: no `pendingToolCallIds` in `RUN_FINISHED`, for a client from before AG-UI 1.1 (see `AgUiRunOptions`); the CopilotKit page's default. */
  pendingToolCallIds?: boolean;
  /**
   * The page: `ag-ui` (default) is demo/ag-ui/ on @ag-ui/client's HttpAgent; `copilotkit` is
   * examples/copilotkit/, CopilotKit's React chat, bundled from that folder's own install.
   */
  page?: 'ag-ui' | 'copilotkit';
}

/** The install the CopilotKit page is bundled from (its own package, so the library's stays lean). */
export const COPILOTKIT_INSTALL = 'npm ci --ignore-scripts --prefix examples/copilotkit';

/** The page's HTML, CSS and scripts (built into memory once). */
async function examplePage(page: 'ag-ui' | 'copilotkit'): Promise<{ html: string; css: string; scripts: Map<string, string> }> {
  const alias = { 'task-surface/ag-ui': './ag-ui/index.ts', 'task-surface/components': './components/index.ts' };
  if (page === 'ag-ui') {
    const scripts = await buildExamplePage('demo/ag-ui/page.ts', alias);
    return { html: readFileSync('demo/ag-ui/page.html', 'utf8'), css: readFileSync('demo/ag-ui/page.css', 'utf8'), scripts };
  }
  if (!existsSync('examples/copilotkit/node_modules/@copilotkit/react-core')) {
    throw new Error(`the CopilotKit example is not installed: run \`${COPILOTKIT_INSTALL}\` first`);
  }
  // The page imports CopilotKit's stylesheet and its own: esbuild writes them as one app.css. The
  // KaTeX fonts that stylesheet names are left out (empty): the scripted agent writes no math.
  const fonts = { '.woff2': 'empty', '.woff': 'empty', '.ttf': 'empty' } as const;
  // jitless.js is its own entry, run before app.js: the page's shared chunks (zod among them) are
  // evaluated before app.js's first line, and one of them parses with zod there.
  const entries = { jitless: 'demo/ai-sdk/jitless.js', app: 'examples/copilotkit/page.jsx' };
  const scripts = await buildExamplePage(entries, alias, true, fonts);
  const css = scripts.get('/assets/app.css') ?? '';
  scripts.delete('/assets/app.css');
  return { html: readFileSync('examples/copilotkit/page.html', 'utf8'), css, scripts };
}

export interface AgUiDemo {
  url: string;
  demo: DemoHost;
  identities: DemoIdentities;
  server: Server;
  /** The door's body limits, its options and defaults resolved. */
  limits: Readonly<ExampleBodyLimits>;
  close(): Promise<void>;
}

/** Starts the example on `port` (0: a free one). */
export async function startAgUiDemo(options: AgUiDemoOptions = {}): Promise<AgUiDemo> {
  const demo = createDemoHost({ ...(options.dataDir ? { dataDir: options.dataDir } : { store: 'memory' }), thinkMs: options.thinkMs ?? 0 });
  const identities = createDemoIdentities(options.dataDir);
  const { html: page, css, scripts } = await examplePage(options.page ?? 'ag-ui');
  const pendingToolCallIds = options.pendingToolCallIds ?? (options.page === 'copilotkit' ? false : undefined);
  /** Each request's principal, as the door identified it: the routes write as them. */
  const principals = new WeakMap<Request, Principal>();
  const routes = createAgUiRoutes({
    ...(pendingToolCallIds === undefined ? {} : { pendingToolCallIds }),
    host: (request): AgUiHost | null => {
      const principal = principals.get(request);
      return principal ? demo.host.as(principal) : null;
    },
  });

  /** The API, as the identity the request's cookie names (the door checked everything before). */
  async function api({ request, path, principal, json }: ExampleApiCall): Promise<Response> {
    // The person's thread: their oldest session (opened the first time).
    if (request.method === 'GET' && path === '/api/thread') return Response.json({ threadId: demo.welcome(principal) });
    const route =
      request.method === 'POST'
        ? { '/api/ag-ui': routes.run, '/api/ag-ui/dismiss': routes.dismiss, '/api/ag-ui/act': routes.act }[path]
        : undefined;
    if (!route) throw new HttpError(404, 'not found');
    const body = await json();
    const forwarded = new Request(`http://ag-ui.example${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: request.headers.accept ?? 'text/event-stream' },
      body: JSON.stringify(body),
    });
    principals.set(forwarded, principal);
    return route(forwarded);
  }

  // A door that does not start (a bad `trustedProxies` entry, a port in use) leaves no Host open.
  const door = await startExampleDoor(options, { identities, page: { html: page, css, scripts }, api }).catch(async (error: unknown) => {
    await demo.dispose();
    throw error;
  });
  const { close } = door;
  return {
    url: door.url,
    demo,
    identities,
    server: door.server,
    limits: door.limits,
    close: () => close().then(() => demo.dispose()),
  };
}
