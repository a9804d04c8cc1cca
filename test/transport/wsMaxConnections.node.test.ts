// `maxConnections` at its default, 10,000, reached for real: a child process opens 10,000 upgrades
// (its own file descriptors: one process may not hold both ends of 10,000 sockets here) and the
// server holds each in `authenticate`, where a slow identity check keeps it counted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { it } from 'node:test';
import { connect } from 'node:net';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';

/** An HTTP upgrade request to `port`, as a browser sends it. */
const upgradeRequest = (port: number) =>
  `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

/** Opens argv[1] upgrades (request text argv[2]) to port argv[0], and holds them until killed. */
const opener = `
const net = require('node:net');
const [port, count, request] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]];
// In batches, so the listen backlog never overflows.
const batch = (from) => {
  const to = Math.min(count, from + 200);
  let done = from;
  for (let i = from; i < to; i++) {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request, () => {
      if (++done === to && to < count) batch(to);
    }));
    // Held upgrades get no answer while the test runs: one answered (refused) ends the child.
    socket.on('data', (data) => { console.error(String(data).split('\\r\\n')[0]); process.exit(1); });
    socket.on('error', (error) => { console.error(error.message); process.exit(1); });
  }
};
batch(0);
`;

// Its own timeout: 10,000 TCP connections take 3 to 15 s on a shared two-core machine.
it('holds 10,000 connections (counting upgrades still authenticating) and answers the next one 503', { timeout: 120_000 }, async (t) => {
  let authenticating = 0;
  const pending: ((principal: null) => void)[] = [];
  let reached!: () => void;
  const allIn = new Promise<void>((resolve) => (reached = resolve));
  const server = await createWebSocketServer({
    host: createFakeHost(),
    // Answers only when the test ends: each upgrade stays counted, as behind a slow identity service.
    authenticate: () => {
      if (++authenticating === 10_000) reached();
      if (authenticating > 10_000) return null; // let in past the cap: refused at once (401), so the test fails fast
      return new Promise((resolve) => pending.push(resolve));
    },
    // Every socket comes from 127.0.0.1 here: not counted per address (its own cap is 64).
    remoteAddress: () => null,
  });
  const child = spawn(process.execPath, ['-e', opener, String(server.port), '10000', upgradeRequest(server.port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Before the server closes: the child's sockets go, and every held upgrade is refused.
  t.after(() => {
    child.kill();
    for (const refuse of pending) refuse(null);
  });
  closeWhenDone(t, server);
  const exited = once(child, 'exit').then(() => assert.fail('the child that holds the sockets stopped'));
  await Promise.race([allIn, exited]);
  assert.equal(authenticating, 10_000, 'none of the 10,000 was refused');
  // The 10,001st, as a browser's upgrade: what comes back before the server closes the socket.
  const answer = await new Promise<string>((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(upgradeRequest(server.port)));
    let text = '';
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('error', () => {}); // the server may reset it once answered
    socket.on('close', () => resolve(text));
  });
  assert.match(answer, /^HTTP\/1\.1 503 /);
  assert.match(answer, /at most 10000 connections/);
  assert.equal(authenticating, 10_000, 'refused before authenticate runs');
});
