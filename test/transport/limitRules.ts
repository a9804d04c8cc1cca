// Shared by the ws*Rules tests of the server's limits: servers and sockets closed whatever happens,
// a clock the rate limiter reads frozen, and the server's unsent bytes set by the test.
import { connect } from 'node:net';
import type { TestContext } from 'node:test';
import { WebSocket } from 'ws';
import type { SessionEvent } from '../../protocol/index.js';
import { eventJsonBytes } from '../../protocol/logPage.js';
import { createWebSocketServer, PEER_HEADER, type WebSocketCluster, type WebSocketServerOptions } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';
import { inTime, rawSocket } from './helpers.js';

/** A server (a fake Host, anonymous, no heartbeat unless given), closed when the test ends. */
export async function serverFor(t: TestContext, options: Partial<WebSocketServerOptions> = {}) {
  const server = await createWebSocketServer({ host: createFakeHost(), allowAnonymous: true, heartbeatMs: 0, ...options });
  closeWhenDone(t, server);
  return server;
}

/**
 * A raw socket terminated when the test ends; `next()` is its next answer, `ask` sends a frame and
 * waits for it, `closed` is how the server closed it. Each wait fails by name after `WAIT_MS` of
 * real time (mocked timers and a frozen clock do not stretch it).
 */
export async function socketFor(t: TestContext, port: number, options: { autoPong?: boolean; headers?: Record<string, string> } = {}) {
  const raw = await rawSocket(port, options);
  t.after(() => raw.socket.terminate());
  /** The next answer; views pushed to a watched session in between are skipped. */
  const next = (what = 'the next answer') => {
    let onMessage = (_data: unknown) => {};
    const answer = new Promise<Record<string, unknown>>((resolve) => {
      onMessage = (data: unknown) => {
        const message = JSON.parse(String(data)) as Record<string, unknown>;
        if (message.type === 'session.view') return;
        raw.socket.off('message', onMessage);
        resolve(message);
      };
      raw.socket.on('message', onMessage);
    });
    return inTime(answer, what).finally(() => raw.socket.off('message', onMessage));
  };
  const ask = (frame: string | Buffer) => {
    const answer = next(`an answer to ${String(frame).slice(0, 80)}`);
    raw.socket.send(frame);
    return answer;
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    raw.socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    ...raw,
    next,
    ask,
    get closed() {
      return inTime(closed, 'the socket to be closed');
    },
  };
}

/**
 * Freezes `performance.now` (the rate limiter's clock) at 0 for the test: the token bucket refills
 * only when `advance` says so, so counts and retry hints are exact. The helpers' waits (`until`,
 * `inTime`, `next`) keep a clock of their own.
 */
export function frozenClock(t: TestContext) {
  let now = 0;
  t.mock.method(performance, 'now', () => now);
  return { advance: (ms: number) => void (now += ms) };
}

/**
 * Sets `bufferedAmount` of the server's sockets (what a client that stops reading makes grow) until
 * the test ends; the client's own sockets keep theirs.
 */
export function serverUnsentBytes(t: TestContext, initial: number) {
  const descriptor = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'bufferedAmount')!;
  let unsent = initial;
  Object.defineProperty(WebSocket.prototype, 'bufferedAmount', {
    configurable: true,
    get(this: WebSocket & { _isServer: boolean }) {
      return this._isServer ? unsent : (descriptor.get!.call(this) as number);
    },
  });
  t.after(() => Object.defineProperty(WebSocket.prototype, 'bufferedAmount', descriptor));
  return { set: (bytes: number) => void (unsent = bytes) };
}

/** An upgrade as a browser sends it, to `port`. */
export const upgradeRequest = (port: number, path = '/', headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${headers}\r\n`;

/** Sends a raw upgrade and resolves with everything the server wrote before closing (a refusal whole). */
export function refusedUpgrade(t: TestContext, port: number, path = '/', headers = ''): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(upgradeRequest(port, path, headers)));
    t.after(() => socket.destroy());
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
      // An accepted upgrade stays open: what came back is the answer.
      if (text.startsWith('HTTP/1.1 101')) resolve(text.split('\r\n')[0]!);
    });
    socket.on('error', () => {}); // the server may reset it once answered
    socket.on('close', () => resolve(text));
  });
}

/** A log event whose JSON in a page (with its comma) is exactly `bytes`. */
export function eventOfBytes(seq: number, bytes: number): SessionEvent {
  const base = { seq, at: 0, type: 'assistant/message', turnId: 't', messageId: `m${seq}`, text: '' };
  const empty = eventJsonBytes({ ...base } as unknown as SessionEvent);
  const sized = { ...base, text: 'x'.repeat(bytes - empty) } as unknown as SessionEvent;
  if (eventJsonBytes(sized) !== bytes) throw new Error(`an event of ${bytes} bytes came out ${eventJsonBytes(sized)}`);
  return sized;
}

/** A cluster whose peers prove themselves by answering "ok". */
export const provingCluster: WebSocketCluster = {
  isPeer: (request) => request.headers[PEER_HEADER] !== undefined,
  challengePeer: () => ({ challenge: 'prove it', verify: (answer) => answer === 'ok' }),
  createRouter: () => ({
    isPeer: () => true,
    serve: async (_request, _ctx, local) => local(),
    watch: async (request) => ({ type: 'result', id: request.id, result: 'watching' }),
    opened: async () => {},
  }),
};
