// The ws server corks a connection's socket for one event-loop turn: an answer and the view it caused
// leave in one TCP write, each still its own frame, in order. Counted on the server's side of the socket.
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { AgentTurn } from '../../host/types.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { inTime, PICK_ONE as MODEL, rawSocket, until } from './helpers.js';
import { closeLastFirst } from '../closeWhenDone.js';

/** TCP writes made on sockets whose local port is `port` (the server's side of its connections). */
function countWrites(t: TestContext, port: () => number) {
  const counted = { writes: 0 };
  const originals = { _write: Socket.prototype._write, _writev: Socket.prototype._writev };
  for (const method of ['_write', '_writev'] as const) {
    const original = originals[method] as (...args: unknown[]) => unknown;
    Socket.prototype[method] = function (this: Socket, ...args: unknown[]) {
      if (this.localPort === port()) counted.writes++;
      return original.apply(this, args);
    } as never;
  }
  t.after(() => Object.assign(Socket.prototype, originals));
  return counted;
}

async function cycle(t: TestContext, coalesceWrites?: boolean) {
  const host = createHost({
    store: createMemoryStore(),
    driver: {
      async runTurn(turn: AgentTurn) {
        await turn.callTool('show_task_surface', { model: MODEL });
      },
    },
  });
  const opened = closeLastFirst(t);
  opened({ close: () => host.dispose() });
  const server = await createWebSocketServer({
    allowAnonymous: true,
    host,
    port: 0,
    heartbeatMs: 0,
    ...(coalesceWrites === undefined ? {} : { coalesceWrites }),
  });
  opened(server);
  const client = await rawSocket(server.port);
  opened({ close: () => client.socket.terminate() });
  const sessionId = host.openSession({ title: 'coalesce' });
  await client.ask(JSON.stringify({ id: 'w', type: 'session.watch', params: { sessionId } }));
  await client.ask(JSON.stringify({ id: 's', type: 'session.send', params: { sessionId, messageId: 'm1', rpcId: 'r1', text: 'go' } }));
  await inTime(host.whenIdle(sessionId), 'the host to be idle');
  await until(() => client.received.some((f) => f.type === 'session.view' && JSON.stringify(f).includes('"active":{')));
  await new Promise((r) => setTimeout(r, 50));
  const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId;
  const counted = countWrites(t, () => server.port);
  const from = client.received.length;
  client.socket.send(
    JSON.stringify({ id: 'a', type: 'taskSurface.submit', params: { sessionId, surfaceId, submissionId: 'sub1', values: { pick: 'a' } } }),
  );
  await inTime(host.whenIdle(sessionId), 'the host to be idle');
  await until(() => client.received.slice(from).some((f) => f.type === 'session.view'));
  await new Promise((r) => setTimeout(r, 50)); // anything written later would be counted too
  return { frames: client.received.slice(from).map((f) => f.type), writes: counted.writes };
}

describe('the frames of one event-loop turn leave in one TCP write', () => {
  it("a submit's answer and the view it caused: one write, in order (two with coalesceWrites: false)", async (t) => {
    const coalesced = await cycle(t);
    const apart = await cycle(t, false);
    assert.deepEqual(coalesced.frames, ['result', 'session.view']);
    assert.deepEqual(apart.frames, ['result', 'session.view']);
    assert.equal(coalesced.writes, 1);
    assert.equal(apart.writes, 2);
  });
});
