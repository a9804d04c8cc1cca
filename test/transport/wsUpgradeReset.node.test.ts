// A client that resets its connection while the server is still deciding who it is (a slow
// `authenticate`, e.g. a session lookup) must not take the server down with it.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { connect } from 'node:net';
import { it } from 'node:test';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';
import { rawSocket } from './helpers.js';

it('survives a client that resets its upgrade while authenticate runs, and serves the next one', async (t) => {
  const waiting: ((principal: { id: string } | null) => void)[] = [];
  const asked = new EventEmitter();
  const server = await createWebSocketServer({
    host: createFakeHost(),
    authenticate: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        asked.emit('authenticate');
      }),
  });
  t.after(() => {
    for (const answer of waiting) answer(null);
  });
  closeWhenDone(t, server);
  const crashed: unknown[] = [];
  const onCrash = (error: unknown) => crashed.push(error);
  process.on('uncaughtException', onCrash);
  t.after(() => process.off('uncaughtException', onCrash));
  const upgrade =
    `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
  const authenticating = once(asked, 'authenticate');
  const attacker = connect(server.port, '127.0.0.1', () => attacker.write(upgrade));
  await authenticating;
  attacker.resetAndDestroy();
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(crashed, [], 'no error escaped the server');
  waiting[0]!(null); // the identity check ends after the client left: nothing to answer
  const again = once(asked, 'authenticate');
  const next = rawSocket(server.port);
  await again;
  waiting[1]!({ id: 'alice' });
  const raw = await next;
  t.after(() => raw.close());
  assert.equal((await raw.ask('{"id":"p","type":"ping"}')).type, 'result');
});
