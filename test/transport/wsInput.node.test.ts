import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { createWebSocketServer, type WebSocketServerOptions } from '../../transport/ws/server.js';
import { nestsDeeperThan, peekRequestId } from '../../transport/ws/frames.js';
import { createFakeHost } from './fakeHost.js';
import { rawSocket } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A real host (memory store) with one session, served on a free port; closed when the test ends, whatever happens. */
async function realServer(t: TestContext, options: Partial<WebSocketServerOptions> = {}) {
  const host = createHost({ store: createMemoryStore() });
  const sessionId = host.openSession({ title: 'Deep' });
  const errors: unknown[] = [];
  const server = await createWebSocketServer({
    allowAnonymous: true,
    host,
    port: 0,
    heartbeatMs: 0,
    onError: (e) => errors.push(e),
    ...options,
  });
  return {
    host,
    sessionId,
    server,
    errors,
    close: closeWhenDone(t, {
      close: async () => {
        await server.close();
        await host.dispose();
      },
    }),
  };
}

describe('WebSocket server: deeply nested frames', () => {
  it('answers 3,000 nested arrays in act payload and submit values with bad-request and keeps serving', async (t) => {
    const { sessionId, server, errors, close } = await realServer(t);
    const raw = await rawSocket(server.port);
    const frames = {
      act: `{"id":"deep-act","type":"actionCards.act","params":{"sessionId":"${sessionId}","callId":"c1","verb":"confirm","payload":${nested(3000)}}}`,
      submit: `{"id":"deep-submit","type":"taskSurface.submit","params":{"sessionId":"${sessionId}","surfaceId":"f1","submissionId":"x1","values":{"a":${nested(3000)}}}}`,
    };
    for (const [name, frame] of Object.entries(frames)) {
      assert.ok(frame.length > 5_000 && frame.length < 7_000, `${name} is a ~5 KB frame`);
      const answer = await raw.ask(frame);
      assert.deepEqual(answer, {
        type: 'error',
        id: `deep-${name}`,
        code: 'bad-request',
        message: 'message nests arrays and objects deeper than 64 levels',
      });
      assert.deepEqual(await raw.ask('{"id":"p","type":"ping"}'), { type: 'result', id: 'p', result: 'pong' });
    }
    // Within the depth limit, the same request reaches the host and is answered normally.
    const shallow = await raw.ask(
      `{"id":"ok","type":"actionCards.act","params":{"sessionId":"${sessionId}","callId":"c1","verb":"confirm","payload":${nested(50)}}}`,
    );
    assert.equal(shallow.type, 'result');
    assert.deepEqual(errors, []);
    raw.close();
    await close();
  });

  it('refuses a deep frame before the host is called, whatever the type, and with a configurable depth', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, maxDepth: 4 });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    const deep = await raw.ask(
      '{"id":"d","type":"session.send","params":{"sessionId":"s1","messageId":"m","rpcId":"r","text":"hi","x":[[[1]]]}}',
    );
    assert.equal(deep.code, 'bad-request');
    assert.equal(deep.message, 'message nests arrays and objects deeper than 4 levels');
    // Brackets inside strings do not count.
    const text = await raw.ask(
      '{"id":"t","type":"session.send","params":{"sessionId":"s1","messageId":"m","rpcId":"r","text":"[[[[[[[[[[\\"{{{{"}}',
    );
    assert.equal(text.type, 'result');
    assert.equal(host.calls.send, 1);
    raw.close();
  });

  it('never lets a failure escape the message listener: a throwing host method answers server-error', async (t) => {
    const host = createFakeHost();
    const broken = {
      ...host,
      watchSession: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const errors: unknown[] = [];
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host: broken,
      port: 0,
      heartbeatMs: 0,
      onError: (e) => errors.push(e),
    });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    assert.equal((await raw.ask('{"id":"w","type":"session.watch","params":{"sessionId":"s1"}}')).code, 'server-error');
    assert.equal((await raw.ask('{"id":"p","type":"ping"}')).result, 'pong');
    assert.equal(errors.length, 1);
    raw.close();
  });

  it('answers a host input error (session.open with an empty title) as bad-request naming the field', async (t) => {
    const { server, errors, close } = await realServer(t);
    const raw = await rawSocket(server.port);
    const answer = await raw.ask('{"id":"o","type":"session.open","params":{"title":""}}');
    assert.deepEqual(answer, {
      type: 'error',
      id: 'o',
      code: 'bad-request',
      message: 'invalid session.open request: params.title: title must not be empty',
    });
    assert.deepEqual(errors, [], "nothing logged: it is the client's mistake");
    raw.close();
    await close();
  });
});

