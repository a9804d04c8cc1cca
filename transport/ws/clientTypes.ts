/* The browser WebSocket client's options and the transport it answers (see client.ts). */
import type { SessionId, SessionSummary } from '../../protocol/index.js';
import type { HostTransport, TransportError } from '../types.js';
import type { ReconnectOptions } from './backoff.js';

/** The subset of the browser `WebSocket` the client uses (Node tests pass the `ws` package's class). */
/**
 * A handler slot typed as a method, whose parameter is checked both ways: the DOM's `WebSocket` and
 * the `ws` package's (its handlers take its own event classes) both fit without a cast.
 */
type EventHandler<E> = { handle(event: E): void }['handle'];

export interface WebSocketLike {
  readonly readyState: number;
  onopen: EventHandler<unknown> | null;
  onclose: EventHandler<unknown> | null;
  onerror: EventHandler<unknown> | null;
  onmessage: EventHandler<{ data: unknown }> | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface WebSocketTransportOptions {
  /** `ws:`/`wss:` URL of the host's endpoint, e.g. `ws://localhost:8787/ws`. */
  url: string | URL;
  /** Defaults to `globalThis.WebSocket`. */
  WebSocket?: WebSocketConstructor;
  reconnect?: ReconnectOptions;
  /** A call that gets no answer within this time (across reconnects) rejects as `unreachable`. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * The client pings this often and reconnects when nothing (no answer, no view) came from the
   * server for as long after a ping: a silent socket (a frozen server process, a dead network path)
   * is left within 2 × heartbeatMs. Default 5 s; 0 disables.
   */
  heartbeatMs?: number;
  /** Largest frame the client sends; a larger call rejects at once as `bad-request`. Default 256 KiB. */
  maxMessageBytes?: number;
  /**
   * How often a request (or a watch) the server answers `busy` is sent again before the client gives
   * up: a call then rejects with a `TransportError` of code `busy`, a watch is reported to
   * `onWatchFailed` (and tried again on the next reconnect). The waits grow from the server's
   * `retryAfterMs`, doubling up to `BUSY_MAX_DELAY_MS` (4 s), with jitter: by default 8 retries,
   * about 20 s when the server asks for 250 ms. Default 8.
   */
  busyRetries?: number;
}

/** Longest wait between two retries of a `busy` request. */
export const BUSY_MAX_DELAY_MS = 4_000;

/** `HostTransport` over WebSocket, plus the session list a chat frontend needs. */
export interface WebSocketTransport extends HostTransport {
  readonly status: ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /** The sessions this connection may see. */
  listSessions(): Promise<SessionSummary[]>;
  /** Opens a new session on the host. */
  openSession(options?: { title?: string; locale?: string }): Promise<SessionSummary>;
  /** A watch the server kept answering `busy` (past `busyRetries`): it gets no views until the next reconnect. */
  onWatchFailed(listener: (sessionId: SessionId, error: TransportError) => void): () => void;
}
