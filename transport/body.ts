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

/** The most of a refused body read and thrown away before its refusal is answered. */
export const DISCARD_BYTES = 8 * 1024 * 1024;
/** The longest a refused body is read and thrown away before its refusal is answered, in ms. */
export const DISCARD_MS = 2_000;

/**
 * The whole body, or why not. A body whose Content-Length is over `maxBytes` is refused before a
 * byte of it is kept; otherwise reading stops at the first byte past `maxBytes`. Either way the
 * rest of a refused body is read and thrown away before `'too-large'` is answered, up to
 * {@link DISCARD_BYTES}, {@link DISCARD_MS} and the deadline: a socket closed with bytes unread is
 * reset by the kernel, and a client still sending (most do: they send the whole body before reading)
 * would see that reset instead of its 413. Past either bound the refusal is answered at once and the
 * connection closed after it (the caller answers 413 with `Connection: close`). A body still
 * incomplete after `timeoutMs` from the call is abandoned and its socket destroyed once answered
 * (the caller answers 408, with `Connection: close`).
 */
export function readBody(request: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Buffer | BodyRefusal> {
  const deadline = Date.now() + timeoutMs;
  const announced = Number(request.headers['content-length'] ?? 0);
  if (announced > maxBytes) return discardRest(request, deadline).then(() => 'too-large' as const);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (answer: Buffer | BodyRefusal) => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('close', onClose);
      if (answer === 'too-large') return void discardRest(request, deadline).then(() => resolve(answer));
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

/**
 * Reads the rest of `request`'s body and keeps none of it: resolves once it has all arrived, or past
 * {@link DISCARD_BYTES}, {@link DISCARD_MS} or `deadline` (the request is paused then: what is unread stays unread).
 */
function discardRest(request: IncomingMessage, deadline: number): Promise<void> {
  if (request.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    let thrown = 0;
    const stop = () => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', stop);
      request.off('close', stop);
      request.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      thrown += chunk.length;
      if (thrown > DISCARD_BYTES) stop();
    };
    const timer = setTimeout(stop, Math.max(0, Math.min(DISCARD_MS, deadline - Date.now())));
    timer.unref();
    request.on('data', onData);
    request.once('end', stop);
    request.once('close', stop);
    request.resume();
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
