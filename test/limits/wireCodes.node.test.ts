// The limit codes travel the wire as themselves: a Host's LimitExceededError becomes an error frame
// with its code and retryAfterMs, and the browser client rejects with the same code, once (no retry).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { LimitExceededError, WIRE_ERROR_CODES } from '../../protocol/index.js';
import { TransportError } from '../../transport/types.js';
import { createWebSocketServer } from '../../transport/ws/server.js';
import { connectClient, rawSocket } from '../transport/helpers.js';

it('a LimitExceededError reaches the client as its own code, with retryAfterMs, and is not retried', async (t) => {
  const host = createHost({ store: createMemoryStore() });
  let opens = 0;
  const limited: typeof host = {
    ...host,
    as: (principal) => ({
      ...host.as(principal),
      openSession() {
        opens++;
        throw new LimitExceededError('quota-exceeded', 'sessions', 'you already have 3 sessions (at most 3)', 1234);
      },
    }),
  };
  const server = await createWebSocketServer({ host: limited, port: 0, heartbeatMs: 0, authenticate: () => ({ id: 'p' }) });
  t.after(() => server.close());
  const raw = await rawSocket(server.port);
  t.after(() => raw.close());
  const frame = await raw.ask(JSON.stringify({ id: 'r1', type: 'session.open', params: {} }));
  assert.deepEqual(frame, {
    type: 'error',
    id: 'r1',
    code: 'quota-exceeded',
    message: 'you already have 3 sessions (at most 3)',
    retryAfterMs: 1234,
  });

  const client = connectClient(server.port);
  t.after(() => client.dispose());
  const error = await client.openSession().then(
    () => assert.fail('opened past the quota'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof TransportError);
  assert.equal(error.code, 'quota-exceeded');
  assert.equal(error.retryAfterMs, 1234);
  assert.equal(opens, 2, 'one call from each socket: the client did not retry it');
  for (const code of ['quota-exceeded', 'too-busy', 'too-many-connections'])
    assert.ok((WIRE_ERROR_CODES as readonly string[]).includes(code));
});
