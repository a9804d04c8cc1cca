// A principal with read access cannot record a card's "Not now": over the WebSocket transport the
// act is refused `read-only` and the log gains nothing; the owner still can.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryPageStore, createPageKind } from '../../host/actionCards/kinds/index.js';
import { createMemoryStore } from '../../host/store/memory.js';
import type { CallId } from '../../protocol/index.js';
import { mintMessageId, mintRpcId } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { pageArgs } from '../action-cards/helpers.js';
import { connectClient } from '../transport/helpers.js';

it('a reader is refused "Not now" with read-only; the owner may dismiss', async (t) => {
  let callId: CallId | undefined;
  const host = createHost({
    store: createMemoryStore(),
    policy: (principal, session) => (session.owner === principal.id ? 'write' : principal.id === 'reader' ? 'read' : 'none'),
    driver: {
      async runTurn(turn) {
        turn.step();
        await turn.callTool('skill', { name: 'create-page' });
        callId = (await turn.callTool('propose_action', pageArgs())).callId;
      },
    },
  });
  t.after(() => host.dispose());
  host.actionCards.register(createPageKind({ pages: createMemoryPageStore() }));
  const owner = host.as({ id: 'owner' });
  const sessionId = owner.openSession();
  await owner.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'plan' });
  await host.whenIdle(sessionId);
  assert.ok(callId);

  const server = await createWebSocketServer({
    host,
    port: 0,
    heartbeatMs: 0,
    authenticate: (request) => ({ id: new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? 'nobody' }),
  });
  t.after(() => server.close());
  const reader = connectClient(server.port, { url: `ws://127.0.0.1:${server.port}/?as=reader` });
  t.after(() => reader.dispose());
  const before = host.getView(sessionId).lastSeq;
  assert.deepEqual(await reader.actionCards.act({ sessionId, callId, verb: 'dismiss' }), { status: 'refused', reason: 'read-only' });
  assert.equal(host.getView(sessionId).lastSeq, before, 'nothing was recorded');

  const mine = connectClient(server.port, { url: `ws://127.0.0.1:${server.port}/?as=owner` });
  t.after(() => mine.dispose());
  assert.deepEqual(await mine.actionCards.act({ sessionId, callId, verb: 'dismiss' }), { status: 'accepted', phase: 'dismissed' });
});
