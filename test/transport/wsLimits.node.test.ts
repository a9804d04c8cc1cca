import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { LogPage, MessageId, RpcId, SessionEvent, SessionId, SessionView } from '../../protocol/index.js';
import type { SessionListener } from '../../transport/types.js';
import { CLOSE_NOT_READING, createWebSocketServer } from '../../transport/ws/server.js';
import { createFakeHost } from './fakeHost.js';
import { connectClient, inTime, rawSocketFor, sid, until } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

/** Stops reading the socket (the kernel buffers fill, then the server's send buffer). */
const pause = (socket: WebSocket) => (socket as unknown as { _socket: Socket })._socket.pause();
const resume = (socket: WebSocket) => (socket as unknown as { _socket: Socket })._socket.resume();
const event = (seq: number, bytes: number): SessionEvent =>
  ({ seq, at: 0, type: 'assistant/message', turnId: 't', messageId: `m${seq}`, text: 'x'.repeat(bytes) }) as unknown as SessionEvent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('WebSocket server: backpressure', () => {
  it('closes a connection that does not read once its unsent bytes pass maxBufferedBytes', async (t) => {
    const host = createFakeHost();
    host.answerWith('readLog', { events: [event(1, 200_000)], hasMore: false, lastSeq: 1 } satisfies LogPage);
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host,
      port: 0,
      heartbeatMs: 0,
      rateLimit: false,
      maxInFlight: 1000,
      maxBufferedBytes: 1024 * 1024,
    });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    pause(raw.socket);
    for (let i = 0; i < 400; i++)
      raw.socket.send(JSON.stringify({ id: `r${i}`, type: 'log.read', params: { sessionId: 's1', limit: 10 } }));
    // 400 answers of 200 KB (80 MB) were asked for; the server cuts the reader off instead of holding them.
    await until(() => server.connectionCount === 0, 20, undefined, 'the server cutting off the reader that does not read');
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      raw.socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    resume(raw.socket);
    const { code } = await inTime(closed, 'the close of the cut-off reader');
    // The close frame sits behind the unread data; when the socket is cut first the client sees 1006.
    assert.ok(code === CLOSE_NOT_READING || code === 1006, `close code ${code}`);
  });

  it('coalesces the views pushed to a stalled watcher to the newest one', async (t) => {
    const host = createFakeHost();
    const listeners = new Set<SessionListener>();
    const bigView = (lastSeq: number) => ({ ...host.getView(sid('s1')), lastSeq, pad: 'v'.repeat(100_000) }) as unknown as SessionView;
    const watching = {
      ...host,
      watchSession: (_: SessionId, listener: SessionListener) => {
        listeners.add(listener);
        listener(bigView(0));
        return () => listeners.delete(listener);
      },
    };
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host: watching,
      port: 0,
      heartbeatMs: 0,
      maxBufferedBytes: 512 * 1024,
    });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    await raw.ask(JSON.stringify({ id: 'w', type: 'session.watch', params: { sessionId: 's1' } }));
    pause(raw.socket);
    // 500 views of 100 KB, each in its own event-loop turn (50 MB if each were written).
    for (let seq = 1; seq <= 500; seq++) {
      for (const listener of listeners) listener(bigView(seq));
      await new Promise((r) => setImmediate(r));
    }
    await sleep(50);
    assert.equal(server.connectionCount, 1, 'the stalled watcher was not cut off: its views did not pile up');
    const before = raw.received.length;
    resume(raw.socket);
    await until(
      () => raw.received.at(-1)?.view !== undefined && (raw.received.at(-1)!.view as { lastSeq: number }).lastSeq === 500,
      5,
      undefined,
      'the newest view (lastSeq 500) after the watcher reads again',
    );
    const views = raw.received.slice(before).length;
    assert.ok(views < 100, `${views} of 500 views were written`);
  });

  it('caps a log.read answer by bytes: fewer events and hasMore; a single oversized event comes alone', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, maxLogPageBytes: 350_000 });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    host.answerWith('readLog', {
      events: Array.from({ length: 10 }, (_, i) => event(i + 1, 100_000)),
      hasMore: false,
      lastSeq: 10,
    } satisfies LogPage);
    const page = (await raw.ask(JSON.stringify({ id: 'a', type: 'log.read', params: { sessionId: 's1', limit: 10 } }))).result as LogPage;
    assert.deepEqual(
      page.events.map((e) => e.seq),
      [8, 9, 10],
    );
    assert.equal(page.hasMore, true);
    host.answerWith('readLog', { events: [event(1, 10), event(2, 500_000)], hasMore: false, lastSeq: 2 } satisfies LogPage);
    const alone = (await raw.ask(JSON.stringify({ id: 'b', type: 'log.read', params: { sessionId: 's1', limit: 10 } }))).result as LogPage;
    assert.deepEqual(
      alone.events.map((e) => e.seq),
      [2],
    );
    assert.equal(alone.hasMore, true);
  });
});

