// The server's retry cache answers a re-sent mutation with its first answer only when it is the same
// request: the same principal, the same id and the same parameters.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { mintMessageId, mintRpcId } from '../../protocol/index.js';
import { unreachable } from '../../transport/cluster/peers.js';
import { createWebSocketServer } from '../../transport/ws/server.js';

describe('WebSocket server: the retry cache', () => {
  it('is keyed by principal and a fingerprint of the parameters, not the request id alone', async () => {
    // Everyone may write every session here, so two people can aim the same id at the same session.
    const host = createHost({ store: createMemoryStore(), policy: () => 'write' });
    const sessionId = host.openSession({ title: 'Shared' });
    const server = await createWebSocketServer({
      host,
      port: 0,
      heartbeatMs: 0,
      authenticate: (request) => ({ id: String(request.headers['x-user']), name: 'x' }),
    });
    after(async () => {
      await server.close();
      await host.dispose();
    });
    const open = async (user: string) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}`, { headers: { 'x-user': user } });
      await new Promise((r) => socket.once('open', r));
      after(() => socket.terminate());
      return (frame: object) =>
        new Promise<{ type: string; result?: unknown }>((resolve) => {
          socket.once('message', (data) => resolve(JSON.parse(String(data))));
          socket.send(JSON.stringify(frame));
        });
    };
    const alice = await open('alice');
    const bob = await open('bob');
    const send = (text: string, messageId = mintMessageId()) => ({
      id: 'same-id',
      type: 'session.send',
      params: { sessionId, messageId, rpcId: mintRpcId(), text },
    });
    const first = send('from alice');
    assert.equal((await alice(first)).type, 'result');
    assert.equal((await alice(first)).type, 'result', 'a true retry is answered');
    assert.equal((await alice(send('alice again'))).type, 'result');
    assert.equal((await bob(send('from bob'))).type, 'result');
    await host.whenIdle(sessionId);
    const texts = (await host.readLog(sessionId, { limit: 1_000 })).events.flatMap((e) => (e.type === 'user/message' ? [e.text] : []));
    assert.deepEqual(texts.sort(), ['alice again', 'from alice', 'from bob'], 'each ran once; none was answered with another one');
  });

  it("never puts a peer's address in an error a client sees", () => {
    const answer = unreachable('r1');
    assert.equal(answer.type, 'error');
    assert.ok(!JSON.stringify(answer).includes('ws://'));
  });
});
