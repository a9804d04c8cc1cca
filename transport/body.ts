/*
 * A request body read whole, within a size and a deadline (Node only): what every door that reads a
 * body (`/mcp`, an example's JSON routes) does, so that no client holds the server's memory with a
 * body that never ends, or arrives a byte a second.
 */
import type { IncomingMessage } from 'node:http';

/**
 * Why a body was not read: over `maxBytes`, not complete within `timeoutMs` (the request is then
 * stopped), or cut off by the client (never parsed: a part of a body is not the body).
 */
export type BodyRefusal = 'too-large' | 'too-slow' | 'aborted';

/**
 * The whole body, or why not. A body whose Content-Length is over `maxBytes` is refused before a
 * byte of it is read (a refusal costs one short answer, not `maxBytes` read and thrown away);
 * otherwise reading stops at the first byte past `maxBytes`. A body still
 * incomplete after `timeoutMs` from the call is abandoned and its socket destroyed once answered
 * (the caller answers 408, with `Connection: close`).
 */
export function readBody(request: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Buffer | BodyRefusal> {
  const announced = Number(request.headers['content-length'] ?? 0);
  if (announced > maxBytes) {
    request.pause();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (answer: Buffer | BodyRefusal) => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('close', onClose);
      if (!Buffer.isBuffer(answer)) request.pause();
      resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish('too-large');
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onAbort = () => finish('aborted');
    const onClose = () => (request.readableEnded ? undefined : finish('aborted'));
    const timer = setTimeout(() => {
      finish('too-slow');
      // Answered by the caller first (its Connection: close ends the socket); a client that never
      // reads its answer is cut off a second later.
      setTimeout(() => request.socket.destroy(), 1_000).unref();
    }, timeoutMs);
    timer.unref();
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onAbort);
    request.once('close', onClose);
    if (request.readableEnded) onEnd();
  });
}

/** Bytes of request bodies a server reads at once: all requests together, and one key's (a principal, an address). */
export interface BodyBudget {
  readonly maxBytes: number;
  readonly perKeyBytes: number;
  /**
   * Reserves room for `request`'s body (its Content-Length, capped at `maxBodyBytes`; all of
   * `maxBodyBytes` for a chunked one; none without either) as `key`'s until `release()`; or answers why not:
   * `'key'` past the key's share (its own bodies), `'all'` past the whole budget (a body of 64 KiB or
   * less is never refused for the whole, so one key's large bodies never shut out others' small ones).
   */
  reserve(request: IncomingMessage, maxBodyBytes: number, key: string): { release(): void } | 'key' | 'all';
}

/** Bodies this small are read whatever the whole budget holds (each key's share still applies). */
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * A budget of `maxBytes` for the bodies being read at once, `perKeyBytes` of it for one key: with
 * many clients each sending bodies at the per-request limit, the server's memory stays bounded, and
 * no one takes the whole. A body refused is refused before a byte of it is read (the caller answers
 * 429 for the key's share, 503 for the whole, with `Retry-After`).
 */
export function createBodyBudget(maxBytes: number, perKeyBytes = Math.max(1, Math.floor(maxBytes / 16))): BodyBudget {
  let held = 0;
  const byKey = new Map<string, number>();
  return {
    maxBytes,
    perKeyBytes,
    reserve(request, maxBodyBytes, key) {
      // No Content-Length: a chunked body may be anything up to the limit; without Transfer-Encoding there is none.
      const announced = request.headers['content-length'];
      const length = announced === undefined ? (request.headers['transfer-encoding'] ? maxBodyBytes : 0) : Number(announced);
      const need = Number.isFinite(length) && length >= 0 ? Math.min(length, maxBodyBytes) : maxBodyBytes;
      if (need === 0) return { release() {} };
      const own = byKey.get(key) ?? 0;
      if (own + need > perKeyBytes) return 'key';
      if (need > SMALL_BODY_BYTES && held + need > maxBytes) return 'all';
      held += need;
      byKey.set(key, own + need);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held -= need;
          const left = (byKey.get(key) ?? need) - need;
          if (left <= 0) byKey.delete(key);
          else byKey.set(key, left);
        },
      };
    },
  };
}
