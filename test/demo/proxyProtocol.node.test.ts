// Real client addresses behind a balancer (issue 37): the PROXY protocol header, read strictly, and
// the demo's caps and identity minting counting each client it names rather than the balancer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { startDemoServer } from '../../demo/app.js';
import { parseProxyHeader } from '../../transport/proxyProtocol.js';

const v2 = (command: number, family: number, body: Buffer) =>
  Buffer.concat([
    Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x20 | command, family]),
    Buffer.from([body.length >> 8, body.length & 0xff]),
    body,
  ]);

describe('parseProxyHeader', () => {
  it('reads v1 TCP4, TCP6 and UNKNOWN, and asks for more until the line ends', () => {
    const line = 'PROXY TCP4 203.0.113.7 10.0.0.1 51000 443\r\nGET';
    assert.deepEqual(parseProxyHeader(Buffer.from(line)), { address: '203.0.113.7', length: line.length - 3 });
    assert.deepEqual(parseProxyHeader(Buffer.from('PROXY TCP6 2001:db8::7 2001:db8::1 51000 443\r\n')), {
      address: '2001:db8::7',
      length: 46,
    });
    assert.deepEqual(parseProxyHeader(Buffer.from('PROXY UNKNOWN\r\n')), { address: null, length: 15 });
    assert.deepEqual(parseProxyHeader(Buffer.from('PROXY TCP4 203.0.113.7')), { need: 'more' });
    assert.deepEqual(parseProxyHeader(Buffer.from('PRO')), { need: 'more' });
  });

  it('refuses v1 headers off the grammar, and one of 107 bytes without its end', () => {
    const refused = (text: string) => parseProxyHeader(Buffer.from(text));
    assert.deepEqual(refused('GET / HTTP/1.1\r\n'), { refused: 'the connection does not start with a PROXY header' });
    assert.deepEqual(refused('PROXY TCP4 203.0.113.7 10.0.0.1 51000\r\n'), { refused: 'the PROXY v1 header is malformed' });
    assert.deepEqual(refused('PROXY TCP4 2001:db8::7 10.0.0.1 1 2\r\n'), { refused: "the PROXY v1 header's addresses are not TCP4" });
    assert.deepEqual(refused('PROXY TCP4 203.0.113.7 10.0.0.1 70000 443\r\n'), { refused: "the PROXY v1 header's ports are out of range" });
    assert.deepEqual(refused(`PROXY TCP4 ${'1'.repeat(96)}`), { refused: 'the PROXY v1 header is over 107 bytes' });
    assert.deepEqual(refused(`PROXY TCP4 ${'1'.repeat(95)}`), { need: 'more' }, '106 bytes may still end');
  });

  it('reads v2 PROXY over IPv4 and IPv6, LOCAL, and refuses what it does not know', () => {
    const ipv4 = Buffer.from([203, 0, 113, 7, 10, 0, 0, 1, 0xc7, 0x38, 0x01, 0xbb]);
    assert.deepEqual(parseProxyHeader(v2(1, 0x11, ipv4)), { address: '203.0.113.7', length: 28 });
    const ipv6 = Buffer.alloc(36);
    ipv6.writeUInt16BE(0x2001, 0);
    ipv6.writeUInt16BE(0xdb8, 2);
    ipv6.writeUInt16BE(7, 14);
    assert.deepEqual(parseProxyHeader(v2(1, 0x21, ipv6)), { address: '2001:db8:0:0:0:0:0:7', length: 52 });
    assert.deepEqual(parseProxyHeader(v2(0, 0x00, Buffer.alloc(0))), { address: null, length: 16 });
    assert.deepEqual(parseProxyHeader(v2(1, 0x11, ipv4).subarray(0, 20)), { need: 'more' });
    assert.deepEqual(parseProxyHeader(v2(2, 0x11, ipv4)), { refused: 'the PROXY v2 header has an unknown command' });
    assert.deepEqual(parseProxyHeader(v2(1, 0x11, Buffer.alloc(600))), { refused: 'the PROXY v2 header is over 528 bytes' });
  });
});

