// A peer's frames are read by the wire schema, like any server's: a malformed answer reaches the
// client as a server-error, never as whatever the peer sent.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { SYSTEM_PRINCIPAL } from '../../protocol/index.js';
import { DEFAULT_PEER_LIMITS, Peers } from '../../transport/cluster/peers.js';
import { challengeFor } from '../../transport/cluster/handshake.js';
import { PEER_HEADER } from '../../transport/ws/peerWire.js';

describe('cluster peers: frames', () => {
  it('answers a request whose peer replied with a malformed frame with server-error', async () => {
    const fake = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => fake.once('listening', r));
    const secret = '0123456789abcdef0123';
    let url = '';
    fake.on('connection', (socket, request) => {
      socket.send(challengeFor(Buffer.from(secret), String(request.headers[PEER_HEADER]), url).challenge);
      socket.once('message', () =>
        socket.on('message', (data) => {
          const text = String(data);
          const prefix = text.slice(0, text.indexOf(' ') + 1);
          const { id } = JSON.parse(text.slice(prefix.length)) as { id: string };
          socket.send(
            prefix + JSON.stringify({ type: 'result', id, result: 'ok', extra: { __proto__: 1 } }).replace('"result"', '"resul"'),
          );
        }),
      );
    });
    const peers = new Peers(secret, DEFAULT_PEER_LIMITS);
    after(() => {
      peers.close();
      fake.close();
    });
    url = `ws://127.0.0.1:${(fake.address() as { port: number }).port}`;
    const answer = await peers.connection(url)!.request(SYSTEM_PRINCIPAL, { id: 'r1', type: 'ping', params: {} });
    assert.equal(answer.type, 'error');
    assert.equal((answer as { code: string }).code, 'server-error');
    assert.match((answer as { message: string }).message, /malformed/);
  });
});
