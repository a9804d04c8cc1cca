// What the WebSocket server says and does at its edges, compared whole: the answer to a plain HTTP
// request, each upgrade refusal, the answer to a request whose handling threw, a peer frame without
// its principal, a claimed peer's refused proof, the default error report, and what `close()` leaves
// of an HTTP server it was attached to. Written from the survivors of a Stryker run over
// transport/ws/ (docs/mutation.md).
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { HostInputError, LimitExceededError } from '../../protocol/index.js';
import { createWebSocketServer, encodePrincipal, PEER_HEADER, type WebSocketServerOptions } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';
import { inTime, until } from './helpers.js';
import { provingCluster, refusedUpgrade, serverFor, socketFor } from './limitRules.js';

const refusal = (status: string, reason: string) =>
  `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
  `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`;

describe('the upgrade refusals, whole', () => {
  it('a target that is not a URL: 400 and why', async (t) => {
    const server = await serverFor(t);
    assert.equal(await refusedUpgrade(t, server.port, '//['), refusal('400 Bad Request', 'the request target is not a URL'));
  });

  it('a Host the server does not serve: 400 and why', async (t) => {
    const server = await serverFor(t);
    const socket = connect(server.port, '127.0.0.1');
    t.after(() => socket.destroy());
    let text = '';
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('error', () => {});
    socket.write(
      'GET / HTTP/1.1\r\nHost: elsewhere.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await inTime(new Promise((resolve) => socket.once('close', resolve)), 'the refusal');
    assert.equal(text, refusal('400 Bad Request', 'the Host header is malformed or not one this server serves'));
  });

  it('an Origin not allowed: 403 and why', async (t) => {
    const server = await serverFor(t);
    assert.equal(
      await refusedUpgrade(t, server.port, '/', 'Origin: https://evil.example\r\n'),
      refusal('403 Forbidden', 'this Origin may not open a socket here'),
    );
  });

  it('nobody signed in: 401 and why', async (t) => {
    const server = await serverFor(t, { allowAnonymous: false, authenticate: () => null });
    assert.equal(await refusedUpgrade(t, server.port), refusal('401 Unauthorized', 'who is connecting is not known: sign in first'));
  });

  it('a claimed peer without its nonce: 401 and why, and its address slot given back', async (t) => {
    const server = await serverFor(t, {
      allowAnonymous: false,
      authenticate: () => ({ id: 'alice' }),
      maxConnectionsPerAddress: 1,
      cluster: { ...provingCluster, challengePeer: () => null },
    });
    for (let i = 0; i < 2; i++) {
      assert.equal(
        await refusedUpgrade(t, server.port, '/', `${PEER_HEADER}: x\r\n`),
        refusal('401 Unauthorized', 'a peer upgrade must carry its nonce'),
        `claim ${i + 1}`,
      );
    }
  });

  it('counts connections by the socket’s own address when `remoteAddress` is not given', async (t) => {
    const server = await serverFor(t, { allowAnonymous: false, authenticate: () => ({ id: 'alice' }), maxConnectionsPerAddress: 1 });
    await socketFor(t, server.port);
    assert.equal(
      await refusedUpgrade(t, server.port),
      refusal('429 Too Many Requests', 'too-many-connections: this address already holds 1 connections (at most 1)'),
    );
  });
});

describe('a standalone server', () => {
  it('answers a plain HTTP request 426, in words', async (t) => {
    const server = await serverFor(t);
    const answer = await inTime(
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port: server.port, path: '/' }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += String(chunk)));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        });
        request.on('error', reject);
        request.end();
      }),
      'the answer to a plain HTTP request',
    );
    assert.deepEqual(
      { status: answer.status, type: answer.headers['content-type'], connection: answer.headers.connection, body: answer.body },
      { status: 426, type: 'text/plain; charset=utf-8', connection: 'close', body: 'this endpoint speaks WebSocket only' },
    );
  });

  it('listens on the port it is given, on 127.0.0.1 only', async (t) => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const server = await serverFor(t, { port });
    assert.equal(server.port, port);
    const ipv6 = await new Promise<string>((resolve) => {
      const socket = connect(port, '::1', () => (socket.destroy(), resolve('connected')));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    assert.notEqual(ipv6, 'connected', 'not on every interface');
  });

  it('rejects when its port is taken, with the listen error', async (t) => {
    const first = await serverFor(t);
    await assert.rejects(
      createWebSocketServer({ host: createFakeHost(), allowAnonymous: true, heartbeatMs: 0, port: first.port }),
      (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE',
    );
  });
});

describe('attached to an HTTP server of the application', () => {
  it('close() leaves that server listening and takes its upgrade handler away', async (t) => {
    const http = createServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    t.after(() => http.close());
    const before = http.listenerCount('upgrade');
    const server = await createWebSocketServer({ host: createFakeHost(), allowAnonymous: true, heartbeatMs: 0, server: http });
    assert.equal(server.port, (http.address() as { port: number }).port);
    assert.equal(http.listenerCount('upgrade'), before + 1);
    await server.close();
    assert.equal(http.listening, true);
    assert.equal(http.listenerCount('upgrade'), before);
  });

  it('reads port 0 from a server not listening yet', async (t) => {
    const http = createServer();
    const server = await createWebSocketServer({ host: createFakeHost(), allowAnonymous: true, heartbeatMs: 0, server: http });
    closeWhenDone(t, server);
    assert.equal(server.port, 0);
  });
});

/** A server whose Host throws `error` from `session.send`; the errors it reports. */
async function throwingServer(t: TestContext, error: unknown, options: Partial<WebSocketServerOptions> = {}) {
  const host = createFakeHost();
  host.session.send = () => {
    throw error;
  };
  const reported: unknown[] = [];
  const server = await serverFor(t, { host, onError: (e) => reported.push(e), ...options });
  const raw = await socketFor(t, server.port);
  const send = { id: 'q1', type: 'session.send', params: { sessionId: 's1', messageId: 'm1', rpcId: 'r', text: 'hi' } };
  return { answer: await raw.ask(JSON.stringify(send)), reported };
}

describe('a request whose handling threw', () => {
  it('host input: bad-request with the error’s words, nothing reported', async (t) => {
    const { answer, reported } = await throwingServer(
      t,
      new HostInputError('session.send', [{ path: ['text'], message: 'expected a non-empty string' }]),
    );
    assert.deepEqual(answer, {
      type: 'error',
      id: 'q1',
      code: 'bad-request',
      message: 'session.send: invalid input: text: expected a non-empty string',
    });
    assert.deepEqual(reported, []);
  });

  it('a limit: its code, words and retry, nothing reported', async (t) => {
    const limit = new LimitExceededError('quota-exceeded', 'messages-per-minute', 'at most 2 messages a minute', 1_500);
    const { answer, reported } = await throwingServer(t, limit);
    assert.deepEqual(answer, {
      type: 'error',
      id: 'q1',
      code: 'quota-exceeded',
      message: 'at most 2 messages a minute',
      retryAfterMs: 1_500,
    });
    assert.deepEqual(reported, []);
  });

  it('the store: server-error saying nothing was accepted, and reported', async (t) => {
    const failed = Object.assign(new Error('disk full'), { name: 'HostStoreError' });
    const { answer, reported } = await throwingServer(t, failed);
    assert.deepEqual(answer, {
      type: 'error',
      id: 'q1',
      code: 'server-error',
      message: 'the store could not make this change durable, so it was not accepted: send it again',
    });
    assert.deepEqual(reported, [failed]);
  });

  it('anything else, even a thrown non-Error: server-error, and reported', async (t) => {
    const { answer, reported } = await throwingServer(t, undefined);
    assert.deepEqual(answer, { type: 'error', id: 'q1', code: 'server-error', message: 'the host failed to handle this request' });
    assert.deepEqual(reported, [undefined]);
  });

  it('an answer that cannot be written as JSON: server-error, and reported', async (t) => {
    const host = createFakeHost();
    host.answerWith('send', { accepted: true, count: 1n });
    const reported: unknown[] = [];
    const server = await serverFor(t, { host, onError: (e) => reported.push(e) });
    const raw = await socketFor(t, server.port);
    const send = { id: 'q1', type: 'session.send', params: { sessionId: 's1', messageId: 'm1', rpcId: 'r', text: 'hi' } };
    assert.deepEqual(await raw.ask(JSON.stringify(send)), {
      type: 'error',
      id: 'q1',
      code: 'server-error',
      message: 'the host failed to handle this request',
    });
    assert.equal(reported.length, 1);
    assert.ok(reported[0] instanceof TypeError);
  });

  it('without `onError`, reports to console.error under the server’s tag', async (t) => {
    const logged = t.mock.method(console, 'error', () => {});
    const failed = new Error('boom');
    const host = createFakeHost();
    host.session.send = () => {
      throw failed;
    };
    const server = await createWebSocketServer({ host, allowAnonymous: true, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const raw = await socketFor(t, server.port);
    await raw.ask(JSON.stringify({ id: 'q1', type: 'session.send', params: { sessionId: 's1', messageId: 'm1', rpcId: 'r', text: 'hi' } }));
    assert.deepEqual(
      logged.mock.calls.map((call) => call.arguments),
      [['[task-surface ws]', failed]],
    );
  });
});

describe('the server socket’s own errors', () => {
  it('reports a socket failure, not a frame ws refused', async (t) => {
    const serverSockets: WebSocket[] = [];
    const on = WebSocket.prototype.on;
    t.mock.method(WebSocket.prototype, 'on', function (this: WebSocket & { _isServer: boolean }, ...args: Parameters<WebSocket['on']>) {
      if (this._isServer && args[0] === 'error' && !serverSockets.includes(this)) serverSockets.push(this);
      return on.apply(this, args);
    });
    const reported: unknown[] = [];
    const server = await serverFor(t, { onError: (e) => reported.push(e) });
    await socketFor(t, server.port);
    await until(() => serverSockets.length === 1, 5, undefined, 'the server side of the socket');
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const bare = new Error('no code');
    serverSockets[0]!.emit('error', Object.assign(new Error('invalid UTF-8'), { code: 'WS_ERR_INVALID_UTF8' }));
    serverSockets[0]!.emit('error', reset);
    serverSockets[0]!.emit('error', bare);
    assert.deepEqual(reported, [reset, bare]);
  });
});

describe('views and watches', () => {
  it('two sessions bumped in one turn: each gets its view', async (t) => {
    const host = createFakeHost();
    const server = await serverFor(t, { host });
    const raw = await socketFor(t, server.port);
    for (const sessionId of ['s1', 's2']) {
      assert.equal(
        (await raw.ask(JSON.stringify({ id: `w-${sessionId}`, type: 'session.watch', params: { sessionId } }))).result,
        'watching',
      );
    }
    const views: string[] = [];
    raw.socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; sessionId: string; view: { lastSeq: number } };
      if (message.type === 'session.view' && message.view.lastSeq === 1) views.push(message.sessionId);
    });
    host.bump('s1' as never);
    host.bump('s2' as never);
    await until(() => views.length === 2, 5, undefined, 'a view of each session');
    assert.deepEqual(views.sort(), ['s1', 's2']);
  });

  it('a view queued in the turn a session is unwatched is not sent', async (t) => {
    const serverSockets: WebSocket[] = [];
    const on = WebSocket.prototype.on;
    t.mock.method(WebSocket.prototype, 'on', function (this: WebSocket & { _isServer: boolean }, ...args: Parameters<WebSocket['on']>) {
      if (this._isServer && args[0] === 'message' && !serverSockets.includes(this)) serverSockets.push(this);
      return on.apply(this, args);
    });
    const host = createFakeHost();
    const server = await serverFor(t, { host });
    const raw = await socketFor(t, server.port);
    await raw.ask(JSON.stringify({ id: 'w', type: 'session.watch', params: { sessionId: 's1' } }));
    await until(() => raw.received.length === 2, 5, undefined, 'the first view');
    host.bump('s1' as never);
    serverSockets[0]!.emit(
      'message',
      Buffer.from(JSON.stringify({ id: 'u', type: 'session.unwatch', params: { sessionId: 's1' } })),
      false,
    );
    await raw.ask(JSON.stringify({ id: 'p', type: 'ping' }));
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      raw.received.map((m) => (m.type === 'session.view' ? `view ${(m.view as { lastSeq: number }).lastSeq}` : m.id)),
      ['w', 'view 0', 'u', 'p'],
    );
  });

  it('a client that watched and made requests releases every watch when it closes', async (t) => {
    const host = createFakeHost();
    const server = await serverFor(t, { host });
    const raw = await socketFor(t, server.port);
    await raw.ask(JSON.stringify({ id: 'w1', type: 'session.watch', params: { sessionId: 's1' } }));
    await raw.ask(JSON.stringify({ id: 'p1', type: 'ping' }));
    await raw.ask(JSON.stringify({ id: 'w2', type: 'session.watch', params: { sessionId: 's2' } }));
    await raw.ask(JSON.stringify({ id: 'p2', type: 'ping' }));
    assert.equal(host.watcherCount(), 2);
    raw.socket.close();
    await until(() => host.watcherCount() === 0, 5, undefined, 'every watch released');
  });

  it('names each connection c1, c2, … in the order they open', async (t) => {
    const seen: string[] = [];
    const server = await serverFor(t, {
      canOpenSession: (connection) => (seen.push(connection.id), true),
    });
    for (const name of ['a', 'b']) {
      const raw = await socketFor(t, server.port);
      await raw.ask(JSON.stringify({ id: name, type: 'session.open', params: {} }));
    }
    assert.deepEqual(seen, ['c1', 'c2']);
  });
});

/** A socket claiming to be a peer: the challenge it got, and how it was closed. */
async function claimedPeer(t: TestContext, port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers: { [PEER_HEADER]: 'n'.repeat(22) } });
  t.after(() => socket.terminate());
  socket.on('error', () => {});
  const challenge = await inTime(
    new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data)))),
    'the challenge',
  );
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { socket, challenge, closed: (limitMs?: number) => inTime(closed, 'the peer socket to be closed', limitMs) };
}

describe('a claimed peer', () => {
  const refused = { code: 4401, reason: 'the peer proof was refused' };

  it('answering wrong, in binary, or making verify throw is closed 4401, and nothing else it sent is read', async (t) => {
    const cluster = {
      ...provingCluster,
      challengePeer: () => ({
        challenge: 'prove it',
        verify: (answer: string) => {
          if (answer === 'throw') throw new SyntaxError('not JSON');
          return answer === 'ok';
        },
      }),
    };
    const host = createFakeHost();
    const server = await serverFor(t, { host, cluster });
    for (const answer of ['wrong', Buffer.from('ok'), 'throw']) {
      const peer = await claimedPeer(t, server.port);
      assert.equal(peer.challenge, 'prove it');
      peer.socket.send(answer);
      peer.socket.send(`${encodePrincipal({ id: 'alice' })} ${JSON.stringify({ id: 'x', type: 'ping' })}`);
      assert.deepEqual(await peer.closed(), refused, String(answer));
    }
    assert.equal(server.connectionCount, 0);
  });

  it('once proven, a frame that does not start with a principal is refused, and the peer stays', async (t) => {
    const server = await serverFor(t, { cluster: provingCluster });
    const peer = await claimedPeer(t, server.port);
    const answers: string[] = [];
    peer.socket.on('message', (data) => answers.push(String(data)));
    peer.socket.send('ok');
    peer.socket.send(JSON.stringify({ id: 'x', type: 'ping' }));
    peer.socket.send(`!!! ${JSON.stringify({ id: 'y', type: 'ping' })}`);
    const alice = encodePrincipal({ id: 'alice' });
    peer.socket.send(`${alice} ${JSON.stringify({ id: 'z', type: 'ping' })}`);
    await until(() => answers.length === 3, 5, undefined, 'three answers');
    const bad = JSON.stringify({ type: 'error', id: null, code: 'bad-request', message: 'a peer frame must start with its principal' });
    assert.deepEqual(answers.slice(0, 2), [bad, bad]);
    assert.match(answers[2]!, new RegExp(`^${alice} \\{"type":"result","id":"z"`));
  });
});

describe('the options a server is built with', () => {
  it('rateLimit: false turns the limit off', async (t) => {
    const server = await serverFor(t, { rateLimit: false });
    const raw = await socketFor(t, server.port);
    for (let i = 0; i < 250; i++) raw.socket.send(JSON.stringify({ id: `p${i}`, type: 'ping' }));
    await until(() => raw.received.length === 250, 5, undefined, '250 answers');
    const answers = raw.received;
    assert.equal(answers.filter((a) => a.code === 'rate-limited').length, 0);
  });
});

describe('who is connecting', () => {
  it('a client that resets while authenticate runs gives its address slot back', async (t) => {
    const answers: ((principal: { id: string } | null) => void)[] = [];
    const server = await serverFor(t, {
      allowAnonymous: false,
      authenticate: () => new Promise((resolve) => answers.push(resolve)),
      maxConnectionsPerAddress: 1,
    });
    t.after(() => answers.forEach((answer) => answer(null)));
    const attacker = connect(server.port, '127.0.0.1');
    attacker.on('error', () => {});
    attacker.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await until(() => answers.length === 1, 5, undefined, 'authenticate to be asked');
    attacker.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    answers[0]!({ id: 'alice' }); // who it was, known only after it left
    const next = socketFor(t, server.port);
    await until(() => answers.length === 2, 5, undefined, 'authenticate asked for the next socket');
    answers[1]!({ id: 'alice' });
    await next;
  });

  it('authenticate answering null is a refusal, not a failure to report', async (t) => {
    const reported: unknown[] = [];
    const server = await serverFor(t, { allowAnonymous: false, authenticate: () => null, onError: (e) => reported.push(e) });
    assert.match(await refusedUpgrade(t, server.port), /^HTTP\/1\.1 401 Unauthorized/);
    assert.deepEqual(reported, []);
  });
});

describe('with a cluster', () => {
  it('a client’s watch goes through the cluster’s router', async (t) => {
    const router = provingCluster.createRouter();
    const server = await serverFor(t, {
      cluster: {
        ...provingCluster,
        createRouter: () => ({ ...router, watch: async (request) => ({ type: 'result', id: request.id, result: 'routed' }) }),
      },
    });
    const raw = await socketFor(t, server.port);
    assert.deepEqual(await raw.ask(JSON.stringify({ id: 'w', type: 'session.watch', params: { sessionId: 's1' } })), {
      type: 'result',
      id: 'w',
      result: 'routed',
    });
  });

  it('a claimed peer that never answers is closed 4401 after 5 s', async (t) => {
    const server = await serverFor(t, { cluster: provingCluster });
    const peer = await claimedPeer(t, server.port);
    const started = Date.now();
    assert.deepEqual(await peer.closed(8_000), { code: 4401, reason: 'no proof within 5000 ms' });
    assert.ok(Date.now() - started >= 4_500, 'not before its 5 s');
  });

  it('a claimed peer sending a frame ws refuses is closed by ws, and the server serves on', async (t) => {
    const server = await serverFor(t, { cluster: provingCluster });
    const peer = await claimedPeer(t, server.port);
    const crashed: unknown[] = [];
    const onCrash = (error: unknown) => crashed.push(error);
    process.on('uncaughtException', onCrash);
    t.after(() => process.off('uncaughtException', onCrash));
    // A text frame whose payload is not UTF-8: ws emits an error on the server's socket and closes it.
    (peer.socket as unknown as { _socket: { write(b: Buffer): void } })._socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe]));
    assert.equal((await peer.closed()).code, 1007, 'closed by ws: not UTF-8');
    assert.deepEqual(crashed, []);
    const raw = await socketFor(t, server.port);
    assert.equal((await raw.ask(JSON.stringify({ id: 'p', type: 'ping' }))).type, 'result');
  });
});

describe('what a server holds', () => {
  it('close() stops every timer it started: the heartbeat and the fragment guard', async (t) => {
    const running = new Set<unknown>();
    const set = globalThis.setInterval;
    const clear = globalThis.clearInterval;
    t.mock.method(globalThis, 'setInterval', (...args: Parameters<typeof setInterval>) => {
      const timer = set(...args);
      running.add(timer);
      return timer;
    });
    t.mock.method(globalThis, 'clearInterval', (timer: ReturnType<typeof setInterval>) => {
      running.delete(timer);
      clear(timer);
    });
    const server = await createWebSocketServer({ host: createFakeHost(), allowAnonymous: true });
    closeWhenDone(t, server);
    assert.equal(running.size, 2);
    await server.close();
    assert.equal(running.size, 0);
  });

  it('a frame whose reading throws is answered server-error and reported; the connection stays', async (t) => {
    const reported: unknown[] = [];
    const server = await serverFor(t, { onError: (e) => reported.push(e) });
    const raw = await socketFor(t, server.port);
    const failure = new Error('decoding failed');
    const toString = Buffer.prototype.toString;
    t.mock.method(Buffer.prototype, 'toString', function (this: Buffer, ...args: Parameters<Buffer['toString']>) {
      if (this.includes('"explode"')) throw failure;
      return toString.apply(this, args);
    });
    assert.deepEqual(await raw.ask(JSON.stringify({ id: 'explode', type: 'ping' })), {
      type: 'error',
      id: null,
      code: 'server-error',
      message: 'the server failed to read this message',
    });
    assert.deepEqual(reported, [failure]);
    assert.equal((await raw.ask(JSON.stringify({ id: 'p', type: 'ping' }))).result, 'pong');
  });
});

/** A cluster whose router watches in this process, as the owner of every session does. */
const localCluster = {
  ...provingCluster,
  createRouter: () => ({
    ...provingCluster.createRouter(),
    watch: async (
      request: { id: string; params: { sessionId: string } },
      ctx: { watches: Map<string, () => void> },
      local: (listener: () => void) => () => void,
    ) => {
      ctx.watches.set(
        request.params.sessionId,
        local(() => {}),
      );
      return { type: 'result' as const, id: request.id, result: 'watching' as const };
    },
  }),
} as unknown as WebSocketServerOptions['cluster'];

describe('the principals a peer carries', () => {
  it('each is a connection of its own, named after the peer’s: c1:1, c1:2', async (t) => {
    const seen: string[] = [];
    const server = await serverFor(t, { cluster: provingCluster, canOpenSession: (connection) => (seen.push(connection.id), true) });
    const peer = await claimedPeer(t, server.port);
    const answers: string[] = [];
    peer.socket.on('message', (data) => answers.push(String(data)));
    peer.socket.send('ok');
    for (const id of ['alice', 'bob'])
      peer.socket.send(`${encodePrincipal({ id })} ${JSON.stringify({ id, type: 'session.open', params: {} })}`);
    await until(() => answers.length === 2, 5, undefined, 'both opens answered');
    assert.deepEqual(seen, ['c1:1', 'c1:2']);
  });

  it('a principal that watched through a peer has its watch released when the peer closes', async (t) => {
    const host = createFakeHost(['s1'], { owners: { s1: 'alice' } });
    const server = await serverFor(t, { host, cluster: localCluster });
    const peer = await claimedPeer(t, server.port);
    const answers: string[] = [];
    peer.socket.on('message', (data) => answers.push(String(data)));
    peer.socket.send('ok');
    const alice = encodePrincipal({ id: 'alice' });
    peer.socket.send(`${alice} ${JSON.stringify({ id: 'w', type: 'session.watch', params: { sessionId: 's1' } })}`);
    peer.socket.send(`${alice} ${JSON.stringify({ id: 'p', type: 'ping' })}`);
    await until(() => answers.length === 2, 5, undefined, 'the watch and the ping answered');
    assert.ok(
      answers.every((a) => a.includes('"type":"result"')),
      answers.join('\n'),
    );
    assert.equal(host.watcherCount(), 1);
    peer.socket.close();
    await until(() => host.watcherCount() === 0, 5, undefined, 'the watch released');
  });
});

describe('counting by address and by principal on a peer', () => {
  it('two loopback addresses are two addresses', async (t) => {
    const server = await serverFor(t, { allowAnonymous: false, authenticate: () => ({ id: 'alice' }), maxConnectionsPerAddress: 1 });
    const sockets = ['127.0.0.1', '127.0.0.2'].map((localAddress) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}`, { localAddress });
      t.after(() => socket.terminate());
      return inTime(
        new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        }),
        `a socket from ${localAddress}`,
      );
    });
    await Promise.all(sockets);
  });

  it('a principal’s count of requests in flight on a peer survives one of them ending', async (t) => {
    const host = createFakeHost(['s1'], { owners: { s1: 'alice' } });
    const server = await serverFor(t, { host, cluster: provingCluster, maxInFlight: 4 });
    const peer = await claimedPeer(t, server.port);
    const answers: string[] = [];
    peer.socket.on('message', (data) => answers.push(String(data)));
    peer.socket.send('ok');
    const held = host.hold('send');
    t.after(() => held.release());
    const alice = encodePrincipal({ id: 'alice' });
    const send = (id: string) =>
      peer.socket.send(
        `${alice} ${JSON.stringify({ id, type: 'session.send', params: { sessionId: 's1', messageId: id, rpcId: 'r', text: 'hi' } })}`,
      );
    for (let i = 0; i < 8_191; i++) send(`m${i}`);
    await until(() => host.calls.send === 8_191, 5, 10_000, '8,191 sends running');
    peer.socket.send(`${alice} ${JSON.stringify({ id: 'p', type: 'ping' })}`);
    await until(() => answers.length === 1, 5, undefined, 'the ping answered');
    send('m8191');
    send('m8192');
    await until(() => answers.length === 2, 5, undefined, 'the 8,193rd refused');
    assert.match(answers[1]!, /"id":"m8192","code":"busy"/);
  });
});
