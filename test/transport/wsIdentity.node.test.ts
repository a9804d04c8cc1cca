import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { createHost } from '../../host/createHost.js';
import type { SessionPolicy } from '../../host/principal.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { mintMessageId, mintRpcId, type Principal } from '../../protocol/index.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { createFakeHost } from './fakeHost.js';
import { closeWhenDone } from '../closeWhenDone.js';

/** A bearer token per user, as a product's own sign-in would hand out. */
const TOKENS: Record<string, Principal> = { 'token-alice': { id: 'alice' }, 'token-bob': { id: 'bob' } };
const bearer = (request: IncomingMessage): Principal | null => TOKENS[request.headers.authorization?.replace(/^Bearer /, '') ?? ''] ?? null;

/** Opens a raw socket with these headers: its ask() or the refused upgrade's HTTP status. */
function connect(port: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number } | { ask(frame: object): Promise<Record<string, unknown>>; close(): void }>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers });
    const answers: Record<string, unknown>[] = [];
    const waiting: (() => void)[] = [];
    socket.on('message', (data) => {
      answers.push(JSON.parse(String(data)) as Record<string, unknown>);
      waiting.shift()?.();
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body } as { status: number }));
    });
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        async ask(frame) {
          const before = answers.length;
          socket.send(JSON.stringify(frame));
          while (answers.length <= before) await new Promise<void>((r) => waiting.push(r));
          return answers[before]!;
        },
        close: () => socket.close(),
      }),
    );
  });
}

/** A real host served with bearer identities, closed when the test ends (its sockets with it), whatever happens. */
async function setup(t: TestContext, policy?: SessionPolicy) {
  const host = createHost({ store: createMemoryStore(), ...(policy ? { policy } : {}) });
  const errors: unknown[] = [];
  const server = await createWebSocketServer({ host, port: 0, heartbeatMs: 0, authenticate: bearer, onError: (e) => errors.push(e) });
  closeWhenDone(t, {
    async close() {
      await server.close();
      await host.dispose();
    },
  });
  return { host, server, errors };
}

describe('WebSocket server: who is connecting', () => {
  it('refuses to start without authenticate unless allowAnonymous is given', async () => {
    await assert.rejects(createWebSocketServer({ host: createFakeHost(), port: 0 }), /pass `authenticate`.*or.*`allowAnonymous: true`/);
  });

  it('refuses a connection without a valid identity with HTTP 401 before the upgrade', async (t) => {
    const h = await setup(t);
    assert.deepEqual(await connect(h.server.port), { status: 401, body: 'who is connecting is not known: sign in first' });
    assert.equal(((await connect(h.server.port, { Authorization: 'Bearer forged' })) as { status: number }).status, 401);
    assert.equal(h.server.connectionCount, 0);
  });

  it('answers an authenticate that throws, or that answers no principal, with 401 and reports it', async (t) => {
    const host = createFakeHost();
    const errors: unknown[] = [];
    let answer: () => unknown = () => {
      throw new Error('identity provider down');
    };
    const server = await createWebSocketServer({
      host,
      port: 0,
      heartbeatMs: 0,
      onError: (e) => errors.push(e),
      authenticate: async () => answer() as Principal,
    });
    closeWhenDone(t, server);
    assert.equal(((await connect(server.port)) as { status: number }).status, 401);
    answer = () => ({ id: '' });
    assert.equal(((await connect(server.port)) as { status: number }).status, 401);
    assert.equal(errors.length, 2);
    assert.match(String(errors[1]), /not a principal: id: principal id must not be empty/);
  });

  it('each connection acts as its principal: owns what it opens, sees only its own, records who sent', async (t) => {
    const h = await setup(t);
    const alice = await connect(h.server.port, { Authorization: 'Bearer token-alice' });
    const bob = await connect(h.server.port, { Authorization: 'Bearer token-bob' });
    assert.ok('ask' in alice && 'ask' in bob);
    const opened = await alice.ask({ id: 'o', type: 'session.open', params: { title: 'Alice’s' } });
    const sessionId = (opened.result as { sessionId: string }).sessionId;
    assert.deepEqual((await alice.ask({ id: 'l', type: 'session.list' })).result, [{ sessionId, title: 'Alice’s', lastSeq: 1 }]);
    assert.deepEqual((await bob.ask({ id: 'l', type: 'session.list' })).result, []);
    const send = { id: 's', type: 'session.send', params: { sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'hi' } };
    assert.deepEqual(await bob.ask(send), { type: 'error', id: 's', code: 'unknown-session', message: `unknown session "${sessionId}"` });
    assert.equal(((await alice.ask(send)).result as { accepted: boolean }).accepted, true);
    await h.host.whenIdle();
    const events = (await h.host.readLog(sessionId as never, { limit: 10 })).events;
    assert.deepEqual(events[0] && { type: events[0].type, owner: 'owner' in events[0] ? events[0].owner : undefined }, {
      type: 'session/opened',
      owner: 'alice',
    });
    const message = events.find((e) => e.type === 'user/message');
    assert.equal(message?.type === 'user/message' && message.source.by, 'alice');
    alice.close();
    bob.close();
  });

  it('asks the policy the same way for a missing and a refused session (call order), answering both unknown-session', async (t) => {
    const calls: string[] = [];
    const h = await setup(t, (principal, session) => {
      calls.push(`${principal.id} ${session.sessionId} ${session.owner}`);
      return session.owner === principal.id ? 'write' : 'none';
    });
    const alicesSession = h.host.as({ id: 'alice' }).openSession();
    const bob = await connect(h.server.port, { Authorization: 'Bearer token-bob' });
    assert.ok('ask' in bob);
    const answers: Record<string, unknown>[] = [];
    for (const sessionId of [alicesSession, 'missing']) {
      calls.length = 0;
      const answer = await bob.ask({ id: 'r', type: 'log.read', params: { sessionId, limit: 5 } });
      answers.push({ ...answer, message: String(answer.message).replace(sessionId, 'X') });
      assert.deepEqual(calls, [`bob ${sessionId} ${sessionId === 'missing' ? null : 'alice'}`]);
    }
    assert.deepEqual(answers[0], answers[1]);
    assert.equal(answers[0]!.code, 'unknown-session');
    bob.close();
  });
});
