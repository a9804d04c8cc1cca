// An example's door, composed once: the HTTP server of the AI SDK example and of the AG-UI (and
// CopilotKit) example. Before anything is done for a request it is counted (in all, per address),
// then its Host is checked, a write's Origin and type, an API call's identity cookie (and the
// person's requests counted); a JSON body is read within the body budget; connections are capped
// per address and in all, with the server's deadlines. Each example brings its page and its API
// routes; the door, its limits, defaults, options and words are this file's alone, so that the two
// examples cannot drift apart (tried by test/doors/).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Principal } from '../protocol/index.js';
import { createBodyBudget } from '../transport/body.js';
import { capConnections, createRequestLimiter, type RequestLimits } from '../transport/door.js';
import { parseTrustedProxies, requestAddress, trustForwardedFor } from '../transport/forwarded.js';
import { clientAddress } from '../transport/proxyProtocol.js';
import { BODY_TIMEOUT_MS, checkWrite, hostOf, MAX_BODY_BYTES, readJson } from './ai-sdk/guard.js';
import { admitRequest, errorResponse, examplePageResponse, examplePrincipal, sendResponse, setExampleHeaders } from './exampleHttp.js';
import { DEMO_HTTP_LIMITS, type DemoHttpLimits } from './http.js';
import type { DemoIdentities } from './identity.js';
import { createMintLimiter, type MintRate } from './mintRate.js';

/** How many requests may be started and answered at once, asked before any body is read. */
export interface ExampleRequestLimits {
  /** Every request from one address (pages and files too: a page load is about 8). */
  perAddress: RequestLimits;
  /** Every `/api/` request of one person (a reply streaming counts until it ends). */
  perPrincipal: RequestLimits;
  /** Requests being answered in all; past it 503. */
  inFlight: number;
  /** Bytes of request bodies being read at once, all requests together (a sixteenth of it one address's); past it 503. */
  bodyBytesInFlight: number;
}

export const EXAMPLE_REQUEST_LIMITS: Readonly<ExampleRequestLimits> = Object.freeze({
  perAddress: Object.freeze({ perSecond: 20, burst: 60, inFlight: 32 }),
  perPrincipal: Object.freeze({ perSecond: 10, burst: 20, inFlight: 8 }),
  inFlight: 1_024,
  bodyBytesInFlight: 64 * 1024 * 1024,
});

/** What a product (or a test) may set on an example's door; every example takes the same. */
export interface ExampleDoorOptions {
  port?: number;
  host?: string;
  /** `host[:port]` names the server answers to besides 127.0.0.1:<port> and localhost:<port>. */
  allowedHosts?: readonly string[];
  /** Page origins that may write besides the page's own. */
  allowedOrigins?: readonly string[];
  /** New identities per address (the page's first visit). Default 60 at once, then 30 a minute. */
  identityRate?: MintRate;
  /** Connections per address and request deadlines, as the main demo's (`DEMO_HTTP_LIMITS` by default). */
  httpLimits?: Partial<Omit<DemoHttpLimits, 'addressOf'>>;
  /** Requests per address and per person, in flight in all, body bytes at once (`EXAMPLE_REQUEST_LIMITS` by default). */
  requestLimits?: {
    perAddress?: Partial<RequestLimits>;
    perPrincipal?: Partial<RequestLimits>;
    inFlight?: number;
    bodyBytesInFlight?: number;
  };
  /** A request body must arrive whole within this many milliseconds; past it 408. Default 10 s (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs?: number;
  /**
   * HTTP proxies (addresses and CIDRs) whose `X-Forwarded-For` names the client (its right-most
   * address that is not one of them); from any other peer the header is ignored. Default none.
   */
  trustedProxies?: readonly string[];
}

/** One `/api/` request, past every check of the door: who asks, and its JSON body read within the budget. */
export interface ExampleApiCall {
  request: IncomingMessage;
  path: string;
  principal: Principal;
  /** The body's JSON object (within 256 KiB, `bodyTimeoutMs`, depth 64 and the body budget), or the refusal thrown. */
  json(): Promise<Record<string, unknown>>;
}

/** What an example brings to its door: the visitors' identities, its page, its API. */
export interface ExampleDoorRoutes {
  identities: DemoIdentities;
  page: { html: string; css: string; scripts: ReadonlyMap<string, string> };
  /** `/api/…`: the answer, or an `HttpError` thrown (404 for a path it does not serve). */
  api(call: ExampleApiCall): Promise<Response>;
}

/** The body limits a door keeps, as resolved from its options and the defaults. */
export interface ExampleBodyLimits {
  /** The most of a body read (256 KiB). */
  maxBodyBytes: number;
  /** A body must arrive whole within this (`bodyTimeoutMs`, default 10 s). */
  bodyTimeoutMs: number;
}

export interface ExampleDoor {
  url: string;
  server: Server;
  limits: Readonly<ExampleBodyLimits>;
  /** Closes every connection, then the server. */
  close(): Promise<void>;
}

/** Starts an example's door on `options.port` (0 or none: a free one). A bad `trustedProxies` entry throws, naming it. */
export async function startExampleDoor(options: ExampleDoorOptions, routes: ExampleDoorRoutes): Promise<ExampleDoor> {
  const limits = options.requestLimits ?? {};
  const bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const inAll = createRequestLimiter(
    { perSecond: Infinity, burst: Infinity, inFlight: limits.inFlight ?? EXAMPLE_REQUEST_LIMITS.inFlight },
    'the server',
  );
  const perAddress = createRequestLimiter({ ...EXAMPLE_REQUEST_LIMITS.perAddress, ...limits.perAddress }, 'this address');
  const perPrincipal = createRequestLimiter({ ...EXAMPLE_REQUEST_LIMITS.perPrincipal, ...limits.perPrincipal }, 'this person');
  const bodies = createBodyBudget(limits.bodyBytesInFlight ?? EXAMPLE_REQUEST_LIMITS.bodyBytesInFlight);
  const trusted = options.trustedProxies?.length ? parseTrustedProxies(options.trustedProxies) : undefined;
  const mint = createMintLimiter(options.identityRate);
  const page = { identities: routes.identities, mint, ...routes.page };

  async function route(request: IncomingMessage, url: URL, response: ServerResponse): Promise<Response> {
    const host = hostOf(request, server.address(), options.allowedHosts ?? []);
    if (request.method !== 'GET' && request.method !== 'HEAD') checkWrite(request, host, options.allowedOrigins);
    const path = url.pathname;
    if (!path.startsWith('/api/')) return examplePageResponse(request, path, response, page);
    const principal = examplePrincipal(request, response, routes.identities, perPrincipal);
    return routes.api({ request, path, principal, json: () => readJson(request, bodies, bodyTimeoutMs) });
  }

  const http = { ...DEMO_HTTP_LIMITS, ...options.httpLimits };
  const server = createServer(
    // Checked every second (Node's default is 30 s), so a request past its deadline is cut off near it.
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
    server,
    limits: Object.freeze({ maxBodyBytes: MAX_BODY_BYTES, bodyTimeoutMs }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `TASK_SURFACE_TRUSTED_PROXIES` (`10.0.0.0/8,…`) as an example's `trustedProxies`; a bad entry
 * stops the start: printed, naming it, and the process exits 2.
 */
export function trustedProxiesFromEnv(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    parseTrustedProxies(entries);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  return entries;
}
