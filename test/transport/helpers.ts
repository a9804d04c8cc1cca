import type { TestContext } from 'node:test';
import { WebSocket } from 'ws';
import type { SessionId } from '../../protocol/index.js';
import { createWebSocketTransport, type WebSocketConstructor, type WebSocketTransportOptions } from '../../transport/ws/client.js';

export const sid = (id: string) => id as SessionId;

/** A one-field surface model: one choice, `pick` = `a`. */
export const PICK_ONE = {
  version: 1,
  title: 'Pick one',
  sections: [],
  fields: [{ kind: 'choice', id: 'pick', label: 'Pick', options: [{ id: 'a', label: 'A' }] }],
  submit: { label: 'Go' },
};

/** A client transport over the `ws` package, with quick reconnects for tests. */
export function connectClient(port: number, options: Partial<WebSocketTransportOptions> = {}) {
  return createWebSocketTransport({
    url: `ws://127.0.0.1:${port}`,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
    ...options,
  });
}

/**
 * How long a test waits for something a local server does in milliseconds (an answer, a close, a
 * count reached): long enough for a loaded two-core machine, short enough that a wait for what never
 * comes fails by name in seconds, not at the runner's timeout.
 */
export const WAIT_MS = 5_000;

// Taken when this module loads, before a test mocks timers (`t.mock.timers`) or freezes
// `performance.now` (limitRules' `frozenClock`): a limit on a wait stays one of real time.
const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: performance.now.bind(performance) };

/**
 * Resolves once `check` returns true, polling; after `limitMs` it fails naming `what` (by default the
 * check's source), so a wait that never ends is a named failure, not a test timeout.
 */
export async function until(check: () => boolean, everyMs = 5, limitMs = WAIT_MS, what = check.toString()): Promise<void> {
  const deadline = real.now() + limitMs;
  while (!check()) {
    if (real.now() > deadline) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((r) => real.setTimeout(r, everyMs));
  }
}

/** `promise`, or a failure naming `what` once `limitMs` pass without it settling. */
export function inTime<T>(promise: Promise<T>, what: string, limitMs = WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = real.setTimeout(() => reject(new Error(`not within ${limitMs} ms: ${what}`)), limitMs);
  });
  return Promise.race([promise, late]).finally(() => real.clearTimeout(timer));
}

/** A raw socket that sends frames and collects every answer, for malformed-input tests. */
export async function rawSocket(port: number, options: { autoPong?: boolean; path?: string; headers?: Record<string, string> } = {}) {
  const { path = '', ...socketOptions } = options;
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, socketOptions);
  const received: Record<string, unknown>[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as Record<string, unknown>));
  await inTime(
    new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    }),
    `a socket to port ${port} to open`,
  ).catch((error: unknown) => {
    socket.terminate();
    throw error;
  });
  return {
    socket,
    received,
    /** Sends one frame and waits for the next answer. */
    async ask(frame: string | Buffer): Promise<Record<string, unknown>> {
      const before = received.length;
      socket.send(frame);
      await until(() => received.length > before, 5, WAIT_MS, `an answer to ${String(frame).slice(0, 80)}`);
      return received[before]!;
    },
    close: () => socket.close(),
  };
}

/** A raw socket (`rawSocket`) terminated when the test ends, whatever happens in it. */
export async function rawSocketFor(t: TestContext, port: number, options: Parameters<typeof rawSocket>[1] = {}) {
  const raw = await rawSocket(port, options);
  t.after(() => raw.socket.terminate());
  return raw;
}
