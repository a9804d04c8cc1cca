import { existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join, normalize, resolve } from 'node:path';
import { capConnections, MAX_CONNECTIONS } from '../transport/door.js';
import { requestPath } from '../transport/ws/origin.js';
import { contentSecurityPolicy } from './csp.js';
import { createStaticFiles } from './staticFiles.js';

/** Pages a person can open; everything else under `/assets/` is a built file. */
const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/embed/plain': 'embed-plain.html',
  '/embed/react': 'embed-react.html',
};

/**
 * An HTTP server for the built demo (`root`), every response with the strict CSP and no sniffing.
 * `validHost` checks the Host header before anything uses it: a malformed or unserved one gets 400.
 * Files go compressed by `Accept-Encoding`; hashed assets are immutable, pages revalidate (ETag),
 * errors are never stored.
 */
export function createDemoHttpServer(
  root: string,
  validHost: (request: IncomingMessage) => string | null,
  /**
   * Called for every page (not asset) response before it is written: the demo sets its identity
   * cookie. False when it answered the request itself (a refusal): nothing more is written. A
   * promise (a count kept in a database) is awaited first.
   */
  onPage: (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean> = () => true,
  /** `/healthz`: null when this process serves, else why not (answered 503). */
  unhealthy: () => string | null = () => null,
  /** Requests another handler answers (`/mcp`), after the Host check: true when it took the request. */
  route: (request: IncomingMessage, response: ServerResponse, host: string) => boolean = () => false,
  /** The built docs site (`npm run docs`, dist/docs), served at `/docs/` under the same CSP. */
  docsRoot?: string,
  limits: Partial<DemoHttpLimits> = {},
): Server {
  const base = resolve(root);
  const docsBase = docsRoot === undefined ? undefined : resolve(docsRoot);
  const serveFile = createStaticFiles();
  const { connectionsPerAddress, connections, headersTimeoutMs, requestTimeoutMs } = { ...DEMO_HTTP_LIMITS, ...limits };
  const server = createServer(
    // Checked every second (Node's default is 30 s), so a request past its deadline is cut off near it.
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 1_000 },
    (request, response) => handle(request, response),
  );
  capConnections(server, connectionsPerAddress, limits.addressOf ?? ((socket) => socket.remoteAddress ?? null), connections);
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const host = validHost(request);
    if (host === null) {
      response.setHeader('Content-Security-Policy', "default-src 'none'");
      return reply(response, 400, 'bad request: the Host header is malformed or not one this server serves');
    }
    if (route(request, response, host)) return;
    const pathname = requestPath(request);
    if (pathname === null) return reply(response, 400, 'bad request: the request target is not a URL');
    response.setHeader('Content-Security-Policy', contentSecurityPolicy(host));
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('Cache-Control', 'no-store');
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'method not allowed');
    if (pathname === '/healthz') {
      const problem = unhealthy();
      return reply(response, problem === null ? 200 : 503, problem === null ? 'ok' : `not serving: ${problem}`);
    }
    if (pathname === '/docs') {
      response.writeHead(301, { Location: '/docs/', 'Content-Type': 'text/plain; charset=utf-8' });
      return void response.end('moved to /docs/');
    }
    const inDocs = pathname.startsWith('/docs/');
    if (inDocs && docsBase === undefined) return reply(response, 404, 'the docs site is not served here (npm run docs builds it)');
    const page = PAGES[pathname];
    const file = inDocs
      ? pathname.slice('/docs/'.length) || 'index.html'
      : (page ?? (pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length) : undefined));
    if (file === undefined) return reply(response, 404, 'not found');
    const from = inDocs ? docsBase! : base;
    const path = normalize(join(from, file));
    if (!path.startsWith(from + '/') || !existsSync(path) || !statSync(path).isFile()) return reply(response, 404, 'not found');
    const send = () =>
      serveFile(request, response, path).catch(() => {
        if (!response.headersSent) reply(response, 404, 'not found');
        else response.destroy();
      });
    const go = page === undefined || onPage(request, response);
    if (go === true) return void send();
    if (go === false) return;
    go.then(
      (ok) => void (ok && send()),
      () => void (response.headersSent || reply(response, 500, 'internal error')),
    );
  };
  return server;
}

/** What one address may hold of the demo's HTTP server, and how long a request may take to arrive. */
export interface DemoHttpLimits {
  /** Open TCP connections (pages, `/mcp`, sockets) from one address; past it the connection gets 429 and is closed. */
  connectionsPerAddress: number;
  /** Open TCP connections in all, whoever opened them; past it the connection gets 503 and is closed. */
  connections: number;
  /** A request's headers must arrive within this (Node's `headersTimeout`; then 408). */
  headersTimeoutMs: number;
  /** A whole request must arrive within this (Node's `requestTimeout`; then 408). */
  requestTimeoutMs: number;
  /** The client's address of a connection (behind the balancer: the one its PROXY header names). */
  addressOf?(socket: Socket): string | null;
}

export const DEMO_HTTP_LIMITS: Readonly<DemoHttpLimits> = Object.freeze({
  connectionsPerAddress: 128,
  connections: MAX_CONNECTIONS,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
});

function reply(response: ServerResponse, status: number, text: string) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(text);
}
