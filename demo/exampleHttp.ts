// What the examples' HTTP servers (the AI SDK's, the AG-UI one) share: the page bundled into
// memory, the headers every answer carries, a fetch Response written to Node's response, a request
// counted against a limiter until its answer ends, and an error as its JSON answer.
import type { ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { build } from 'esbuild';
import type { RequestLimiter } from '../transport/door.js';
import { HttpError } from './ai-sdk/guard.js';

/** Builds an example's page (`entry`, the package from source through `alias`) into memory: `app.js` and its chunks by name. */
export async function buildExamplePage(entry: string, alias: Record<string, string>, minify = true): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: { app: entry },
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