async function proxiedDemo(t: TestContext, headerTimeoutMs?: number) {
  const data = mkdtempSync(join(tmpdir(), 'ts-proxied-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  writeFileSync(join(data, 'index.html'), '<!doctype html><title>demo</title>');
  const server = await startDemoServer({
    root: data,
    store: 'memory',
    dataDir: data,
    proxyProtocol: { port: 0, ...(headerTimeoutMs ? { headerTimeoutMs } : {}) },
  });
  t.after(() => server.close());
  return server;
}

/** A connection through the PROXY port as `client`, with `request` sent after the header; what it gets back. */
function through(port: number, client: string, request = ''): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`PROXY TCP4 ${client} 127.0.0.1 40000 8787\r\n${request}`);
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.once('close', () => resolve(text));
  });
  return { socket, answer };
}

describe('the demo behind a PROXY-protocol balancer', () => {
  it('counts connections per client address the header names, not per balancer', async (t) => {
    const server = await proxiedDemo(t);
    const held: Socket[] = [];
    t.after(() => held.forEach((s) => s.destroy()));
    for (let i = 0; i < 128; i++) held.push(through(server.proxyPort!, '203.0.113.1').socket);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = through(server.proxyPort!, '203.0.113.1');
    assert.match(await late.answer, /^HTTP\/1\.1 429 Too Many Requests[^]*this address already holds 128 connections \(at most 128\)$/);
    const other = through(
      server.proxyPort!,
      '203.0.113.2',
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(await other.answer, /^HTTP\/1\.1 200 OK/, 'another person behind the same balancer is served');
  });

  it('counts an IPv6 client by its /64: 128 connections from one /64, the 129th 429, another /64 served', async (t) => {
    const server = await proxiedDemo(t);
    const v6 = (client: string, request = '') => {
      const socket = connect(server.proxyPort!, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`PROXY TCP6 ${client} ::1 40000 8787\r\n${request}`);
      const answer = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.once('close', () => resolve(text));
      });
      return { socket, answer };
    };
    const held: Socket[] = [];
    t.after(() => held.forEach((s) => s.destroy()));
    for (let i = 1; i <= 128; i++) held.push(v6(`2001:db8:1:2::${i.toString(16)}`).socket);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.match(await v6('2001:db8:1:2:ffff::1').answer, /^HTTP\/1\.1 429 Too Many Requests[^]*at most 128/);
    const get = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`;
    assert.match(await v6('2001:db8:1:3::1', get).answer, /^HTTP\/1\.1 200 OK/, 'another /64 is served');
  });

  it("mints identities at each client's rate: 60 at once for one address, and another address is not held up", async (t) => {
    const server = await proxiedDemo(t);
    const get = (client: string) =>
      through(server.proxyPort!, client, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`).answer;
    for (let i = 0; i < 60; i++)
      assert.match(await get('198.51.100.1'), /^HTTP\/1\.1 200 OK[^]*Set-Cookie: ts_demo_id=/, `identity ${i + 1}`);
    assert.match(await get('198.51.100.1'), /^HTTP\/1\.1 429 [^]*too many new identities from this address: retry in 2 s/);
    assert.match(await get('198.51.100.2'), /^HTTP\/1\.1 200 OK[^]*Set-Cookie: ts_demo_id=/);
  });

  it('closes a connection to the PROXY port that does not start with a header', async (t) => {
    const server = await proxiedDemo(t);
    const socket = connect(server.proxyPort!, '127.0.0.1');
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.once('close', () => resolve(text));
    });
    assert.equal(answer, '', 'closed without a word');
  });

  it('closes a connection whose header does not arrive within headerTimeoutMs (default 5 s)', async (t) => {
    const server = await proxiedDemo(t, 200);
    const socket = connect(server.proxyPort!, '127.0.0.1');
    socket.write('PROXY TCP4 203.0.113.9');
    const closed = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.once('close', () => resolve(text));
    });
    assert.equal(closed, '', 'closed without a word');
  });
});
