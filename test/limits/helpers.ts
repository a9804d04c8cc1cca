// Test helper: a Host with its default limits behind the real WebSocket server, and clients that
// connect as any principal (`?as=<id>`), so each limit is tried the way a hostile visitor would.
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { SessionLogStore } from '../../host/store/types.js';
import type { CreateHostOptions } from '../../host/types.js';
import { mintMessageId, mintRpcId, type SessionId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient } from '../transport/helpers.js';

/** The test's context (its `after` closes what the helper opened). */
type Context = { after(fn: () => unknown): void };

/** A Host (its options, else every default) served over WebSocket; closed after the test. */
export async function servedHost(t: Context, options: Partial<CreateHostOptions> = {}) {
  const store: SessionLogStore = options.store ?? createMemoryStore();
  const host = createHost({ ...options, store });
  t.after(() => host.dispose());
  const server = await createWebSocketServer({
    host,
    port: 0,
    heartbeatMs: 0,
    rateLimit: false,
    authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? 'nobody' }),
  });
  t.after(() => server.close());
  /** A browser client of `principal`. */
  const as = (principal: string) => {
    const client = connectClient(server.port, { url: `ws://127.0.0.1:${server.port}/?as=${encodeURIComponent(principal)}` });
    t.after(() => client.dispose());
    return client;
  };
  return { host, store, server, as };
}

export type Client = ReturnType<Awaited<ReturnType<typeof servedHost>>['as']>;

/** Sends one message (a fresh messageId unless given). */
export function say(client: Client, sessionId: SessionId, text = 'hello', messageId = mintMessageId()) {
  return client.session.send({ sessionId, messageId, rpcId: mintRpcId(), text });
}

/** A promise and its resolver. */
export function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
