import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import { createMemoryStore } from '../host/store/memory.js';
import { SYSTEM_PRINCIPAL, type Principal } from '../protocol/index.js';
import { createRequestLimiter, identifyRequest, type Authenticate, type RequestLimiter } from '../transport/door.js';
import { addressKey } from '../transport/forwarded.js';
import { holdsAtMost, processCount, processShare } from '../transport/share.js';
import { MAX_FRAME_DEPTH, nestsDeeperThan } from '../transport/ws/frames.js';
import { createBodyBudget, readBody } from '../transport/body.js';
import { createPanelLedger } from './ledger.js';
import { ownedPanels, type PanelOwnerOptions } from './panelOwner.js';
import { createTaskSurfaceMcpServer, type TaskSurfaceMcpServerOptions } from './server.js';

/*
 * Streamable HTTP for a Node `http` server. A 2026-07-28 client is served per request (the SDK's
 * `createMcpHandler`); a 2025 client gets a session (`Mcp-Session-Id`), because that era states its
 * capabilities (MCP Apps, elicitation) once at initialize and sends server requests back on the
 * session. Every request is first identified (`authenticate`, as `/ws` does), then bounded: its
 * body's size, the time it may take to arrive, its nesting, the requests its principal has in
 * flight, the sessions its principal holds. Panels it shows are its own. Host and Origin are the
 * caller's to check first (`checkHost`, `originAllowed` from task-surface/transport/ws).
 */

export interface McpHttpOptions extends TaskSurfaceMcpServerOptions, PanelOwnerOptions {
  /**
   * Who sends the request (a cookie, an `Authorization` header…), as `createWebSocketServer`'s
   * hook: a principal, or null to refuse (HTTP 401). Every panel is shown and answered as it.
   */
  authenticate?: Authenticate;
  /**
   * Without `authenticate` the handler refuses to start unless this is true: then every request is
   * host code (one local user, no per-principal limits), as `createWebSocketServer`'s option.
   */
  allowAnonymous?: boolean;
  /** 2025-era sessions held at once; past it `initialize` gets 503. Default 1,024. */
  maxSessions?: number;
  /** 2025-era sessions one principal holds; its own least recently used one is closed to make room. Default 8. */
  maxSessionsPerPrincipal?: number;
  /**
   * A new 2025-era session's `Mcp-Session-Id` (visible ASCII). Default a random UUID; several
   * processes name themselves in it, so a request can be sent on to the one that holds the session.
   */
  mintSessionId?(): string;
  /**
   * 2025-era sessions opened from one address (whoever holds them); past it `initialize` gets 429, so
   * that one machine minting identities cannot fill `maxSessions`. Default 64. With `processes`, the
   * total of all of them: this one holds its share.
   */
  maxSessionsPerAddress?: number;
  /**
   * The number of processes that serve one client address between them (behind a balancer that
   * deals an address's connections over all of them). Each holds ceil(limit / processes) of each
   * per-address limit it counts in its own memory (`maxSessionsPerAddress`; `requestRates.perAddress`'s
   * rate and burst), and its refusals name the share: `… holds 22 MCP sessions on this process (at
   * most 22: its share of the 64 one address may hold across 3 processes)`. Default 1.
   */
  processes?: number;
  /** The address a request counts against. Default the socket's peer address; behind a balancer, the client's. */
  remoteAddress?(request: IncomingMessage): string | null;
  /** A 2025-era session unused this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Largest request body accepted. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Bytes of request bodies read at once, all requests together (a body counts its Content-Length,
   * or `maxBodyBytes` when none is given), a sixteenth of it for one principal's: past the
   * principal's share 429, past the whole 503 (bodies of 64 KiB or less are never refused for the
   * whole), with `Retry-After`, before a byte is read. Default 64 MiB (4 MiB a principal).
   */
  maxBodyBytesInFlight?: number;
  /** A body not received in full within this many milliseconds gets 408. Default 10,000. */
  bodyTimeoutMs?: number;
  /** Deepest nesting of arrays and objects in a body (the message itself is 1); deeper gets 400. Default 64. */
  maxDepth?: number;
  /**
   * Requests of one principal served at once (a tool call waiting for an elicitation's answer, a
   * session's event stream); past it 429. Default 32.
   */
  maxInFlightPerPrincipal?: number;
  /**
   * Requests a second, after a burst, of one address (counted before anything of the request is
   * read) and of one principal (once known; never the anonymous host code of `allowAnonymous`); past
   * either, 429 with `Retry-After`. `false`: no rates. Default {@link MCP_REQUEST_RATES}.
   * A hosted MCP client (a chat service calling from its own servers) brings many people from a few
   * addresses: give `remoteAddress: () => null` there, and each principal's own limits alone count.
   */
  requestRates?: { perAddress?: RequestRate; perPrincipal?: RequestRate } | false;
  /** Where failures of `authenticate` go. Default `console.error`. */
  onError?(error: unknown): void;
}

