// Every per-address limit counts an IPv6 client by its /64 (transport/forwarded.ts `addressKey`):
// the WebSocket server's sockets per address, and the examples' requests per address. (The demo's
// connections and identities: test/demo/proxyProtocol.node.test.ts, test/demo/forwarded.node.test.ts;
// `/mcp` sessions: test/mcp/addresses.node.test.ts.)
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { it } from 'node:test';
import { createRequestLimiter } from '../../transport/door.js';
import { ConnectionCounts } from '../../transport/ws/admission.js';

it("the WebSocket server's sockets per address: one /64 is one address", () => {
  const counts = new ConnectionCounts({ perPrincipal: 16, perAddress: 2, addressOf: (request) => String(request.headers['x-client']) });
  const from = (client: string) => counts.takeAddress({ headers: { 'x-client': client } } as unknown as IncomingMessage);
  assert.equal(typeof from('2001:db8:1:2::1'), 'object');
  assert.equal(typeof from('2001:db8:1:2:aaaa::9'), 'object');
  assert.equal(from('2001:db8:1:2:ffff:ffff:ffff:ffff'), 'too-many-connections: this address already holds 2 connections (at most 2)');
  assert.equal(typeof from('2001:db8:1:3::1'), 'object', 'another /64');
});

it('requests per address: one /64 is one address; principals are counted as they are', () => {
  const perAddress = createRequestLimiter({ perSecond: 0.001, burst: 1, inFlight: 10 }, 'this address', () => 0);
  assert.ok('release' in perAddress.take('2001:db8::1'));
  assert.equal((perAddress.take('2001:db8::2') as { status: number }).status, 429);
  assert.ok('release' in perAddress.take('2001:db8:0:1::1'), 'another /64');
  const perPerson = createRequestLimiter({ perSecond: 0.001, burst: 1, inFlight: 10 }, 'this person', () => 0);
  assert.ok('release' in perPerson.take('2001:db8::1'));
  assert.ok('release' in perPerson.take('2001:db8::2'), 'a principal id is not an address');
});
