import type { RawData, WebSocket } from 'ws';
import {
  HostInputError,
  LimitExceededError,
  type Principal,
  type ScopedHostApi,
  type SessionId,
  type SessionView,
} from '../../protocol/index.js';
import { parseClientRequest, wireError, type ServerMessage } from '../../protocol/wire.js';
import { nestsDeeperThan, peekRequestId, ID_PEEK_CHARS } from './frames.js';
import type { RequestHandler } from './handler.js';
import { decodePrincipal, splitPeerFrame } from './peerWire.js';
import type { ConnectionContext, WebSocketConnection } from './router.js';

/** The per-connection bounds, resolved from `WebSocketServerOptions`. */
export interface ConnectionLimits {
  maxMessageBytes: number;
  maxDepth: number;
  maxInFlight: number;
  maxBufferedBytes: number;
  rateLimit: { perSecond: number; burst: number; openCost: number } | null;
}

/** Close code for a connection whose unsent data passed `maxBufferedBytes` (the client does not read). */
export const CLOSE_NOT_READING = 4008;
/** After closing a connection that does not read, how long its close handshake may take before the socket is cut. */
const CUT_OFF_MS = 1_000;
/** What `busy` asks a client to wait before sending a request again. */
const BUSY_RETRY_MS = 50;

/** Serialised view frames, shared by every connection that watches the same session. */
const viewFrames = new WeakMap<SessionView, string>();
function viewFrame(sessionId: SessionId, view: SessionView): string {
  let frame = viewFrames.get(view);
  if (frame === undefined) viewFrames.set(view, (frame = JSON.stringify({ type: 'session.view', sessionId, view })));
  return frame;
}

