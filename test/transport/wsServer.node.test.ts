import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWebSocketServer, type TaskSurfaceWebSocketServer } from '../../transport/ws/server.js';
import { createFakeHost, type FakeHost } from './fakeHost.js';
import { rawSocketFor, until } from './helpers.js';
import { closeWhenDone } from '../closeWhenDone.js';

describe('WebSocket server: bad input', () => {
  let host: FakeHost;
  let server: TaskSurfaceWebSocketServer;
  before(async () => {
    host = createFakeHost();
    server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, maxMessageBytes: 4096, heartbeatMs: 0 });
  });
  after(() => server.close());

  it('answers text that is not JSON with a clear error and stays up', async (t) => {
    const raw = await rawSocketFor(t, server.port);
    assert.deepEqual(await raw.ask('{nope'), { type: 'error', id: null, code: 'bad-request', message: 'message is not valid JSON' });
    assert.equal((await raw.ask(JSON.stringify({ id: 'a', type: 'ping' }))).result, 'pong');
  });

  it('names the unknown message type and lists the known ones', async (t) => {
    const raw = await rawSocketFor(t, server.port);
    const answer = await raw.ask(JSON.stringify({ id: 'r1', type: 'session.delete', params: {} }));
    assert.equal(answer.id, 'r1');
    assert.equal(answer.code, 'bad-request');
    assert.match(String(answer.message), /unknown message type "session.delete"; expected one of ping, session.watch/);
  });

  it('rejects a request without an id, an array, and a binary frame', async (t) => {
    const raw = await rawSocketFor(t, server.port);
    assert.match(String((await raw.ask(JSON.stringify({ type: 'ping' }))).message), /needs a string "id"/);
    assert.match(String((await raw.ask('[1,2]')).message), /must be a JSON object/);
    assert.match(String((await raw.ask(Buffer.from('{}'))).message), /binary frames are not supported/);
  });

  it('points at the invalid field of a request and calls nothing on the host', async (t) => {
    const raw = await rawSocketFor(t, server.port);
    const answer = await raw.ask(
      JSON.stringify({
        id: 'r2',
        type: 'taskSurface.submit',
        params: { sessionId: 's1', surfaceId: 'bad id!', submissionId: 'x', values: {} },
      }),
    );
    assert.equal(answer.code, 'bad-request');
    assert.match(
      String(answer.message),
      /^invalid taskSurface.submit request: params.surfaceId: surfaceId must start with a letter or digit/,
    );
    const extra = await raw.ask(
      JSON.stringify({ id: 'r3', type: 'session.send', params: { sessionId: 's1', messageId: 'm', rpcId: 'r', text: 'hi', admin: true } }),
    );
    assert.equal(extra.message, `invalid session.send request: params: unknown field "admin"`);
    assert.equal(host.calls.submit, undefined);
    assert.equal(host.calls.send, undefined);
  });

  it('answers an oversized frame with too-large and keeps the connection', async (t) => {
    const raw = await rawSocketFor(t, server.port);
    const big = JSON.stringify({
      id: 'big',
      type: 'session.send',
      params: { sessionId: 's1', messageId: 'm', rpcId: 'r', text: 'x'.repeat(5000) },
    });
    const answer = await raw.ask(big);
    assert.equal(answer.code, 'too-large');
    assert.match(String(answer.message), /over the limit of 4096 bytes/);
    assert.equal(host.calls.send, undefined);
    assert.equal((await raw.ask(JSON.stringify({ id: 'p', type: 'ping' }))).result, 'pong');
  });

  it('answers a host failure with server-error and keeps serving', async (t) => {
    const failing = createFakeHost();
    const other = await createWebSocketServer({
      allowAnonymous: true,
      host: { ...failing, readLog: () => Promise.reject(new Error('disk on fire')) },
      port: 0,
      heartbeatMs: 0,
      onError: () => {},
    });
    closeWhenDone(t, other);
    const r = await rawSocketFor(t, other.port);
    const answer = await r.ask(JSON.stringify({ id: 'l', type: 'log.read', params: { sessionId: 's1', limit: 5 } }));
    assert.deepEqual(answer, { type: 'error', id: 'l', code: 'server-error', message: 'the host failed to handle this request' });
    assert.equal((await r.ask(JSON.stringify({ id: 'p', type: 'ping' }))).result, 'pong');
  });
});

describe('WebSocket server: policy, heartbeat, release', () => {
  it('refuses a session it may not see exactly like a missing one', async (t) => {
    const host = createFakeHost(['mine', 'theirs'], { owners: { mine: 'a', theirs: 'b' } });
    const server = await createWebSocketServer({
      host,
      port: 0,
      heartbeatMs: 0,
      // Who connects comes from the request: here a query parameter nobody sends, so nobody is 'a'.
      authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('user') ?? 'nobody' }),
    });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    const missing = await raw.ask(
      JSON.stringify({ id: '1', type: 'taskSurface.getActive', params: { sessionId: 'nosuch', surfaceId: 'f' } }),
    );
    const refused = await raw.ask(
      JSON.stringify({ id: '2', type: 'taskSurface.getActive', params: { sessionId: 'theirs', surfaceId: 'f' } }),
    );
    assert.deepEqual(
      { ...missing, id: 0, message: String(missing.message).replace('nosuch', 'X') },
      { ...refused, id: 0, message: String(refused.message).replace('theirs', 'X') },
    );
    assert.equal(refused.code, 'unknown-session');
    const list = await raw.ask(JSON.stringify({ id: '3', type: 'session.list' }));
    assert.deepEqual(list.result, []);
    assert.equal(host.calls.getActive, undefined);
  });

  it('closes a connection that stops answering pings', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 20 });
    closeWhenDone(t, server);
    const silent = await rawSocketFor(t, server.port, { autoPong: false });
    let closed = false;
    silent.socket.on('close', () => (closed = true));
    await until(() => closed, 5, undefined, 'the server closing a connection that does not answer pings');
    assert.equal(server.connectionCount, 0);
  });

  it('releases every watch when a connection closes', async (t) => {
    const host = createFakeHost();
    const server = await createWebSocketServer({ allowAnonymous: true, host, port: 0, heartbeatMs: 0 });
    closeWhenDone(t, server);
    const raw = await rawSocketFor(t, server.port);
    await raw.ask(JSON.stringify({ id: 'w1', type: 'session.watch', params: { sessionId: 's1' } }));
    await raw.ask(JSON.stringify({ id: 'w2', type: 'session.watch', params: { sessionId: 's2' } }));
    assert.equal(host.watcherCount(), 2);
    raw.close();
    await until(() => host.watcherCount() === 0);
  });
});