/** Requests a second, refilled evenly, after a burst of `burst`. */
export interface RequestRate {
  perSecond: number;
  burst: number;
}

/**
 * The default request rates of `/mcp`: a principal as one `/ws` connection's frames (100 a second,
 * bursts of 200: a panel's calls, a host's tool calls and reads are a few a second); an address two
 * principals' worth, so that identities minted on one machine do not multiply its share.
 */
export const MCP_REQUEST_RATES: Readonly<{ perAddress: RequestRate; perPrincipal: RequestRate }> = Object.freeze({
  perAddress: Object.freeze({ perSecond: 200, burst: 400 }),
  perPrincipal: Object.freeze({ perSecond: 100, burst: 200 }),
});

export interface McpHttpHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Closes every session and in-flight exchange (the ledger is the caller's). */
  close(): Promise<void>;
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: { close(): Promise<void> };
  principal: string;
  address: string | null;
  usedAt: number;
  /** Its responses still streaming (a tool call waiting for an elicitation, the event stream). */
  open: Set<ServerResponse>;
}

/** The JSON-RPC error codes of the refusals (the SDK's own where it has one). */
export const MCP_REFUSAL = { unauthorized: -32001, sessionNotFound: -32001, tooMany: -32000, invalid: -32600, parse: -32700 } as const;

const NOT_FOUND = 'Session not found: start a new one with initialize';

