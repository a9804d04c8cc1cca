// `/mcp` behind a balancer (issue 37, docs/security.md's "Every door"): its 64 sessions per address
// count the client a PROXY header names, or the X-Forwarded-For client of a trusted proxy; a header
// from any other peer is ignored, so a forged one makes no new address.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it, type TestContext } from 'node:test';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import { ensurePanelBuilt } from './helpers.js';

// `npm test` builds the document first; run alone, a file may build it (slow on a busy machine).
before(ensurePanelBuilt, { timeout: 180_000 });

const TOO_MANY = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Too many sessions: this address already holds 64 MCP sessions (at most 64); close one first' },
  id: null,
};

async function demo(t: TestContext): Promise<DemoServer> {
  const data = mkdtempSync(join(tmpdir(), 'ts-mcp-addresses-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  writeFileSync(join(data, 'index.html'), '<!doctype html><title>demo</title>');
  const server = await startDemoServer({
    root: data,
    store: 'memory',
    proxyProtocol: { port: 0 },
    trustedProxies: ['127.0.0.9'],
  });
  t.after(() => server.close());
  return server;
}

/**
 * A 2025-era initialize as `cookie`: through the PROXY port naming `client`, or straight from the
 * local address `from` with an optional X-Forwarded-For. Its status and JSON body (null for a stream).
 */
function initialize(
  server: DemoServer,
  cookie: string,
  via: { client: string } | { from: string; forwardedFor?: string },
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const proxied = 'client' in via;
    const req = request(
      {
        host: '127.0.0.1',
        port: proxied ? server.proxyPort : server.port,
        path: '/mcp',
        method: 'POST',
        ...(proxied
          ? {
              // Without an agent: Node's agents ignore a request's own createConnection.
              createConnection: () => {
                const socket = connect(server.proxyPort!, '127.0.0.1');
                const v6 = via.client.includes(':');
                socket.write(`PROXY TCP${v6 ? 6 : 4} ${via.client} ${v6 ? '::1' : '127.0.0.1'} 40000 ${server.port}\r\n`);
                return socket;
              },
            }
          : { localAddress: via.from, agent: false }),
        headers: {
          host: `127.0.0.1:${server.port}`,
          cookie,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(!proxied && via.forwardedFor ? { 'x-forwarded-for': via.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: res.headers['content-type']?.includes('json') ? JSON.parse(text) : null }),
        );
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-host', version: '1.0.0' } },
      }),
    );
  });
}

/** 8 people's cookies: 8 sessions each is the most one person holds, so 64 from one address take 8. */
const cookies = (server: DemoServer, n = 8) =>
  Array.from({ length: n }, () => {
    const { cookie } = server.identities.issue();
    return `${cookie.name}=${cookie.value}`;
  });

/** Opens 64 sessions from one address (8 people, 8 each), each answered 200. */
async function fill(open: (cookie: string) => Promise<{ status: number }>, people: string[]) {
  for (let i = 0; i < 64; i++) assert.equal((await open(people[i % 8]!)).status, 200, `session ${i + 1}`);
}

describe('/mcp sessions per address behind a balancer', () => {
  it('count the client a PROXY header names: the 65th of one client 429, another client of the balancer served', async (t) => {
    const server = await demo(t);
    const people = cookies(server, 10);
    await fill((cookie) => initialize(server, cookie, { client: '203.0.113.1' }), people);
    assert.deepEqual(await initialize(server, people[8]!, { client: '203.0.113.1' }), { status: 429, body: TOO_MANY });
    assert.equal((await initialize(server, people[9]!, { client: '203.0.113.2' })).status, 200, 'another client');
  });

  it("count a trusted proxy's X-Forwarded-For client; a forged header from another peer counts that peer", async (t) => {
    const server = await demo(t);
    const people = cookies(server, 10);
    await fill((cookie) => initialize(server, cookie, { from: '127.0.0.9', forwardedFor: '198.51.100.1' }), people);
    assert.deepEqual(await initialize(server, people[8]!, { from: '127.0.0.9', forwardedFor: '198.51.100.1' }), {
      status: 429,
      body: TOO_MANY,
    });
    assert.equal((await initialize(server, people[9]!, { from: '127.0.0.9', forwardedFor: '198.51.100.2' })).status, 200);

    // Not a trusted proxy: every header a new "client", all counted against the peer itself.
    let n = 0;
    await fill((cookie) => initialize(server, cookie, { from: '127.0.0.10', forwardedFor: `192.0.2.${++n}` }), people);
    assert.deepEqual(await initialize(server, people[8]!, { from: '127.0.0.10', forwardedFor: '192.0.2.200' }), {
      status: 429,
      body: TOO_MANY,
    });
  });

  it('count an IPv6 client by its /64: 64 sessions from addresses of one /64, the 65th 429, another /64 served', async (t) => {
    const server = await demo(t);
    const people = cookies(server, 10);
    let n = 0;
    await fill((cookie) => initialize(server, cookie, { client: `2001:db8:1:2::${(++n).toString(16)}` }), people);
    assert.deepEqual(await initialize(server, people[8]!, { client: '2001:db8:1:2:ffff::1' }), { status: 429, body: TOO_MANY });
    assert.equal((await initialize(server, people[9]!, { client: '2001:db8:1:3::1' })).status, 200, 'another /64');
  });
});
