import type { SessionId, SessionView } from '../../protocol/index.js';
import { mintUuid } from '../../protocol/mint.js';
import type { ClientRequestParams, ClientRequestType, WireErrorCode } from '../../protocol/wire.js';
import { WIRE_MAX_MESSAGE_BYTES } from '../../protocol/wireConstants.js';
import { TransportError, type SessionListener } from '../types.js';
import { backoffDelay } from './backoff.js';
import { readServerFrame } from './serverFrames.js';

/** The schema checks (zod): a chunk of the drop-in bundle, fetched with the first frame. */
type Checks = typeof import('./clientChecks.js');
let checks: Checks | undefined;
let loadingChecks: Promise<Checks> | undefined;
/** The checks, loaded once; after a failed fetch the next call tries again. */
function loadChecks(): Promise<Checks> {
  if (checks) return Promise.resolve(checks);
  loadingChecks ??= import('./clientChecks.js').then(
    (module) => (checks = module),
    (error: unknown) => {
      loadingChecks = undefined;
      throw error;
    },
  );
  return loadingChecks;
}

export * from './clientTypes.js';
import {
  BUSY_MAX_DELAY_MS,
  type ConnectionStatus,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from './clientTypes.js';

interface Pending {
  frame: string;
  type: ClientRequestType;
  resolve(value: unknown): void;
  reject(error: TransportError): void;
  timer: ReturnType<typeof setTimeout>;
  /** `busy` answers so far. */
  busy: number;
}

// `rate-limited` is retried after its `retryAfterMs` (until `requestTimeoutMs`); `busy` up to `busyRetries` times.
const ERROR_CODES: Record<WireErrorCode, TransportError['code']> = {
  'bad-request': 'bad-request',
  'too-large': 'bad-request',
  'unknown-session': 'unknown-session',
  'server-error': 'server-error',
  'rate-limited': 'unreachable',
  busy: 'busy',
  // A limit is the person's to see (the elements word it): never retried by the client.
  'quota-exceeded': 'quota-exceeded',
  'too-busy': 'too-busy',
  'too-many-connections': 'too-many-connections',
};
/** Frames kept while the client's checks are fetched (a page's first frames); later ones are dropped. */
const MAX_EARLY_FRAMES = 1000;
/** Shortest wait before re-sending a request the server asked to retry. */
const MIN_RETRY_MS = 10;
const encoder = new TextEncoder();

/**
 * A browser-safe `HostTransport` speaking the wire protocol. It reconnects with jittered
 * exponential back-off, re-subscribes every watched session, and re-sends every unanswered request
 * with its original request id, so the host answers a retry with the first result.
 */
export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  const url = String(options.url);
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const maxMessageBytes = options.maxMessageBytes ?? WIRE_MAX_MESSAGE_BYTES;
  const busyRetries = options.busyRetries ?? 8;
  /** `busy` answers to each watched session's watch since it last succeeded. */
  const watchBusy = new Map<SessionId, number>();
  const watchFailedListeners = new Set<(sessionId: SessionId, error: TransportError) => void>();
  const pending = new Map<string, Pending>();
  const watchers = new Map<SessionId, Set<SessionListener>>();
  const views = new Map<SessionId, SessionView>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let socket: WebSocketLike | null = null;
  let status: ConnectionStatus = 'closed';
  let attempt = 0;
  let disposed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  let awaitingPong = false;

  const setStatus = (next: ConnectionStatus) => {
    if (status === next) return;
    status = next;
    for (const listener of statusListeners) listener(next);
  };
  const sendRaw = (frame: string) => {
    if (socket && status === 'open') socket.send(frame);
  };
  const frameOf = (id: string, type: ClientRequestType, params: unknown) => JSON.stringify({ id, type, params });
  /** Outstanding watch requests by id: a refusal is reported (the listener would otherwise wait forever). */
  const watchRequests = new Map<string, SessionId>();
  const sendWatch = (sessionId: SessionId) => {
    const id = mintRequestId();
    watchRequests.set(id, sessionId);
    sendRaw(frameOf(id, 'session.watch', { sessionId }));
  };

  function connect() {
    if (disposed) return;
    setStatus('connecting');
    let ws: WebSocketLike;
    try {
      ws = new Socket(url);
    } catch {
      return scheduleReconnect();
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      attempt = 0;
      setStatus('open');
      watchRequests.clear();
      watchBusy.clear();
      for (const sessionId of watchers.keys()) sendWatch(sessionId);
      for (const request of pending.values()) sendRaw(request.frame);
      startHeartbeat();
    };
    ws.onmessage = (event) => {
      if (socket === ws) receive(event.data);
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (socket === ws) lost();
    };
  }

  /** The socket is gone (closed, or silent past the heartbeat): forget it and reconnect. */
  function lost() {
    const ws = socket;
    socket = null;
    stopHeartbeat();
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
    if (!disposed) scheduleReconnect();
  }

  function scheduleReconnect() {
    setStatus('closed');
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, backoffDelay(attempt++, options.reconnect));
  }

  function startHeartbeat() {
    if (heartbeatMs <= 0) return;
    awaitingPong = false;
    heartbeatTimer = setInterval(() => {
      if (awaitingPong) return lost();
      awaitingPong = true;
      const id = mintRequestId();
      sendRaw(frameOf(id, 'ping', {}));
      pongIds.add(id);
    }, heartbeatMs);
  }
  const pongIds = new Set<string>();
  function stopHeartbeat() {
    clearInterval(heartbeatTimer);
    pongIds.clear();
  }

  /** Frames that arrived before the checks did (at most `MAX_EARLY_FRAMES`), handled in order once they are here. */
  const early: unknown[] = [];
  let fetchingChecks = false;
  function receive(data: unknown) {
    awaitingPong = false;
    let json: unknown;
    try {
      json = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return console.warn('[task-surface] ignored a frame that is not JSON');
    }
    if (checks && early.length === 0) return handle(json, checks);
    if (early.length >= MAX_EARLY_FRAMES) return console.warn('[task-surface] ignored a frame: too many wait for the client to load');
    early.push(json);
    if (fetchingChecks) return;
    fetchingChecks = true;
    loadChecks().then(
      (loaded) => {
        fetchingChecks = false;
        drainEarly(loaded);
      },
      () => {
        // Without its checks the client cannot trust a frame: they wait for the next frame or call to fetch them.
        fetchingChecks = false;
        console.warn(`[task-surface] could not load the WebSocket client's checks; ${early.length} frame(s) wait`);
      },
    );
  }

  /** Handles the frames that waited for the checks, in order. */
  function drainEarly(loaded: Checks) {
    for (let frame = early.shift(); frame !== undefined && !disposed; frame = early.shift()) {
      try {
        handle(frame, loaded);
      } catch (error) {
        queueMicrotask(() => {
          throw error; // a listener's own error: reported, and the frames after it still delivered
        });
      }
    }
    early.length = 0;
  }

  function handle(json: unknown, { checkResult, checkView }: Checks) {
    const read = readServerFrame(json);
    if (!read.ok) return console.warn(`[task-surface] ignored an invalid frame: ${read.problem}`);
    const message = read.frame;
    if (message.type === 'session.view') {
      if (!watchers.has(message.sessionId)) return;
      const checked = checkView(message);
      if (!checked.ok) return console.warn(`[task-surface] ignored an invalid frame: ${checked.problem}`);
      const view = checked.view;
      views.set(message.sessionId, view);
      for (const listener of [...(watchers.get(message.sessionId) ?? [])]) listener(view);
      return;
    }
    if (message.id === null) return console.warn(`[task-surface] host error: ${message.type === 'error' ? message.message : ''}`);
    if (pongIds.delete(message.id)) return;
    const watched = watchRequests.get(message.id);
    if (message.type === 'error' && message.code === 'rate-limited') {
      return retryLater(message.id, watched, Math.max(MIN_RETRY_MS, message.retryAfterMs ?? 100));
    }
    if (message.type === 'error' && message.code === 'busy') return busyAgain(message.id, watched, message.message, message.retryAfterMs);
    if (watched !== undefined) {
      watchRequests.delete(message.id);
      watchBusy.delete(watched);
      if (message.type === 'error') console.warn(`[task-surface] cannot watch session "${watched}": ${message.message}`);
      return;
    }
    const request = pending.get(message.id);
    if (!request) return;
    pending.delete(message.id);
    clearTimeout(request.timer);
    if (message.type === 'error')
      return request.reject(new TransportError(ERROR_CODES[message.code], message.message, message.retryAfterMs));
    const result = checkResult(request.type, message.result);
    if (!result.ok) return request.reject(new TransportError('server-error', result.problem));
    request.resolve(result.value);
  }

  /** The server asked to send this request again later: the same frame (same id), once the wait is over. */
  function retryLater(id: string, watched: SessionId | undefined, delayMs: number) {
    const request = pending.get(id);
    if (watched !== undefined) watchRequests.delete(id);
    setTimeout(() => {
      if (watched !== undefined && watchers.has(watched) && status === 'open') sendWatch(watched);
      if (request && pending.get(id) === request) sendRaw(request.frame);
    }, delayMs);
  }

  /**
   * `busy` again: retried after a growing wait, until `busyRetries` retries were answered `busy`
   * too; then the call rejects (`busy`) and a watch is reported, so a page never waits forever.
   */
  function busyAgain(id: string, watched: SessionId | undefined, reason: string, retryAfterMs = 100) {
    const request = pending.get(id);
    const count = watched !== undefined ? (watchBusy.get(watched) ?? 0) : (request?.busy ?? 0);
    if (count >= busyRetries) {
      const error = new TransportError('busy', `the server stayed busy after ${busyRetries} retries: ${reason}`, retryAfterMs);
      if (watched !== undefined) {
        watchRequests.delete(id);
        watchBusy.delete(watched);
        for (const listener of [...watchFailedListeners]) listener(watched, error);
      } else if (request) {
        pending.delete(id);
        clearTimeout(request.timer);
        request.reject(error);
      }
      return;
    }
    if (watched !== undefined) watchBusy.set(watched, count + 1);
    else if (request) request.busy = count + 1;
    const ceiling = Math.min(BUSY_MAX_DELAY_MS, Math.max(MIN_RETRY_MS, retryAfterMs) * 2 ** count);
    retryLater(id, watched, Math.max(MIN_RETRY_MS, retryAfterMs, ceiling / 2 + Math.random() * (ceiling / 2)));
  }

  function call<T extends ClientRequestType, R>(type: T, params: ClientRequestParams<T>): Promise<R> {
    if (disposed) return Promise.reject(new TransportError('disposed', 'the transport was disposed'));
    const id = mintRequestId();
    const send = ({ requestProblem }: Checks): Promise<R> => {
      if (disposed) return Promise.reject(new TransportError('disposed', 'the transport was disposed'));
      const problem = requestProblem(type, { id, type, params });
      if (problem !== null) return Promise.reject(new TransportError('bad-request', problem));
      const frame = frameOf(id, type, params);
      const size = encoder.encode(frame).length;
      if (size > maxMessageBytes) {
        return Promise.reject(
          new TransportError('bad-request', `${type} request of ${size} bytes is over the limit of ${maxMessageBytes} bytes`),
        );
      }
      return new Promise<R>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new TransportError('unreachable', `no answer to ${type} from ${url} within ${requestTimeoutMs} ms`));
        }, requestTimeoutMs);
        pending.set(id, { frame, type, resolve: resolve as (value: unknown) => void, reject, timer, busy: 0 });
        sendRaw(frame);
      });
    };
    if (checks) return send(checks);
    return loadChecks().then(
      (loaded) => {
        drainEarly(loaded); // frames that waited for a fetch that failed: their checks are here now
        return send(loaded);
      },
      (error: unknown) => {
        throw new TransportError('unreachable', `could not load the WebSocket client's checks: ${String(error)}`);
      },
    );
  }

  connect();

  return {
    get status() {
      return status;
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    onWatchFailed(listener) {
      watchFailedListeners.add(listener);
      return () => watchFailedListeners.delete(listener);
    },
    watchSession(sessionId, listener) {
      if (disposed) return () => {};
      let listeners = watchers.get(sessionId);
      if (!listeners) {
        watchers.set(sessionId, (listeners = new Set()));
        if (status === 'open') sendWatch(sessionId);
      }
      listeners.add(listener);
      const known = views.get(sessionId);
      if (known)
        queueMicrotask(() => {
          if (listeners.has(listener) && views.get(sessionId) === known) listener(known);
        });
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0 || watchers.get(sessionId) !== listeners) return;
        watchers.delete(sessionId);
        views.delete(sessionId);
        sendRaw(frameOf(mintRequestId(), 'session.unwatch', { sessionId }));
      };
    },
    readLog: (sessionId, { before, limit }) => call('log.read', before === undefined ? { sessionId, limit } : { sessionId, before, limit }),
    taskSurface: {
      getActive: (input) => call('taskSurface.getActive', input),
      getOutcome: (input) => call('taskSurface.getOutcome', input),
      submit: (input) => call('taskSurface.submit', input),
      dismiss: (input) => call('taskSurface.dismiss', input),
    },
    session: {
      send: (input) => call('session.send', input),
      updateQueue: (input) => call('session.updateQueue', input),
    },
    actionCards: { act: (input) => call('actionCards.act', input) },
    listSessions: () => call('session.list', {}),
    openSession: (input = {}) => call('session.open', input),
    dispose() {
      if (disposed) return;
      disposed = true;
      clearTimeout(reconnectTimer);
      lost();
      setStatus('closed');
      for (const request of pending.values()) {
        clearTimeout(request.timer);
        request.reject(new TransportError('disposed', 'the transport was disposed'));
      }
      pending.clear();
      watchers.clear();
      views.clear();
      statusListeners.clear();
      watchFailedListeners.clear();
    },
  };
}

/** Request ids are UUIDs, minted without `crypto.randomUUID` outside secure contexts (plain http on a LAN). */
function mintRequestId(): string {
  return mintUuid();
}
