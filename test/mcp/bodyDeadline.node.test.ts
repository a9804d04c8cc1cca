// The body deadline's default (issue 37): a `/mcp` body that never arrives whole is answered 408 at
// 10 s, the deadline named in the answer, and the AI SDK example reads its bodies within the same.
// It waits the real 10 s (sleeping, no CPU), and asserts the number the answer names, not a time.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { BODY_TIMEOUT_MS } from '../../demo/ai-sdk/guard.js';
import { httpServer } from './helpers.js';

test('a /mcp body not received whole is refused at the default 10 s deadline, named', { timeout: 60_000 }, async (t) => {
  const { url } = await httpServer(t);
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': '1000' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.write('{"jsonrpc":"2.0",'); // and nothing more
  });
  assert.equal(answer.status, 408);
  assert.match(answer.text, /Request body not received within 10000 ms/);
  assert.equal(BODY_TIMEOUT_MS, 10_000, "the AI SDK example's bodies: the same default");
});
