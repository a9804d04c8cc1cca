// A WebSocket server built with no options but the required ones: what a user who reads the
// documented defaults gets (each test here passes no limit of its own).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import type { LogPage, SessionEvent } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost, type FakeHost } from './fakeHost.js';
import { inTime, rawSocketFor, until } from './helpers.js';

/** A server with only `host` and `allowAnonymous`, closed when the test ends. */
async function defaultServer(t: TestContext, host: FakeHost = createFakeHost()) {
  const server = await createWebSocketServer({ host, allowAnonymous: true });
  closeWhenDone(t, server);
  return server;
}

describe('WebSocket server defaults', () => {
  it('rate-limits each connection at 100 frames a second, in bursts of 200', async (t) => {
    const server = await defaultServer(t);
    const raw = await rawSocketFor(t, server.port);
    const started = performance.now();
    for (let i = 0; i < 300; i++) raw.socket.send(JSON.stringify({ id: `p${i}`, type: 'ping' }));
    await until(() => raw.received.length === 300, 5, undefined, 'an answer to each of 300 pings');
    const refilled = Math.ceil(((performance.now() - started) * 100) / 1000);
    const limited = raw.received.filter((m) => m.code === 'rate-limited');
    // 200 at once, then 100 a second: while the 300 frames arrive, a few tokens refill.
    assert.ok(
      limited.length <= 100 && limited.length >= 100 - refilled,
      `${limited.length} of 300 rate-limited, ${refilled} tokens refilled`,
    );
    const answer = new Map(raw.received.map((m) => [m.id, m]));
    assert.ok(
      Array.from({ length: 200 }, (_, i) => answer.get(`p${i}`)).every((m) => m?.code !== 'rate-limited'),
      'the first 200 are not rate-limited',
    );
    assert.match(String(limited[0]!.message), /^too many messages: at most 100 per second \(bursts of 200\); retry in \d+ ms$/);
  });

  it('answers busy past 32 requests of one connection running at once', async (t) => {
    const host = createFakeHost();
    const server = await defaultServer(t, host);
    const raw = await rawSocketFor(t, server.port);
    const held = host.hold('send');
    t.after(() => held.release());
    const send = (id: string) =>
      raw.socket.send(JSON.stringify({ id, type: 'session.send', params: { sessionId: 's1', messageId: id, rpcId: 'r', text: 'hi' } }));
    for (let i = 0; i < 32; i++) send(`m${i}`);
    await until(() => host.calls.send === 32, 5, undefined, '32 sends running at once');
    send('m32');
    await until(() => raw.received.length === 1, 5, undefined, 'an answer to the 33rd send');
    assert.deepEqual(raw.received[0], {
      type: 'error',
      id: 'm32',
      code: 'busy',
      message: '32 requests of this connection are still running (at most 32); retry in 50 ms',
      retryAfterMs: 50,
    });
  });

  it('answers a frame over 256 KiB too-large, keeps the connection, and closes it (1009) past 320 KiB', async (t) => {
    const server = await defaultServer(t);
    const raw = await rawSocketFor(t, server.port);
    const frame = (bytes: number, id: string) => {
      const head = `{"id":"${id}","type":"ping","pad":"`;
      return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
    };
    // Exactly 256 KiB reaches the schema (which refuses the unknown field); one byte more does not.
    assert.match(String((await raw.ask(frame(256 * 1024, 'at'))).message), /unknown field "pad"/);
    assert.deepEqual(await raw.ask(frame(256 * 1024 + 1, 'over')), {
      type: 'error',
      id: 'over',
      code: 'too-large',
      message: 'message of 262145 bytes is over the limit of 262144 bytes',
    });
    // The hard cap is maxMessageBytes + 64 KiB: up to it the frame is answered, past it not read.
    assert.equal((await raw.ask(frame(320 * 1024, 'cap'))).code, 'too-large', 'up to 320 KiB the connection stays');
    const closed = new Promise<number>((resolve) => raw.socket.once('close', (code) => resolve(code)));
    raw.socket.send(frame(320 * 1024 + 1, 'cut'));
    assert.equal(await inTime(closed, 'the close of the connection after a frame over 320 KiB'), 1009);
  });

  it('lets one connection watch 256 sessions at once, not 257', async (t) => {
    const ids = Array.from({ length: 257 }, (_, i) => `s${i}`);
    const server = await defaultServer(t, createFakeHost(ids));
    const raw = await rawSocketFor(t, server.port);
    // One at a time: more than 32 requests at once would be answered busy.
    for (const id of ids.slice(0, 256)) {
      const answer = await raw.ask(JSON.stringify({ id: `w-${id}`, type: 'session.watch', params: { sessionId: id } }));
      assert.equal(answer.result, 'watching', JSON.stringify(answer));
    }
    raw.socket.send(JSON.stringify({ id: 'one-more', type: 'session.watch', params: { sessionId: 's256' } }));
    await until(() => raw.received.some((m) => m.id === 'one-more'), 5, undefined, 'an answer to the 257th watch');
    assert.deepEqual(
      raw.received.find((m) => m.id === 'one-more'),
      {
        type: 'error',
        id: 'one-more',
        code: 'bad-request',
        message: 'this connection already watches 256 sessions (at most 256); unwatch one first',
      },
    );
  });

  it('caps a log.read answer at 1 MiB: the newest events that fit, and hasMore', async (t) => {
    const host = createFakeHost();
    const server = await defaultServer(t, host);
    const raw = await rawSocketFor(t, server.port);
    const event = (seq: number) =>
      ({ seq, at: 0, type: 'assistant/message', turnId: 't', messageId: `m${seq}`, text: 'x'.repeat(300_000) }) as unknown as SessionEvent;
    // Three events of ~300 KB fit in 1 MiB, four do not.
    host.answerWith('readLog', { events: [1, 2, 3, 4, 5].map(event), hasMore: false, lastSeq: 5 } satisfies LogPage);
    const page = (await raw.ask(JSON.stringify({ id: 'a', type: 'log.read', params: { sessionId: 's1', limit: 10 } }))).result as LogPage;
    assert.deepEqual(
      page.events.map((e) => e.seq),
      [3, 4, 5],
    );
    assert.equal(page.hasMore, true);
  });

  it('allows only its own origin: another page gets HTTP 403 at the upgrade', async (t) => {
    const server = await defaultServer(t);
    const status = (origin: string) =>
      inTime(
        new Promise<number>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${server.port}`, { headers: { Origin: origin } });
          t.after(() => socket.terminate());
          socket.once('open', () => resolve(101));
          socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
          socket.once('error', reject);
        }),
        `the answer to an upgrade from ${origin}`,
      );
    assert.equal(await status(`http://127.0.0.1:${server.port}`), 101);
    assert.equal(await status('https://evil.example'), 403);
  });

  it('lets one principal hold 16 sockets and one address 64; past either the upgrade gets HTTP 429', async (t) => {
    // `authenticate` is the one option: the per-principal and per-address bounds do not apply to anonymous servers.
    const server = await createWebSocketServer({
      host: createFakeHost(),
      authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('user') ?? 'nobody' }),
    });
    closeWhenDone(t, server);
    const connect = (user: string) =>
      inTime(
        new Promise<number>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${server.port}/?user=${user}`);
          t.after(() => socket.terminate());
          socket.once('open', () => resolve(101));
          socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
          socket.once('error', reject);
        }),
        `the answer to an upgrade of ${user}`,
      );
    for (let i = 0; i < 16; i++) assert.equal(await connect('ada'), 101, `socket ${i} of ada`);
    assert.equal(await connect('ada'), 429, 'a 17th socket of one principal');
    for (let i = 0; i < 48; i++) assert.equal(await connect(`p${i}`), 101, `socket ${16 + i} of the address`);
    assert.equal(await connect('someone-else'), 429, 'a 65th socket from one address');
  });
});
