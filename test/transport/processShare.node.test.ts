// A per-address limit held by several processes behind a balancer (`processes`, transport/share.ts):
// each holds ceil(limit / processes) and its refusals name the share and the total; one process
// words them as it always has. (`/mcp`'s sessions and rate: test/mcp/httpProcesses.node.test.ts.)
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createRequestLimiter } from '../../transport/door.js';
import { processCount, processShare } from '../../transport/share.js';
import type { WebSocketServerOptions } from '../../transport/ws/server.js';
import { refusedUpgrade, serverFor, socketFor } from './limitRules.js';

const refusal = (reason: string) =>
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
  `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`;

describe('one process’s share of a per-address limit', () => {
  it('is ceil(limit / processes), the limit itself for one process', () => {
    assert.deepEqual(
      [processShare(64, 3), processShare(200, 3), processShare(400, 3), processShare(64, 16), processShare(6, 3)],
      [22, 67, 134, 4, 2],
    );
    assert.equal(processShare(0.5, 1), 0.5, 'one process: a fractional rate is left as it is');
    assert.equal(processShare(Infinity, 3), Infinity);
  });

  it('counts processes that are not a positive integer as one', () => {
    assert.deepEqual([undefined, 0, -2, 1.5, 3].map(processCount), [1, 1, 1, 1, 3]);
  });

  it('a request limiter takes its share of the rate and burst, and says so', () => {
    const limiter = createRequestLimiter({ perSecond: 200, burst: 400, inFlight: Infinity, processes: 3 }, 'this address', () => 0);
    for (let i = 0; i < 134; i++) assert.ok('release' in limiter.take('10.0.0.1'), `request ${i + 1} of the burst of 134`);
    assert.deepEqual(limiter.take('10.0.0.1'), {
      status: 429,
      retryAfterS: 1,
      message:
        'too many requests: this address may send 67 a second (bursts of 134) to this process: its share of the 200 a second (bursts of 400) one address may send across 3 processes; retry in 1 s',
    });
    const alone = createRequestLimiter({ perSecond: 1, burst: 1, inFlight: Infinity }, 'this address', () => 0);
    alone.take('10.0.0.1');
    assert.equal(
      (alone.take('10.0.0.1') as { message: string }).message,
      'too many requests: this address may send 1 a second (bursts of 1); retry in 1 s',
    );
  });
});

describe('the WebSocket server with `processes`', () => {
  /** What a third socket from one address is answered, two held, on a server with `options`. */
  const thirdSocket = async (t: TestContext, options: Partial<WebSocketServerOptions>) => {
    const server = await serverFor(t, { allowAnonymous: false, authenticate: () => ({ id: 'alice' }), ...options });
    for (let i = 0; i < 2; i++) await socketFor(t, server.port);
    return refusedUpgrade(t, server.port);
  };

  it('holds its share of one address’s sockets and refuses the next in words, with its Content-Length', async (t) => {
    assert.equal(
      await thirdSocket(t, { maxConnectionsPerAddress: 6, processes: 3 }),
      refusal(
        'too-many-connections: this address already holds 2 connections on this process (at most 2: its share of the 6 one address may hold across 3 processes)',
      ),
    );
  });

  it('one process (the default) holds the whole limit and words it as ever', async (t) => {
    assert.equal(
      await thirdSocket(t, { maxConnectionsPerAddress: 2 }),
      refusal('too-many-connections: this address already holds 2 connections (at most 2)'),
    );
  });
});
