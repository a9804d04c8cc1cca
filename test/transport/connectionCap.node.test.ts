// The HTTP servers' connection bounds (transport/door.ts): each address's, and all connections
// whoever opened them, so many addresses (an IPv6 attacker has a /64 to spare for each) cannot make
// a server hold more than `total`. Past the address's share 429, past the total 503, each closed
// before anything of it is read; a closed connection gives its place back.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { capConnections, MAX_CONNECTIONS } from '../../transport/door.js';

/** Opens a connection and sends one request; resolves with what came back first (or '' while held open). */
function open(port: number): Promise<{ socket: Socket; first: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const first = new Promise<string>((done) => {
        let text = '';
        socket.on('data', (chunk) => (text += String(chunk)));
        socket.on('close', () => done(text));
      });
      resolve({ socket, first });
    });
    socket.once('error', reject);
  });
}

describe('connection caps on an HTTP server', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  const serve = async (perAddress: number, total: number, addressOf: (socket: Socket) => string | null) => {
    // A server that never answers: every accepted connection stays open until the test closes it.
    const server = createServer(() => {});
    servers.push(server);
    capConnections(server, perAddress, addressOf, total);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  it('holds at most `total` connections from many addresses, then answers 503 server-busy; a closed one frees a place', async () => {
    let n = 0;
    // Each connection from an address of its own (as many /64s would be).
    const port = await serve(128, 3, () => `2001:db8:${(n++).toString(16)}::1`);
    const held = await Promise.all([open(port), open(port), open(port)]);
    const refused = await open(port);
    const text = await refused.first;
    assert.match(text, /^HTTP\/1\.1 503 Service Unavailable/);
    assert.match(text, /server-busy: 3 connections are open \(at most 3\); try again later$/);
    held[0]!.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open(port);
    again.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const answered = await Promise.race([again.first, new Promise<string>((resolve) => setTimeout(() => resolve('held'), 300))]);
    assert.equal(answered, 'held', 'the fourth connection is taken once one closed');
    for (const c of [...held, again]) c.socket.destroy();
  });

  it('still refuses one address past its share with 429, before the total', async () => {
    const port = await serve(2, 100, () => '203.0.113.7');
    const held = await Promise.all([open(port), open(port)]);
    const text = await (await open(port)).first;
    assert.match(text, /^HTTP\/1\.1 429 Too Many Requests/);
    assert.match(text, /too-many-connections: this address already holds 2 connections \(at most 2\)$/);
    for (const c of held) c.socket.destroy();
  });

  it('counts connections with no address (a trusted proxy’s) in the total', async () => {
    const port = await serve(1, 2, () => null);
    const held = await Promise.all([open(port), open(port)]);
    assert.match(await (await open(port)).first, /server-busy: 2 connections are open/);
    for (const c of held) c.socket.destroy();
  });

  it('bounds every HTTP server at 10,000 connections by default', () => {
    assert.equal(MAX_CONNECTIONS, 10_000);
  });
});
