// The AG-UI example's server: the demo Host (its scripted agent, SQLite under the data folder) behind
// the adapter's routes, and the page that drives it with @ag-ui/client's HttpAgent. `npm run demo:ag-ui`.
// Its doors are the AI SDK example's: the Host header checked, writes only from its own origin and
// as JSON, every API call as the identity its signed cookie names (`host.as(principal)`: a thread is
// its owner's alone), each address's and person's requests counted first (transport/door.ts).
// `page: 'copilotkit'` serves examples/copilotkit/ instead: the same routes under CopilotKit's chat.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createAgUiRoutes, type AgUiHost } from '../../ag-ui/index.js';
import type { Principal } from '../../protocol/index.js';
import { capConnections, createRequestLimiter } from '../../transport/door.js';
import { requestAddress } from '../../transport/forwarded.js';
import { clientAddress } from '../../transport/proxyProtocol.js';
import { checkWrite, hostOf, HttpError, readJson } from '../ai-sdk/guard.js';
import { AI_SDK_REQUEST_LIMITS } from '../ai-sdk/server.js';
import {
  admitRequest,
  buildExamplePage,
  errorResponse,
  examplePageResponse,
  examplePrincipal,
  sendResponse,
  setExampleHeaders,
} from '../exampleHttp.js';
import { DEMO_HTTP_LIMITS } from '../http.js';
import { createDemoHost, type DemoHost } from '../host.js';
import { createDemoIdentities, type DemoIdentities } from '../identity.js';
import { createMintLimiter } from '../mintRate.js';

export interface AgUiDemoOptions {
  /** Where the SQLite log and the identity cookie's secret live; omitted: memory only. */
  dataDir?: string;
  port?: number;
  host?: string;
  /** `host[:port]` names the server answers to besides 127.0.0.1:<port> and localhost:<port>. */
  allowedHosts?: readonly string[];
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
  close(): Promise<void>;
}

/** Starts the example on `port` (0: a free one). */
export async function startAgUiDemo(options: AgUiDemoOptions = {}): Promise<AgUiDemo> {
  const demo = createDemoHost({ ...(options.dataDir ? { dataDir: options.dataDir } : { store: 'memory' }), thinkMs: options.thinkMs ?? 0 });
  const identities = createDemoIdentities(options.dataDir);
  const mint = createMintLimiter();
  const perAddress = createRequestLimiter(AI_SDK_REQUEST_LIMITS.perAddress, 'this address');
  const perPrincipal = createRequestLimiter(AI_SDK_REQUEST_LIMITS.perPrincipal, 'this person');
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

  async function api(request: IncomingMessage, path: string, principal: Principal): Promise<Response> {
    // The person's thread: their oldest session (opened the first time).
    if (request.method === 'GET' && path === '/api/thread') return Response.json({ threadId: demo.welcome(principal) });
    const route =
      request.method === 'POST'
        ? { '/api/ag-ui': routes.run, '/api/ag-ui/dismiss': routes.dismiss, '/api/ag-ui/act': routes.act }[path]
        : undefined;
    if (!route) throw new HttpError(404, 'not found');
    const body = await readJson(request);
    const forwarded = new Request(`http://ag-ui.example${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: request.headers.accept ?? 'text/event-stream' },
      body: JSON.stringify(body),
    });
    principals.set(forwarded, principal);
    return route(forwarded);
  }

  async function route(request: IncomingMessage, url: URL, response: ServerResponse): Promise<Response> {
    const host = hostOf(request, server.address(), options.allowedHosts ?? []);
    if (request.method !== 'GET' && request.method !== 'HEAD') checkWrite(request, host, undefined);
    const path = url.pathname;
    if (path.startsWith('/api/')) return api(request, path, examplePrincipal(request, response, identities, perPrincipal));
    return examplePageResponse(request, path, response, { identities, mint, html: page, css, scripts });
  }

  const server = createServer({ headersTimeout: 10_000, requestTimeout: 0, connectionsCheckingInterval: 1_000 }, (request, response) => {
    setExampleHeaders(response);
    const url = new URL(request.url ?? '/', 'http://localhost');
    const counted = async () => {
      admitRequest(perAddress, requestAddress(request), response);
      return route(request, url, response);
    };
    counted()
      .catch(errorResponse)
      .then((answer) => sendResponse(answer, response))
      .catch(() => response.destroy());
  });
  capConnections(server, DEMO_HTTP_LIMITS.connectionsPerAddress, (socket) => clientAddress(socket), DEMO_HTTP_LIMITS.connections);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    demo,
    identities,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => void demo.dispose().then(resolve));
      }),
  };
}
