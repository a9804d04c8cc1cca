// What the AI SDK example asks of a request before it does anything for it: the same doors as the
// main demo's `/ws` and `/mcp` (Host header, Origin, the signed identity cookie), a JSON body read
// within a size, a deadline and a nesting depth. Which parts a user message may carry is the
// library's check (`checkTaskSurfaceMessage`'s `parts`).
import type { IncomingMessage } from 'node:http';
import { readBody, type BodyBudget } from '../../transport/body.js';
import { addressKey, requestAddress } from '../../transport/forwarded.js';
import { checkHost, originAllowed, servedHosts } from '../../transport/ws/origin.js';
import { MAX_FRAME_DEPTH, nestsDeeperThan } from '../../transport/ws/frames.js';

/**
 * A refusal: its HTTP status and the sentence the `{ error }` answer carries; `retryAfterS` is sent
 * as `Retry-After`, and `close` ends the connection after the answer (a body left unread is not read).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly after: { retryAfterS?: number; close?: boolean } = {},
  ) {
    super(message);
  }
}

/** The longest request body the example reads (a message, or a dismissal). */
export const MAX_BODY_BYTES = 256 * 1024;
/** A body must arrive whole within this, by default (an example door's `bodyTimeoutMs`). */
export const BODY_TIMEOUT_MS = 10_000;

/** The request's checked Host, or a 400 refusal (a name the server does not serve: DNS rebinding). */
export function hostOf(
  request: IncomingMessage,
  address: ReturnType<IncomingMessage['socket']['address']> | string | null,
  allowed: readonly string[],
) {
  const host = checkHost(request, servedHosts(address as { address: string; port: number } | null), allowed);
  if (host === null) throw new HttpError(400, 'the Host header is malformed or not one this server serves');
  return host;
}

/**
 * A write (any method but GET and HEAD) must come from the page's own origin (or one listed) and
 * carry JSON: a cross-site form or a `text/plain` POST, which a browser sends without asking, is
 * refused before its body is read.
 */
export function checkWrite(request: IncomingMessage, host: string, allowedOrigins: readonly string[] | undefined): void {
  if (!originAllowed(request.headers.origin, host, allowedOrigins)) throw new HttpError(403, 'this Origin may not write here');
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'the request body must be application/json');
}

/**
 * The JSON object of the body, read within MAX_BODY_BYTES, `timeoutMs` (BODY_TIMEOUT_MS by default)
 * and a depth of 64; with a `budget`, only when its bytes fit in the address's share (else 429) and in
 * what all requests' bodies may take at once (else 503; a small body always fits).
 */
export async function readJson(
  request: IncomingMessage,
  budget?: BodyBudget,
  timeoutMs = BODY_TIMEOUT_MS,
): Promise<Record<string, unknown>> {
  const room = budget?.reserve(request, MAX_BODY_BYTES, addressKey(requestAddress(request) ?? 'unknown'));
  if (typeof room === 'string') {
    const words = (max: number) => (max < 1024 * 1024 ? `${max} bytes` : `${(max / (1024 * 1024)).toFixed(1)} MiB`);
    throw room === 'key'
      ? new HttpError(429, `this address's request bodies being read would pass ${words(budget!.perKeyBytes)}; retry in 1 s`, {
          retryAfterS: 1,
          close: true,
        })
      : new HttpError(503, `the server is reading as many request bodies as it may at once (${words(budget!.maxBytes)}); retry in 1 s`, {
          retryAfterS: 1,
          close: true,
        });
  }
  const body = await readBody(request, MAX_BODY_BYTES, timeoutMs).finally(() => room?.release());
  if (body === 'too-large') throw new HttpError(413, `the request body is over ${MAX_BODY_BYTES} bytes`);
  if (body === 'too-slow') throw new HttpError(408, `the request body did not arrive within ${timeoutMs} ms`);
  if (body === 'aborted') throw new HttpError(400, 'the request body was cut off');
  const text = body.toString('utf8');
  if (nestsDeeperThan(text, MAX_FRAME_DEPTH)) throw new HttpError(400, `the request body nests deeper than ${MAX_FRAME_DEPTH}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new HttpError(400, 'the request body must be a JSON object');
  return parsed as Record<string, unknown>;
}
