/*
 * What every door of a Node server asks of a request before it does anything for it (Node only):
 * who is asking, through the product's `authenticate` hook, checked the same way for `/ws`, `/mcp`
 * and an example's HTTP routes; how many connections one address holds on an HTTP server; and how
 * many requests one address or principal starts and has answered at once. Host and Origin are
 * checked by ws/origin.ts, a WebSocket's connections by ws/admission.ts.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { describeIssues, PrincipalSchema, type Principal } from '../protocol/index.js';
import { OWN_WORDS } from '../protocol/wire.js';
import { addressKey } from './forwarded.js';
import { processCount, processShare, sendsAtMost } from './share.js';

/** The product's hook: who sends this request (a cookie, an `Authorization` header…), or null. */
export type Authenticate = (request: IncomingMessage) => Principal | null | Promise<Principal | null>;

/**
 * The request's principal from `authenticate`, or null for a refusal: none, a hook that throws, or
 * an answer that is not a principal (reported to `onError`, with the principal's issues). Never rejects.
 */
export async function identifyRequest(
  authenticate: Authenticate,
  request: IncomingMessage,
  onError: (error: unknown) => void,
): Promise<Principal | null> {
  try {
    const principal = await authenticate(request);
    if (principal === null) return null;
    const parsed = PrincipalSchema.safeParse(principal, OWN_WORDS);
    if (parsed.success) return principal;
    onError(new TypeError(`authenticate answered something that is not a principal: ${describeIssues(parsed.error.issues)}`));
  } catch (error) {
    onError(error);
  }
  return null;
}

/** Connections an HTTP server or the balancer holds in all, whoever opened them (as `/ws` holds 10,000). */
export const MAX_CONNECTIONS = 10_000;

/** Answers `socket` with an HTTP refusal and closes it, before anything of it is read. */
function refuseConnection(socket: Socket, status: '429 Too Many Requests' | '503 Service Unavailable', text: string): void {
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
  socket.destroySoon?.();
}

/**
 * Counts open connections: each address's, and all of them. One past `max` for its address is
 * answered `HTTP/1.1 429` (`too-many-connections: …`), one past `total` in all `HTTP/1.1 503`
 * (`server-busy: …`), and closed before anything of it is read. `admit` answers whether the socket
 * may go on (null address: counted only in the total). For a TCP balancer that passes HTTP along, as
 * for an HTTP server (`capConnections`).
 */
export function connectionCap(max: number, total = MAX_CONNECTIONS): { admit(socket: Socket, address: string | null): boolean } {
  const open = new Map<string, number>();
  let inAll = 0;
  return {
    admit(socket, client) {
      if (inAll >= total) {
        refuseConnection(
          socket,
          '503 Service Unavailable',
          `server-busy: ${inAll} connections are open (at most ${total}); try again later`,
        );
        return false;
      }
      const address = client === null ? null : addressKey(client);
      const held = address === null ? 0 : (open.get(address) ?? 0);
      if (address !== null && held >= max) {
        refuseConnection(
          socket,
          '429 Too Many Requests',
          `too-many-connections: this address already holds ${held} connections (at most ${max})`,
        );
        return false;
      }
      inAll += 1;
      if (address !== null) open.set(address, held + 1);
      socket.once('close', () => {
        inAll -= 1;
        if (address === null) return;
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
      return true;
    },
  };
}

/**
 * Counts each address's open connections on `server`, and all of them (`connectionCap`). `addressOf`
 * null: counted only in the total (a trusted proxy's connection carries many people; its requests
 * are counted by address instead). An IPv6 client counts by its /64 (`addressKey`).
 */
export function capConnections(
  server: Server,
  max: number,
  addressOf: (socket: Socket) => string | null,
  total: number = MAX_CONNECTIONS,
): void {
  const cap = connectionCap(max, total);
  server.on('connection', (socket: Socket) => void cap.admit(socket, addressOf(socket)));
}

/** How many requests one key (an address, a principal) may start and have answered at once. */
export interface RequestLimits {
  /** Requests a second, refilled evenly, after a burst of `burst`. `Infinity`: no rate. */
  perSecond: number;
  burst: number;
  /** Requests being answered at once (a streamed answer counts until it ends). */
  inFlight: number;
  /**
   * Processes that count one key between them (behind a balancer dealing its connections over all
   * of them): this one takes ceil(perSecond / processes) and ceil(burst / processes), and its rate
   * refusal names the share (`transport/share.ts`). Default 1.
   */
  processes?: number;
}

/** A refused request: its status (429 for one key, 503 for the whole server), `Retry-After` in seconds, the sentence. */
export interface RequestRefusal {
  status: 429 | 503;
  retryAfterS: number;
  message: string;
}

export interface RequestLimiter {
  /**
   * Takes one request of `key` (null: not counted), or answers why not; nothing is taken then.
   * `release()` once its answer has ended (or its connection closed); a second call does nothing.
   */
  take(key: string | null): { release(): void } | RequestRefusal;
}

/** Keys remembered before idle ones (full bucket, nothing in flight) are swept. */
const SWEEP_AT = 10_000;

/**
 * Per-key request limits, asked before a request's body is read or anything is looked up for it:
 * `who` names the key in the refusal (`this address`, `this person`, `the server`). Addresses count
 * by `addressKey` (an IPv6 one by its /64). A rate refusal says when a request will be taken again;
 * an in-flight one asks for a second.
 */
export function createRequestLimiter(
  limits: RequestLimits,
  who: 'this address' | 'this person' | 'this principal' | 'the server',
  clock: () => number = Date.now,
): RequestLimiter {
  const keys = new Map<string, { tokens: number; at: number; inFlight: number }>();
  const status = who === 'the server' ? 503 : 429;
  const processes = processCount(limits.processes);
  const perSecond = processShare(limits.perSecond, processes);
  const burst = processShare(limits.burst, processes);
  const rate = sendsAtMost(limits, processes, who.replace(/^this /, 'one '));
  const fill = (entry: { tokens: number; at: number }, now: number) =>
    Math.min(burst, entry.tokens + ((now - entry.at) * perSecond) / 1000);
  return {
    take(client) {
      if (client === null) return { release() {} };
      const key = who === 'this address' ? addressKey(client) : client;
      const now = clock();
      let entry = keys.get(key);
      if (entry === undefined) {
        if (keys.size >= SWEEP_AT) {
          for (const [k, e] of keys) if (e.inFlight === 0 && fill(e, now) >= burst) keys.delete(k);
        }
        entry = { tokens: burst, at: now, inFlight: 0 };
        keys.set(key, entry);
      }
      if (entry.inFlight >= limits.inFlight) {
        return {
          status,
          retryAfterS: 1,
          message: `too many requests at once: ${who} already has ${entry.inFlight} being answered (at most ${limits.inFlight}); retry in 1 s`,
        };
      }
      if (perSecond !== Infinity) {
        entry.tokens = fill(entry, now);
        entry.at = now;
        if (entry.tokens < 1) {
          const retryAfterS = Math.max(1, Math.ceil((1 - entry.tokens) / perSecond));
          return {
            status,
            retryAfterS,
            message: `too many requests: ${who} may send ${rate}; retry in ${retryAfterS} s`,
          };
        }
        entry.tokens -= 1;
      }
      entry.inFlight += 1;
      const held = entry;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.inFlight -= 1;
        },
      };
    },
  };
}
