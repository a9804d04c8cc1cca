// An operator who passes a limit that is not a positive integer (0, -1, 2.5, a typo's NaN) gets the
// documented default, not a server that refuses everything or nothing: each is observed at the default.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { LogPage } from '../../protocol/index.js';
import { createFakeHost } from './fakeHost.js';
import { eventOfBytes, refusedUpgrade, serverFor, serverUnsentBytes, socketFor } from './limitRules.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('a limit that is not a positive integer means its default', () => {
  it('maxInFlight 0: 32 requests run at once, the 33rd is busy', async (t) => {
    const host = createFakeHost();
    const server = await serverFor(t, { host, maxInFlight: 0 });
    const raw = await socketFor(t, server.port);
    const held = host.hold('send');
    t.after(() => held.release());
    const send = (id: string) =>
      JSON.stringify({ id, type: 'session.send', params: { sessionId: 's1', messageId: id, rpcId: 'r', text: 'hi' } });
    for (let i = 0; i < 32; i++) raw.socket.send(send(`m${i}`));
    assert.deepEqual(await raw.ask(send('m32')), {
      type: 'error',
      id: 'm32',
      code: 'busy',
      message: '32 requests of this connection are still running (at most 32); retry in 50 ms',
      retryAfterMs: 50,
    });
    assert.equal(host.calls.send, 32);
  });

  it('maxWatches -1: 256 sessions watched at once, not 257', async (t) => {
    const ids = Array.from({ length: 257 }, (_, i) => `s${i}`);
    const server = await serverFor(t, { host: createFakeHost(ids), maxWatches: -1, rateLimit: false });
    const raw = await socketFor(t, server.port);
    const watch = (sessionId: string) => raw.ask(JSON.stringify({ id: `w-${sessionId}`, type: 'session.watch', params: { sessionId } }));
    for (const id of ids.slice(0, 256)) {
      const answer = await watch(id);
      assert.equal(answer.result, 'watching', JSON.stringify(answer));
    }
    assert.deepEqual(await watch('s256'), {
      type: 'error',
      id: 'w-s256',
      code: 'bad-request',
      message: 'this connection already watches 256 sessions (at most 256); unwatch one first',
    });
  });

  it('maxLogPageBytes 0: a log.read answer holds 1 MiB (two events of 512 KiB)', async (t) => {
    const host = createFakeHost();
    const server = await serverFor(t, { host, maxLogPageBytes: 0 });
    const raw = await socketFor(t, server.port);
    const events = [eventOfBytes(1, 512 * 1024), eventOfBytes(2, 512 * 1024)];
    host.answerWith('readLog', { events, hasMore: false, lastSeq: 2 } satisfies LogPage);
    const page = (await raw.ask(JSON.stringify({ id: 'a', type: 'log.read', params: { sessionId: 's1', limit: 10 } }))).result as LogPage;
    assert.deepEqual(
      page.events.map((e) => e.seq),
      [1, 2],
    );
    assert.equal(page.hasMore, false);
  });

  it('maxDepth 2.5: 64 levels are read, 65 are bad-request', async (t) => {
    const server = await serverFor(t, { maxDepth: 2.5 });
    const raw = await socketFor(t, server.port);
    // The frame is level 1: `x` holding 63 nested arrays is 64 levels, and reaches the schema.
    assert.deepEqual(await raw.ask(`{"id":"a","type":"ping","x":${nested(63)}}`), {
      type: 'error',
      id: 'a',
      code: 'bad-request',
      message: 'invalid ping request: unknown field "x"',
    });
    assert.deepEqual(await raw.ask(`{"id":"b","type":"ping","x":${nested(64)}}`), {
      type: 'error',
      id: 'b',
      code: 'bad-request',
      message: 'message nests arrays and objects deeper than 64 levels',
    });
  });

  it('maxFrameBytes 0: frames up to maxMessageBytes + 64 KiB are answered, larger ones close (1009)', async (t) => {
    const server = await serverFor(t, { maxMessageBytes: 1024, maxFrameBytes: 0 });
    const raw = await socketFor(t, server.port);
    const frame = (bytes: number, id: string) => {
      const head = `{"id":"${id}","type":"ping","pad":"`;
      return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
    };
    assert.deepEqual(await raw.ask(frame(1024 + 64 * 1024, 'cap')), {
      type: 'error',
      id: 'cap',
      code: 'too-large',
      message: 'message of 66560 bytes is over the limit of 1024 bytes',
    });
    raw.socket.send(frame(1024 + 64 * 1024 + 1, 'cut'));
    assert.equal((await raw.closed).code, 1009);
  });

  it('maxBufferedBytes -1: a connection is closed (4008) past 4 MiB unsent, not at it', async (t) => {
    const unsent = serverUnsentBytes(t, 4 * 1024 * 1024);
    const server = await serverFor(t, { maxBufferedBytes: -1 });
    const raw = await socketFor(t, server.port);
    assert.deepEqual(await raw.ask('{"id":"p1","type":"ping"}'), { type: 'result', id: 'p1', result: 'pong' });
    unsent.set(4 * 1024 * 1024 + 1);
    raw.socket.send('{"id":"p2","type":"ping"}');
    assert.deepEqual(await raw.closed, { code: 4008, reason: 'not reading: over 4194304 bytes unsent' });
  });

  it('maxFragmentedMs 0: an unfinished message is closed (1008) at the check 10 s after the first that saw it', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const server = await serverFor(t, { maxFragmentedMs: 0 });
    const raw = await socketFor(t, server.port);
    const roundTrip = () =>
      Promise.race([raw.closed, new Promise<'open'>((resolve) => (raw.socket.once('pong', () => resolve('open')), raw.socket.ping()))]);
    raw.socket.send('{"id":"p1","type":', { fin: false });
    assert.equal(await roundTrip(), 'open');
    t.mock.timers.tick(1_000);
    t.mock.timers.tick(9_999);
    assert.equal(await roundTrip(), 'open');
    t.mock.timers.tick(1);
    assert.deepEqual(await roundTrip(), { code: 1008, reason: 'a message was not finished within 10000 ms' });
  });

  it('maxConnections 0: connections open', async (t) => {
    const server = await serverFor(t, { maxConnections: 0 });
    for (let i = 0; i < 3; i++) assert.equal(await refusedUpgrade(t, server.port), 'HTTP/1.1 101 Switching Protocols');
  });

  it('maxConnectionsPerPrincipal 0 and maxConnectionsPerAddress -1: 16 sockets a principal, 64 an address (HTTP 429 past them)', async (t) => {
    const server = await serverFor(t, {
      allowAnonymous: false,
      authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? 'x' }),
      maxConnectionsPerPrincipal: 0,
      maxConnectionsPerAddress: -1,
    });
    const connect = (as: string) =>
      new Promise<true>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${server.port}/?as=${as}`);
        t.after(() => socket.terminate());
        socket.once('open', () => resolve(true));
        socket.once('error', reject);
      });
    for (let i = 0; i < 16; i++) await connect('ada');
    const tooMany = (body: string) =>
      `HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    assert.equal(
      await refusedUpgrade(t, server.port, '/?as=ada'),
      tooMany('too-many-connections: this principal already holds 16 connections (at most 16); close one first'),
    );
    for (let i = 0; i < 48; i++) await connect(`p${i}`);
    assert.equal(
      await refusedUpgrade(t, server.port, '/?as=new'),
      tooMany('too-many-connections: this address already holds 64 connections (at most 64)'),
    );
  });
});