/** A token bucket: `burst` frames at once, refilled at `perSecond`. */
class TokenBucket {
  #tokens: number;
  #at = performance.now();
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.#tokens = burst;
  }

  /** Takes `cost` tokens: 0 when granted, else the milliseconds until they are available. */
  take(cost = 1): number {
    const now = performance.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#at) * this.perSecond) / 1000);
    this.#at = now;
    if (this.#tokens >= cost) {
      this.#tokens -= cost;
      return 0;
    }
    return Math.ceil(((cost - this.#tokens) * 1000) / this.perSecond);
  }
}

/** One principal's side of a connection: a client's connection has one; a peer's one per principal it carries. */
interface Channel {
  ctx: ConnectionContext;
  /** What precedes each frame sent on it: '' for a client, the principal's prefix and a space on a peer's. */
  prefix: string;
  inFlight: number;
}

/**
 * Serves one socket: every frame is rate-limited, size- and depth-checked, parsed and handled; no
 * exception escapes the `message` listener (it is answered `server-error` and reported). Views
 * coalesce per session, and a session never has more than one view frame waiting in the socket, so
 * a watcher that stalls holds at most one frame per watched session plus the newest view.
 *
 * A peer's connection (`peer`) carries many principals: each frame names its own (peerWire.ts) and
 * is served on that principal's channel (its own Host scope, watches and requests in flight), exactly
 * as a connection of that principal would be; its answers and views carry the same prefix.
 */
export function serveConnection(
  socket: WebSocket,
  connection: WebSocketConnection,
  deps: {
    handle: RequestHandler;
    /** The Host as one principal sees it. */
    scope(principal: Principal): ScopedHostApi;
    peer: boolean;
    limits: ConnectionLimits;
    /** Write the frames of one event-loop turn in one TCP write (`WebSocketServerOptions.coalesceWrites`). */
    coalesceWrites: boolean;
    onError(error: unknown): void;
    onPong(): void;
  },
): void {
  const { limits, onError } = deps;
  const bucket = limits.rateLimit ? new TokenBucket(limits.rateLimit.perSecond, limits.rateLimit.burst) : null;
  let closed = false;

  const cutOff = () => {
    if (closed) return;
    closed = true;
    socket.close(CLOSE_NOT_READING, `not reading: over ${limits.maxBufferedBytes} bytes unsent`);
    setTimeout(() => socket.terminate(), CUT_OFF_MS).unref?.();
  };
  // Frames of one event-loop turn (an answer, then the view it caused) leave in one TCP write: the
  // socket `ws` writes to is corked at the turn's first frame and uncorked once its views are out.
  // Each frame stays a WebSocket frame of its own, in order; corked bytes count in `bufferedAmount`.
  const tcp = deps.coalesceWrites ? connection.request.socket : null;
  let corked = false;
  const sendFrame = (frame: string, written?: (error?: Error) => void) => {
    if (closed || socket.readyState !== socket.OPEN) return written?.();
    if (tcp && !corked) {
      corked = true;
      tcp.cork();
      scheduleFlush();
    }
    socket.send(frame, written);
    if (socket.bufferedAmount > limits.maxBufferedBytes) cutOff();
  };

  // A turn appends several events in one go: the client needs only each session's newest view, and
  // no second view of a session is written while the previous one still waits in the socket.
  // Keyed by channel prefix and session.
  const pendingViews = new Map<string, { channel: Channel; sessionId: SessionId; view: SessionView }>();
  const viewsInSocket = new Set<string>();
  let flushScheduled = false;
  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  };
  const flush = () => {
    flushScheduled = false;
    flushViews();
    if (corked) {
      corked = false;
      tcp!.uncork();
    }
  };
  const flushViews = () => {
    for (const [key, { channel, sessionId, view }] of pendingViews) {
      if (viewsInSocket.has(key)) continue;
      pendingViews.delete(key);
      if (!channel.ctx.watches.has(sessionId)) continue;
      viewsInSocket.add(key);
      sendFrame(channel.prefix + viewFrame(sessionId, view), () => {
        viewsInSocket.delete(key);
        if (pendingViews.has(key)) scheduleFlush();
      });
    }
  };

  const channels = new Map<string, Channel>();
  const openChannel = (prefix: string, conn: WebSocketConnection): Channel => {
    const channel: Channel = { prefix, inFlight: 0, ctx: undefined as unknown as ConnectionContext };
    channel.ctx = {
      connection: conn,
      host: deps.scope(conn.principal),
      watches: new Map(),
      send: (message) => sendFrame(prefix + JSON.stringify(message)),
      sendView(sessionId, view) {
        pendingViews.set(prefix + sessionId, { channel, sessionId, view });
        scheduleFlush();
      },
      closed: () => closed,
    };
    channels.set(prefix, channel);
    return channel;
  };
  const client = deps.peer ? undefined : openChannel('', connection);
  /** A peer's channel for a principal's prefix; undefined when the prefix names no principal. */
  const channelOf = (token: string): Channel | undefined => {
    const known = channels.get(`${token} `);
    if (known) return known;
    const principal = decodePrincipal(token);
    if (principal === null) return undefined;
    return openChannel(`${token} `, { ...connection, id: `${connection.id}:${channels.size + 1}`, principal, data: {} });
  };
  /** A peer's channel with nothing running and nothing watched is dropped (the next frame opens it again). */
  const settle = (channel: Channel) => {
    if (deps.peer && channel.inFlight === 0 && channel.ctx.watches.size === 0) channels.delete(channel.prefix);
  };

  socket.on('pong', deps.onPong);
  // A frame `ws` refuses (over maxFrameBytes, not UTF-8, a bad opcode…) is the client's fault: ws
  // closes the connection (1009, 1007, 1002) and nothing is reported. Anything else is.
  socket.on('error', (error: Error & { code?: string }) => {
    if (!error.code?.startsWith('WS_ERR_')) onError(error);
  });
  socket.on('close', () => {
    closed = true;
    for (const { ctx } of channels.values()) {
      for (const release of ctx.watches.values()) release();
      ctx.watches.clear();
    }
    channels.clear();
    pendingViews.clear();
  });
  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (closed) return; // cut off: what it still sent is not read
    deps.onPong();
    try {
      receive(data, isBinary);
    } catch (error) {
      onError(error);
      sendFrame(JSON.stringify(wireError(null, 'server-error', 'the server failed to read this message')));
    }
  });

  function receive(data: RawData, isBinary: boolean) {
    const size = byteLength(data);
    const tooLarge = size > limits.maxMessageBytes;
    // Only a prefix of an oversized frame is ever decoded (enough to find its id).
    let text = isBinary ? '' : rawToString(data, tooLarge ? ID_PEEK_CHARS : Infinity);
    let channel = client;
    if (!channel) {
      const split = splitPeerFrame(text);
      channel = split ? channelOf(split.token) : undefined;
      if (!split || !channel) {
        return sendFrame(JSON.stringify(wireError(null, 'bad-request', 'a peer frame must start with its principal')));
      }
      text = split.body;
    }
    const send = channel.ctx.send;
    const wait = bucket?.take() ?? 0;
    if (wait > 0) return send(rateLimited(peekRequestId(text), wait));
    if (isBinary) return send(wireError(null, 'bad-request', 'binary frames are not supported; send JSON text'));
    if (tooLarge) {
      return send(
        wireError(peekRequestId(text), 'too-large', `message of ${size} bytes is over the limit of ${limits.maxMessageBytes} bytes`),
      );
    }
    if (nestsDeeperThan(text, limits.maxDepth)) {
      return send(wireError(peekRequestId(text), 'bad-request', `message nests arrays and objects deeper than ${limits.maxDepth} levels`));
    }
    const parsed = parseClientRequest(text);
    if (!parsed.ok) return send(parsed.error);
    const { request } = parsed;
    // Opening a session writes a durable record: it costs `openCost` frames (one already taken).
    const openWait = request.type === 'session.open' && bucket ? bucket.take(limits.rateLimit!.openCost - 1) : 0;
    if (openWait > 0) return send(rateLimited(request.id, openWait, ` (a session.open counts as ${limits.rateLimit!.openCost})`));
    if (channel.inFlight >= limits.maxInFlight) {
      const whose = deps.peer ? 'of this principal on this peer connection' : 'of this connection';
      return send(
        wireError(
          request.id,
          'busy',
          `${channel.inFlight} requests ${whose} are still running (at most ${limits.maxInFlight}); retry in ${BUSY_RETRY_MS} ms`,
          BUSY_RETRY_MS,
        ),
      );
    }
    const served = channel;
    served.inFlight++;
    void deps
      .handle(request, served.ctx)
      .catch((error: unknown) => failure(request.id, error))
      .then((message) => {
        try {
          send(message);
        } catch (error) {
          send(failure(request.id, error));
        }
      })
      .finally(() => {
        served.inFlight--;
        settle(served);
      });
  }

  function rateLimited(id: string | null, wait: number, note = ''): ServerMessage {
    const { perSecond, burst } = limits.rateLimit!;
    return wireError(
      id,
      'rate-limited',
      `too many messages: at most ${perSecond} per second (bursts of ${burst})${note}; retry in ${wait} ms`,
      wait,
    );
  }

  /** The answer to a request whose handling threw: host-code input errors name the problem. */
  function failure(id: string, error: unknown): ServerMessage {
    if (error instanceof HostInputError) return wireError(id, 'bad-request', error.message);
    // A principal's limit: the client tells the person (docs/security.md); nothing was changed.
    if (error instanceof LimitExceededError) return wireError(id, error.code, error.message, error.retryAfterMs);
    onError(error);
    // The Host's HostStoreError (by name: the transport does not import the host).
    if ((error as Error | undefined)?.name === 'HostStoreError') {
      return wireError(id, 'server-error', 'the store could not make this change durable, so it was not accepted: send it again');
    }
    return wireError(id, 'server-error', 'the host failed to handle this request');
  }
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function rawToString(data: RawData, maxBytes: number): string {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data;
  return buffer.toString('utf8', 0, Math.min(buffer.length, maxBytes));
}