describe('WebSocket server: per-connection bounds', () => {
  it('answers busy past maxInFlight requests and runs the others', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, maxInFlight: 2 });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    const held = host.hold('send');
    t.after(() => held.release());
    const send = (id: string) =>
      raw.socket.send(JSON.stringify({ id, type: 'session.send', params: { sessionId: 's1', messageId: id, rpcId: 'r', text: 'hi' } }));
    send('a');
    send('b');
    await held.reached;
    const third = await raw.ask(
      JSON.stringify({ id: 'c', type: 'session.send', params: { sessionId: 's1', messageId: 'c', rpcId: 'r', text: 'hi' } }),
    );
    assert.deepEqual(third, {
      type: 'error',
      id: 'c',
      code: 'busy',
      retryAfterMs: 50,
      message: '2 requests of this connection are still running (at most 2); retry in 50 ms',
    });
    held.release();
    await until(() => raw.received.filter((m) => m.type === 'result').length === 2);
    assert.equal(host.calls.send, 2);
  });

  it('rate-limits frames per connection with a retry hint; the client transport waits and retries by itself', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host,
      port: 0,
      heartbeatMs: 0,
      rateLimit: { perSecond: 20, burst: 3 },
    });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    for (let i = 0; i < 5; i++) raw.socket.send(JSON.stringify({ id: `p${i}`, type: 'ping' }));
    await until(() => raw.received.length === 5);
    assert.equal(raw.received.filter((m) => m.result === 'pong').length, 3);
    const limited = raw.received.filter((m) => m.code === 'rate-limited');
    assert.deepEqual(
      limited.map((m) => m.id),
      ['p3', 'p4'],
    );
    for (const m of limited) {
      assert.ok(typeof m.retryAfterMs === 'number' && m.retryAfterMs > 0 && m.retryAfterMs <= 50, String(m.retryAfterMs));
      assert.match(String(m.message), /^too many messages: at most 20 per second \(bursts of 3\); retry in \d+ ms$/);
    }
    const client = connectClient(server.port, { heartbeatMs: 0 });
    t.after(() => client.dispose());
    const sends = Array.from({ length: 10 }, (_, i) =>
      client.session.send({ sessionId: sid('s1'), messageId: `m${i}` as MessageId, rpcId: `r${i}` as RpcId, text: 'hi' }),
    );
    const results = await inTime(Promise.all(sends), 'the 10 sends, retried past the rate limit');
    assert.ok(results.every((r) => r.accepted));
    assert.equal(host.calls.send, 10, 'each ran once');
  });

  it('bounds the sessions one connection watches', async (t) => {
    const host = createFakeHost(['s1', 's2']);
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, maxWatches: 1 });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    assert.equal((await raw.ask(JSON.stringify({ id: 'a', type: 'session.watch', params: { sessionId: 's1' } }))).result, 'watching');
    await sleep(5);
    const refused = await raw.ask(JSON.stringify({ id: 'b', type: 'session.watch', params: { sessionId: 's2' } }));
    assert.deepEqual(refused, {
      type: 'error',
      id: 'b',
      code: 'bad-request',
      message: 'this connection already watches 1 sessions (at most 1); unwatch one first',
    });
    await raw.ask(JSON.stringify({ id: 'c', type: 'session.unwatch', params: { sessionId: 's1' } }));
    assert.equal((await raw.ask(JSON.stringify({ id: 'd', type: 'session.watch', params: { sessionId: 's2' } }))).result, 'watching');
  });

  it('refuses upgrades past maxConnections with HTTP 503', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, maxConnections: 2 });
    closeWhenDone(t, server);
    await rawSocketFor(t, server.port);
    await rawSocketFor(t, server.port);
    const status = new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}`);
      t.after(() => socket.terminate());
      socket.once('open', () => resolve(101));
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.once('error', reject);
    });
    assert.equal(await inTime(status, 'the answer to a third upgrade'), 503);
  });
});

describe('WebSocket server: the Host policy', () => {
  it('answers a policy that throws like a refusal, and reports it', async (t) => {
    const errors: unknown[] = [];
    const host = createFakeHost(['s1'], {
      policy: () => {
        throw new Error('session store down');
      },
      onError: (e) => errors.push(e),
    });
    const server = await createWebSocketServer({ host, port: 0, heartbeatMs: 0, authenticate: () => ({ id: 'u' }) });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    assert.deepEqual(await raw.ask(JSON.stringify({ id: 'a', type: 'log.read', params: { sessionId: 's1', limit: 1 } })), {
      type: 'error',
      id: 'a',
      code: 'unknown-session',
      message: 'unknown session "s1"',
    });
    assert.equal(errors.length, 1);
  });

  it('answers a canOpenSession that throws like a refusal', async (t) => {
    const errors: unknown[] = [];
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host: createFakeHost(),
      port: 0,
      heartbeatMs: 0,
      onError: (e) => errors.push(e),
      canOpenSession: () => {
        throw new Error('directory down');
      },
    });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    assert.deepEqual(await raw.ask(JSON.stringify({ id: 'o', type: 'session.open', params: {} })), {
      type: 'error',
      id: 'o',
      code: 'bad-request',
      message: 'this connection may not open sessions',
    });
    assert.equal(errors.length, 1);
  });

  it('asks the policy before the existence check, for missing sessions too', async (t) => {
    const order: string[] = [];
    const host = createFakeHost(['s1'], {
      owners: { s1: 'u' },
      policy: (principal, session) => {
        order.push(`policy ${session.sessionId} owner=${session.owner}`);
        return principal.id === session.owner ? 'write' : 'none';
      },
    });
    const exists = host.hasSession;
    host.hasSession = (sessionId: SessionId) => {
      order.push(`exists ${sessionId}`);
      return exists(sessionId);
    };
    const server = await createWebSocketServer({ host, port: 0, heartbeatMs: 0, authenticate: () => ({ id: 'u' }) });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    const missing = await raw.ask(JSON.stringify({ id: 'a', type: 'log.read', params: { sessionId: 'nope', limit: 1 } }));
    assert.equal(missing.code, 'unknown-session');
    assert.deepEqual(order, ['policy nope owner=null']);
    order.length = 0;
    await raw.ask(JSON.stringify({ id: 'b', type: 'log.read', params: { sessionId: 's1', limit: 1 } }));
    assert.deepEqual(order.slice(0, 2), ['policy s1 owner=u', 'exists s1']);
  });
});
