// A socket that claims to be a cluster peer counts against its address's connection cap until it has
// proved itself: claimed peers that never answer their challenge cannot take an address's slots for
// free, and a proven peer's slot is given back.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { createWebSocketServer, PEER_HEADER } from '../../transport/ws/server.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { createFakeHost } from './fakeHost.js';
import { provingCluster } from './limitRules.js';

/** Opens a socket; its upgrade status (101 when it opened) and, once open, the first frame it got. */
async function open(t: TestContext, port: number, headers: Record<string, string>) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers });
  t.after(() => socket.terminate());
  socket.on('error', () => {});
  const first = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))));
  const status = await new Promise<number>((resolve) => {
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => resolve(101));
  });
  return { socket, status, first };
}

describe('claimed peers and the per-address cap', () => {
  it('counts a claimed peer against its address until it proves itself', async (t) => {
    const server = await createWebSocketServer({
      host: createFakeHost(),
      port: 0,
      heartbeatMs: 0,
      authenticate: () => ({ id: 'alice' }),
      maxConnectionsPerAddress: 2,
      cluster: provingCluster,
    });
    closeWhenDone(t, server);
    const peer = { [PEER_HEADER]: 'n'.repeat(22) };
    const silent = await open(t, server.port, peer);
    const proving = await open(t, server.port, peer);
    assert.deepEqual([silent.status, proving.status], [101, 101]);
    assert.equal(await proving.first, 'prove it');
    // Two claims hold both slots: an ordinary client is refused.
    assert.equal((await open(t, server.port, {})).status, 429);
    // A proven peer gives its slot back.
    proving.socket.send('ok');
    await new Promise((r) => setTimeout(r, 100));
    const client = await open(t, server.port, {});
    assert.equal(client.status, 101);
    assert.equal((await open(t, server.port, {})).status, 429, 'the silent claim still holds its slot');
  });
});
