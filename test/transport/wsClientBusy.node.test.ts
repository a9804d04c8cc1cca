// The browser client gives up on `busy`: a request the server keeps answering busy is sent again at
// most `busyRetries` times (8 by default), after growing waits, then rejects with code `busy`; a watch
// is reported to `onWatchFailed`. So a page never waits forever on a server that cannot answer.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { WebSocketServer } from 'ws';
import { TransportError } from '../../transport/types.js';
import { BUSY_MAX_DELAY_MS } from '../../transport/ws/client.js';
import { connectClient, sid, until } from './helpers.js';

/** A server that answers `busy` (retry after `retryAfterMs`) to the first `busyFor` frames of each id, else an empty list or `watching`. */
async function busyServer(t: TestContext, retryAfterMs: number, busyFor = Infinity) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  t.after(() => {
    for (const client of wss.clients) client.terminate();
    return new Promise((r) => wss.close(r));
  });
  const seen = new Map<string, number[]>();
  wss.on('connection', (socket) =>
    socket.on('message', (data) => {
      const { id, type } = JSON.parse(String(data)) as { id: string; type: string };
      const key = type === 'session.watch' ? 'watch' : id;
      const times = seen.get(key) ?? [];
      seen.set(key, [...times, Date.now()]);
      if (times.length < busyFor) {
        socket.send(JSON.stringify({ type: 'error', id, code: 'busy', message: 'the session is changing owner', retryAfterMs }));
      } else socket.send(JSON.stringify({ type: 'result', id, result: type === 'session.watch' ? 'watching' : [] }));
    }),
  );
  return { port: (wss.address() as { port: number }).port, seen };
}

describe('the client and busy', () => {
  it('by default retries 8 times with growing waits, then rejects with code busy', async (t) => {
    const server = await busyServer(t, 20);
    const client = connectClient(server.port, { heartbeatMs: 0 });
    t.after(() => client.dispose());
    const error = await client.listSessions().then(
      () => assert.fail('answered'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof TransportError);
    assert.equal(error.code, 'busy');
    assert.match(error.message, /^the server stayed busy after 8 retries: the session is changing owner$/);
    const [times] = [...server.seen.values()];
    assert.equal(times!.length, 9, 'the first send and 8 retries');
    const waits = times!.slice(1).map((at, i) => at - times![i]!);
    // Each wait is at least the server's retryAfterMs and half the doubled ceiling.
    waits.forEach((wait, i) => assert.ok(wait >= Math.min(BUSY_MAX_DELAY_MS, 20 * 2 ** i) / 2 - 5, `wait ${i}: ${wait} ms`));
    assert.ok(waits.at(-1)! > waits[0]! * 4, `the waits grow: ${waits.join(', ')}`);
  });

  it('follows busyRetries, and answers once the server does within them', async (t) => {
    const server = await busyServer(t, 10);
    const client = connectClient(server.port, { heartbeatMs: 0, busyRetries: 2 });
    t.after(() => client.dispose());
    await assert.rejects(client.listSessions(), (e: unknown) => e instanceof TransportError && e.code === 'busy');
    assert.equal([...server.seen.values()][0]!.length, 3);

    const patient = await busyServer(t, 10, 3);
    const other = connectClient(patient.port, { heartbeatMs: 0 });
    t.after(() => other.dispose());
    assert.deepEqual(await other.listSessions(), []);
    assert.equal([...patient.seen.values()][0]!.length, 4, 'answered on the third retry');
  });

  it('reports a watch the server keeps answering busy, and asks again on the next reconnect', async (t) => {
    const server = await busyServer(t, 10);
    const client = connectClient(server.port, { heartbeatMs: 0, busyRetries: 3 });
    t.after(() => client.dispose());
    const failed: { sessionId: string; code: string }[] = [];
    client.onWatchFailed((sessionId, error) => failed.push({ sessionId, code: error.code }));
    client.watchSession(sid('s1'), () => {});
    await until(() => failed.length > 0);
    assert.deepEqual(failed, [{ sessionId: 's1', code: 'busy' }]);
    assert.equal(server.seen.get('watch')!.length, 4);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(server.seen.get('watch')!.length, 4, 'no more asking until a reconnect');
  });
});
