// What the examples' HTTP servers (the AI SDK's, the AG-UI one) share: the page bundled into
// memory, the headers every answer carries, a fetch Response written to Node's response, a request
// counted against a limiter until its answer ends, and an error as its JSON answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { build, type Loader } from 'esbuild';
import type { Principal } from '../protocol/index.js';
import type { RequestLimiter } from '../transport/door.js';
import type { DemoIdentities } from './identity.js';
import { HttpError } from './ai-sdk/guard.js';

/**
 * Builds an example's page (`entry`, the package from source through `alias`) into memory: `app.js`
 * and its chunks by name (`app.css` too when the page imports CSS); `entry` may name more entries
 * by output name; `loader` by file extension.
 */
export async function buildExamplePage(
  entry: string | Record<string, string>,
  alias: Record<string, string>,
  minify = true,
  loader: Record<string, Loader> = {},
): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: typeof entry === 'string' ? { app: entry } : entry,
    outdir: 'assets',
    bundle: true,
    // Split as the package's own build is: its lazily loaded modules stay chunks.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    // The page imports the package by name, as an app would; here that is the source.
    alias,
    loader,
    minify,
    write: false,
    logLevel: 'warning',
  });
  return new Map(result.outputFiles.map((file) => [`/assets/${basename(file.path)}`, file.text]));
}

/** Not frameable (clickjacking), no sniffing, nothing cached; scripts, styles and requests from this origin only. */
export function setExampleHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cache-Control', 'no-store');
}

/** Writes a fetch Response (a stream, a JSON answer) to Node's response. */
export async function sendResponse(response: Response, out: ServerResponse): Promise<void> {
  out.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) out.write(chunk);
  out.end();
}

/** An error as its answer: an `HttpError`'s status, Retry-After and closing; anything else a 500. */
export function errorResponse(error: unknown): Response {
  if (!(error instanceof HttpError)) return Response.json({ error: 'the server failed; see its log' }, { status: 500 });
  return Response.json(
    { error: error.message },
    {
      status: error.status,
      headers: {
        ...(error.after.retryAfterS === undefined ? {} : { 'retry-after': String(error.after.retryAfterS) }),
        ...(error.after.close || error.status === 408 || error.status === 413 ? { connection: 'close' } : {}),
      },
    },
  );
}

/**
 * Takes a request of `key` from `limiter` until `response` ends or its connection closes; a refusal
 * is thrown as its answer, the connection closed after it (the body, if any, is never read).
 */
export function admitRequest(limiter: RequestLimiter, key: string | null, response: ServerResponse): void {
  const slot = limiter.take(key);
  if ('status' in slot) throw new HttpError(slot.status, slot.message, { retryAfterS: slot.retryAfterS, close: true });
  response.once('close', slot.release);
}

/** The request's principal from its identity cookie, its request counted against `perPrincipal`; 401 for none. */
export function examplePrincipal(
  request: IncomingMessage,
  response: ServerResponse,
  identities: DemoIdentities,
  perPrincipal: RequestLimiter,
): Principal {
  const principal = identities.principalOf(request);
  if (principal === null) throw new HttpError(401, 'who is asking is not known: open the page first (it sets your identity cookie)');
  admitRequest(perPrincipal, principal.id, response);
  return principal;
}

/** An example's page and its files. */
export interface ExamplePage {
  identities: DemoIdentities;
  /** New identities per address: the seconds to wait, or 0. */
  mint: { take(request: IncomingMessage): number };
  html: string;
  css: string;
  scripts: ReadonlyMap<string, string>;
}

/** `GET /` (a new identity's cookie set first, new identities counted per address), the page's scripts and CSS, no icon; else 404. */
export function examplePageResponse(request: IncomingMessage, path: string, response: ServerResponse, page: ExamplePage): Response {
  if (request.method === 'GET' && path === '/') {
    if (page.identities.principalOf(request) === null) {
      const wait = page.mint.take(request);
      if (wait > 0) throw new HttpError(429, `too many new identities from this address: retry in ${wait} s`, { retryAfterS: wait });
    }
    page.identities.ensureCookie(request, response);
    return new Response(page.html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  }
  const script = request.method === 'GET' ? page.scripts.get(path) : undefined;
  if (script !== undefined) return new Response(script, { headers: { 'content-type': 'text/javascript' } });
  if (request.method === 'GET' && path === '/app.css') return new Response(page.css, { headers: { 'content-type': 'text/css' } });
  // No icon: answered empty, so the browser logs no failed request on every page load.
  if (request.method === 'GET' && path === '/favicon.ico') return new Response(null, { status: 204 });
  throw new HttpError(404, 'not found');
}