/** An HTTP handler serving the Task Surface MCP server (mount it at `/mcp`). */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  if (!options.authenticate && options.allowAnonymous !== true) {
    throw new Error(
      'createMcpHttpHandler: pass `authenticate` (who sends a request, from its headers) or, for a local single-user server on which every request is host code, `allowAnonymous: true`',
    );
  }
  const maxSessions = options.maxSessions ?? 1_024;
  const perPrincipal = options.maxSessionsPerPrincipal ?? 8;
  const perAddress = options.maxSessionsPerAddress ?? 64;
  const processes = processCount(options.processes);
  const addressOf = options.remoteAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? null);
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const bodyMs = options.bodyTimeoutMs ?? 10_000;
  const maxDepth = options.maxDepth ?? MAX_FRAME_DEPTH;
  const maxInFlight = options.maxInFlightPerPrincipal ?? 32;
  const bodies = createBodyBudget(options.maxBodyBytesInFlight ?? 64 * 1024 * 1024);
  const rates = options.requestRates === false ? null : { ...MCP_REQUEST_RATES, ...options.requestRates };
  // In flight is counted per principal below (`maxInFlightPerPrincipal`): these limiters count the rate alone.
  const rateOf = (rate: RequestRate | undefined, who: 'this address' | 'this principal', shared = 1) =>
    rate ? createRequestLimiter({ ...rate, inFlight: Infinity, processes: shared }, who) : null;
  const addressRate = rateOf(rates?.perAddress, 'this address', processes);
  const principalRate = rateOf(rates?.perPrincipal, 'this principal');
  const onError = options.onError ?? ((error: unknown) => console.error('[task-surface mcp]', error));
  const ledger =
    options.ledger ??
    createPanelLedger({ store: options.store ?? createMemoryStore(), ...(options.limits ? { limits: options.limits } : {}) });
  const panels = ownedPanels(ledger, options);
  const serverFor = (principal: Principal) => createTaskSurfaceMcpServer({ ...options, ledger: panels.as(principal) });
  const modern = createMcpHandler((ctx) => serverFor(principalOf(ctx.authInfo)), { legacy: 'reject' });
  const sessions = new Map<string, LegacySession>();
  const inFlight = new Map<string, number>();

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    if (!session) return;
    // The server's requests still waiting (an elicitation) are rejected, and every stream of the
    // session ends: nothing it started outlives it.
    void session.server.close().catch(() => undefined);
    void session.transport.close().catch(() => undefined);
    for (const response of session.open) response.destroy();
  };
  const sweep = setInterval(
    () => {
      for (const [id, s] of sessions) if (Date.now() - s.usedAt > idleMs) closeSession(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  /** Makes room for one more session of `principal` (its own oldest goes), or answers why not. */
  const room = (principal: string, address: string | null): Response | null => {
    const own = [...sessions].filter(([, s]) => s.principal === principal);
    // The map's order is least recently used first.
    for (let i = 0; i <= own.length - perPrincipal; i++) closeSession(own[i]![0]);
    const fromAddress = address === null ? 0 : [...sessions.values()].filter((s) => s.address === address).length;
    if (fromAddress >= processShare(perAddress, processes)) {
      return jsonError(
        429,
        MCP_REFUSAL.tooMany,
        `Too many sessions: this address already holds ${fromAddress} MCP sessions ${holdsAtMost(perAddress, processes)}; close one first`,
      );
    }
    if (sessions.size < maxSessions) return null;
    return jsonError(
      503,
      MCP_REFUSAL.tooMany,
      `Server busy: ${maxSessions} MCP sessions are open (at most ${maxSessions}); try again later`,
    );
  };

  const legacy = async (
    request: Request,
    body: unknown,
    principal: Principal,
    incoming: IncomingMessage,
    outgoing: ServerResponse,
  ): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = sessions.get(id);
      // Another principal's session is answered exactly as a missing one.
      if (!session || session.principal !== principal.id) return jsonError(404, MCP_REFUSAL.sessionNotFound, NOT_FOUND);
      session.usedAt = Date.now();
      sessions.delete(id);
      sessions.set(id, session);
      if (request.method !== 'DELETE') {
        session.open.add(outgoing);
        outgoing.once('close', () => session.open.delete(outgoing));
      }
      const response = await session.transport.handleRequest(request, { parsedBody: body });
      if (request.method === 'DELETE') closeSession(id);
      return response;
    }
    if (request.method !== 'POST') return jsonError(400, -32000, 'Bad request: a Mcp-Session-Id header is required');
    // An IPv6 client counts by its /64.
    const client = addressOf(incoming);
    const address = client === null ? null : addressKey(client);
    const full = room(principal.id, address);
    if (full) return full;
    const server = serverFor(principal);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: options.mintSessionId ?? (() => randomUUID()),
      onsessioninitialized: (sid) =>
        void sessions.set(sid, { transport, server, principal: principal.id, address, usedAt: Date.now(), open: new Set() }),
    });
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };

  /** Takes one of the principal's in-flight slots until the response is done, or answers 429. */
  const takeSlot = (principal: Principal, outgoing: ServerResponse): Response | null => {
    const held = inFlight.get(principal.id) ?? 0;
    if (held >= maxInFlight) {
      return jsonError(
        429,
        MCP_REFUSAL.tooMany,
        `Too many requests: this principal already has ${held} requests in flight (at most ${maxInFlight}); finish one first`,
      );
    }
    inFlight.set(principal.id, held + 1);
    outgoing.once('close', () => {
      const left = (inFlight.get(principal.id) ?? 1) - 1;
      if (left <= 0) inFlight.delete(principal.id);
      else inFlight.set(principal.id, left);
    });
    return null;
  };

  const serve = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<Response> => {
    const fast = addressRate && tooFast(addressRate, addressOf(incoming));
    if (fast) return fast;
    const principal = options.authenticate ? await identifyRequest(options.authenticate, incoming, onError) : SYSTEM_PRINCIPAL;
    if (principal === null) return jsonError(401, MCP_REFUSAL.unauthorized, 'Unauthorized: who is calling is not known; sign in first');
    const fastOne = principalRate && principal !== SYSTEM_PRINCIPAL && tooFast(principalRate, principal.id);
    if (fastOne) return fastOne;
    // Closing a session frees what it holds: never refused for being busy.
    // As the SDK answers it, but before a byte of the body is read.
    if (incoming.method === 'POST' && !String(incoming.headers['content-type'] ?? '').includes('application/json')) {
      return jsonError(415, MCP_REFUSAL.tooMany, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const busy = incoming.method === 'DELETE' ? null : takeSlot(principal, outgoing);
    if (busy) return busy;
    const room = bodies.reserve(incoming, maxBody, principal.id);
    if (typeof room === 'string') {
      const busy =
        room === 'key'
          ? jsonError(
              429,
              MCP_REFUSAL.tooMany,
              `Too many requests: this principal's request bodies being read would pass ${bodies.perKeyBytes} bytes; finish one first`,
            )
          : jsonError(
              503,
              MCP_REFUSAL.tooMany,
              `Server busy: request bodies being read take up to ${bodies.maxBytes} bytes at once; retry in 1 s`,
            );
      busy.headers.set('retry-after', '1');
      busy.headers.set('connection', 'close');
      return busy;
    }
    const body = await readBody(incoming, maxBody, bodyMs).finally(() => room.release());
    if (body === 'too-large') return jsonError(413, MCP_REFUSAL.tooMany, `Request body larger than ${maxBody} bytes`);
    if (body === 'too-slow') return jsonError(408, MCP_REFUSAL.tooMany, `Request body not received within ${bodyMs} ms`);
    if (body === 'aborted') return jsonError(400, MCP_REFUSAL.invalid, 'Invalid Request: the body was cut off');
    const request = toWebRequest(incoming, body);
    let parsed: unknown;
    if (body.length > 0) {
      const text = body.toString('utf8');
      // Before any parser: a deep body would overflow the stack of the recursive schemas after it.
      if (nestsDeeperThan(text, maxDepth)) {
        return jsonError(400, MCP_REFUSAL.invalid, `Invalid Request: the body nests arrays and objects deeper than ${maxDepth}`);
      }
      try {
        parsed = JSON.parse(text);
      } catch {
        return jsonError(400, MCP_REFUSAL.parse, 'Parse error: the body is not JSON');
      }
    }
    return (await isLegacyRequest(request, parsed))
      ? legacy(request, parsed, principal, incoming, outgoing)
      : modern.fetch(request, { authInfo: authInfoOf(principal) });
  };

  return {
    async handle(incoming, outgoing) {
      const response = await serve(incoming, outgoing);
      await write(outgoing, response);
    },
    async close() {
      clearInterval(sweep);
      for (const id of [...sessions.keys()]) closeSession(id);
      await modern.close();
      if (!options.ledger) await ledger.close();
    },
  };
}

/** The principal rides to the per-request server factory as the SDK's pass-through `authInfo`. */
function authInfoOf(principal: Principal): AuthInfo {
  return { token: '', clientId: principal.id, scopes: [], extra: { principal } };
}

/** One more request of `key` under `limiter`'s rate (null: not counted), or its refusal: 429 with `Retry-After`. */
function tooFast(limiter: RequestLimiter, key: string | null): Response | null {
  const taken = limiter.take(key);
  if (!('status' in taken)) {
    taken.release();
    return null;
  }
  const refusal = jsonError(429, MCP_REFUSAL.tooMany, taken.message.replace(/^t/, 'T'));
  refusal.headers.set('retry-after', String(taken.retryAfterS));
  return refusal;
}

function principalOf(authInfo: AuthInfo | undefined): Principal {
  return (authInfo?.extra?.['principal'] as Principal | undefined) ?? SYSTEM_PRINCIPAL;
}

function jsonError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...(status === 408 || status === 413 ? { connection: 'close' } : {}) },
  });
}

function toWebRequest(request: IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  const method = request.method ?? 'GET';
  return new Request(url, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: new Uint8Array(body) }) });
}

/** Writes a web Response, streaming its body (SSE) until it ends or the client goes away. */
async function write(outgoing: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  outgoing.writeHead(response.status, headers);
  if (!response.body) return void outgoing.end();
  const reader = response.body.getReader();
  outgoing.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      outgoing.write(value);
    }
  } catch {
    // The client went away mid-stream: nothing more to write.
  }
  outgoing.end();
}
