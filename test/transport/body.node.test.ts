// readBody (transport/body.ts), as an attacker sends a body: one announced over the limit is refused
// before a byte of it is read, so a flood of such bodies costs the server one short answer each.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { readBody } from '../../transport/body.js';

let server: Server;
let port: number;
/** What the server's reading saw: the answer and how many body bytes it had read by then. */
const seen: { answer: string; bodyBytes: number }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    // No deadline to speak of: only the announced length may refuse this body.
    void readBody(req, 1_000, 600_000).then((answer) => {
      const text = Buffer.isBuffer(answer) ? `read ${answer.length}` : answer;
      seen.push({ answer: text, bodyBytes });
      res.writeHead(Buffer.isBuffer(answer) ? 200 : 413, { connection: 'close' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** POSTs headers announcing `length`, then `sent` bytes (never ending a longer body); the answer. */
function post(length: number, sent: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      agent: false,
      headers: { 'content-length': String(length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.flushHeaders();
    if (sent > 0) req.write('x'.repeat(sent));
    if (sent === length) req.end();
  });
}

test('a body announced over the limit is refused before any of it arrives', { timeout: 30_000 }, async () => {
  seen.length = 0;
  const answer = await post(5_000, 0);
  assert.deepEqual(answer, { status: 413, text: 'too-large' });
  assert.deepEqual(seen, [{ answer: 'too-large', bodyBytes: 0 }]);
});

test('a body within the limit is read whole', { timeout: 30_000 }, async () => {
  seen.length = 0;
  assert.deepEqual(await post(1_000, 1_000), { status: 200, text: 'read 1000' });
});