describe('WebSocket server: frames over the limits', () => {
  it('answers too-large with the request id up to the hard cap, and keeps the connection', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host,
      port: 0,
      heartbeatMs: 0,
      maxMessageBytes: 1024,
      maxFrameBytes: 64 * 1024,
    });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    const big = JSON.stringify({
      id: 'big',
      type: 'session.send',
      params: { sessionId: 's1', messageId: 'm', rpcId: 'r', text: 'x'.repeat(10_000) },
    });
    assert.deepEqual(await raw.ask(big), {
      type: 'error',
      id: 'big',
      code: 'too-large',
      message: `message of ${big.length} bytes is over the limit of 1024 bytes`,
    });
    // An id placed after the first 4 KiB is not looked for.
    const late = JSON.stringify({ type: 'session.send', params: { text: 'x'.repeat(10_000) }, id: 'late' });
    assert.equal((await raw.ask(late)).id, null);
    assert.equal((await raw.ask('{"id":"p","type":"ping"}')).result, 'pong');
    assert.equal(host.calls.send, undefined);
    raw.close();
  });

  it('past the hard cap, ws closes the connection with 1009 without reading the frame; the server keeps serving', async (t) => {
    const host = createFakeHost();
    const errors: unknown[] = [];
    const server = await createWebSocketServer({
      allowAnonymous: true,
      host,
      port: 0,
      heartbeatMs: 0,
      maxMessageBytes: 1024,
      maxFrameBytes: 64 * 1024,
      onError: (e) => errors.push(e),
    });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    const closed = new Promise<number>((resolve) => raw.socket.once('close', (code) => resolve(code)));
    raw.socket.send(JSON.stringify({ id: 'huge', type: 'ping', pad: 'x'.repeat(70 * 1024) }));
    assert.equal(await closed, 1009);
    assert.deepEqual(errors, [], "a client's oversized frame is not reported as a server failure");
    const again = await rawSocket(server.port);
    assert.equal((await again.ask('{"id":"p","type":"ping"}')).result, 'pong');
    again.close();
  });

  it('the default hard cap is maxMessageBytes + 64 KiB: a 300 KiB frame is answered too-large, a 1 MiB one closes', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    assert.equal((await raw.ask(`{"id":"kib","type":"ping","pad":"${'x'.repeat(300 * 1024)}"}`)).code, 'too-large');
    assert.equal(raw.socket.readyState, WebSocket.OPEN);
    const closed = new Promise<number>((resolve) => raw.socket.once('close', (code) => resolve(code)));
    raw.socket.send(`{"id":"mib","type":"ping","pad":"${'x'.repeat(1024 * 1024 - 40)}"}`);
    assert.equal(await closed, 1009);
  });
});

describe('WebSocket server: frames ws refuses itself', () => {
  it('closes a text frame that is not UTF-8 with 1007 and keeps serving others', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, onError: () => {} });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    const closed = new Promise<number>((resolve) => raw.socket.once('close', (code) => resolve(code)));
    raw.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    assert.equal(await closed, 1007);
    const again = await rawSocket(server.port);
    assert.equal((await again.ask('{"id":"p","type":"ping"}')).result, 'pong');
    again.close();
  });

  it('uses the default for a limit that is not a positive integer', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0, maxDepth: 0, maxMessageBytes: -1 });
    closeWhenDone(t, server);
    const raw = await rawSocket(server.port);
    // 63 levels pass the depth scan and reach the schema (which refuses the unknown field).
    assert.match(String((await raw.ask(`{"id":"a","type":"ping","x":${nested(62)}}`)).message), /unknown field "x"/);
    assert.match(String((await raw.ask(`{"id":"b","type":"ping","x":${nested(64)}}`)).message), /deeper than 64 levels/);
    raw.close();
  });
});

describe('frame scanning', () => {
  it('measures depth iteratively, skipping strings and escapes', () => {
    assert.equal(nestsDeeperThan(nested(64), 64), false);
    assert.equal(nestsDeeperThan(nested(65), 64), true);
    assert.equal(nestsDeeperThan(nested(1_000_000), 64), true);
    assert.equal(nestsDeeperThan('{"a":"\\"[[[[[["}', 1), false);
  });

  it('peeks only a top-level string id', () => {
    assert.equal(peekRequestId('{"type":"x","id":"abc"}'), 'abc');
    assert.equal(peekRequestId(' { "id" : "a\\u0062" , "type":1}'), 'ab');
    assert.equal(peekRequestId('{"params":{"id":"inner"},"type":"x"}'), null);
    assert.equal(peekRequestId('{"id":42}'), null);
    assert.equal(peekRequestId('{"id":""}'), null);
    assert.equal(peekRequestId('[1,2]'), null);
    assert.equal(peekRequestId('{"x":"id","id":"real"}'), 'real');
  });
});
