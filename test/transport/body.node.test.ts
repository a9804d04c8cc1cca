// readBody (transport/body.ts), as clients send bodies: one over the limit is never kept, and its rest
// is read and thrown away (within bounds) before the 413, so that a client still sending reads its
// 413 rather than a reset; one that never ends is answered at its deadline.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { DISCARD_MS, readBody } from '../../transport/body.js';

let server: Server;
let port: number;
/** What the server's reading saw: the answer and how many body bytes had arrived by then. */
const seen: { answer: string; bodyBytes: number }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    // A deadline of 1.5 s: a refused body still arriving after it is answered then.
    void readBody(req, 1_000, 1_500).then((answer) => {
      const text = Buffer.isBuffer(answer) ? `read ${answer.length}` : answer;
      seen.push({ answer: text, bodyBytes });
      res.writeHead(Buffer.isBuffer(answer) ? 200 : 413, { connection: 'close' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * POSTs headers announcing `length` (none: chunked), then `sent` bytes (never ending a longer body);
 * the answer, or the error the client saw instead. The client asks to close the connection after it.
 */
function post(length: number | undefined, sent: number) {
  return new Promise<{ status: number; text: string } | string>((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      agent: false,
      headers: length === undefined ? {} : { 'content-length': String(length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (error) => resolve(error.message));
    req.flushHeaders();
    if (sent > 0) req.write('x'.repeat(sent));
    if (sent === length || length === undefined) req.end();
  });
}

test('a client still sending a body over the limit reads its 413, every time; none of it is kept', { timeout: 60_000 }, async () => {
  seen.length = 0;
  // Far more than the kernel's buffers hold: a socket closed with them unread would be reset.
  for (let i = 0; i < 10; i++) assert.deepEqual(await post(512 * 1024, 512 * 1024), { status: 413, text: 'too-large' });
  // Over the limit only once read (chunked: no Content-Length announces it): the same.
  for (let i = 0; i < 10; i++) assert.deepEqual(await post(undefined, 512 * 1024), { status: 413, text: 'too-large' });
  assert.deepEqual(
    seen.map((s) => s.answer),
    Array(20).fill('too-large'),
  );
  assert.ok(
    seen.every((s) => s.bodyBytes === 512 * 1024),
    'the whole body was read (and thrown away) before the answer',
  );
});

test('a body announced over the limit and never sent is answered within the time a refusal waits', { timeout: 30_000 }, async () => {
  seen.length = 0;
  const started = Date.now();
  assert.deepEqual(await post(5_000, 0), { status: 413, text: 'too-large' });
  const waited = Date.now() - started;
  assert.ok(waited < Math.min(DISCARD_MS, 1_500) + 1_000, `answered after ${waited} ms`);
  assert.deepEqual(seen, [{ answer: 'too-large', bodyBytes: 0 }]);
});

test('a refused body still arriving at its deadline is answered then, not read for ever', { timeout: 30_000 }, async () => {
  seen.length = 0;
  const started = Date.now();
  assert.deepEqual(await post(1_000_000, 5_000), { status: 413, text: 'too-large' });
  assert.ok(Date.now() - started < 3_000, `answered after ${Date.now() - started} ms`);
});

test('a body within the limit is read whole', { timeout: 30_000 }, async () => {
  assert.deepEqual(await post(1_000, 1_000), { status: 200, text: 'read 1000' });
});
