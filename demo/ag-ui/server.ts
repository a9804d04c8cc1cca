// The AG-UI example's server: the demo Host (its scripted agent, SQLite under the data folder) behind
// the adapter's routes, and the page that drives it with @ag-ui/client's HttpAgent. `npm run demo:ag-ui`.
// Its doors are the AI SDK example's: the Host header checked, writes only from its own origin and
// as JSON, every API call as the identity its signed cookie names (`host.as(principal)`: a thread is
// its owner's alone), each address's and person's requests counted first (transport/door.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
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
  /** false: no `pendingToolCallIds` in `RUN_FINISHED`, for a client from before AG-UI 1.1 (see `AgUiRunOptions`). */
  pendingToolCallIds?: boolean;
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
  const page = readFileSync('demo/ag-ui/page.html', 'utf8');
  const css = readFileSync('demo/ag-ui/page.css', 'utf8');
  const scripts = await buildExamplePage('demo/ag-ui/page.ts', {
    'task-surface/ag-ui': './ag-ui/index.ts',
    'task-surface/components': './components/index.ts',
  });
  /** Each request's principal, as the door identified it: the routes write as them. */
  const principals = new WeakMap<Request, Principal>();
  const routes = createAgUiRoutes({
    ...(options.pendingToolCallIds === undefined ? {} : { pendingToolCallIds: options.pendingToolCallIds }),
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
  capConnections(server, DEMO_HTTP_LIMITS.connectionsPerAddress, (socket) => clientAddress(socket));
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
