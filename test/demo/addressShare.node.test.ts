// Under `--workers N` each worker holds its share of one address's sockets, `/mcp` sessions and
// `/mcp` requests a second (demo/addressShare.ts), and its refusals say so: the share and the cluster's total.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { it } from 'node:test';
import { sayShare, sayShareOnUpgrade, workerShare } from '../../demo/addressShare.js';

it('a worker holds ceil(limit / N) of a cap, never less than the whole shared out', () => {
  assert.equal(workerShare(64, 1), 64);
  assert.equal(workerShare(64, 3), 22);
  assert.equal(workerShare(200, 3), 67);
  assert.equal(workerShare(64, 16), 4);
});

it("rewords each divided cap's refusal with the share and the cluster's total; leaves others and one process alone", () => {
  assert.equal(
    sayShare('Too many sessions: this address already holds 22 MCP sessions (at most 22); close one first', 3),
    "Too many sessions: this address already holds 22 MCP sessions on this worker (at most 22: this worker's share of the 64 one address may hold across 3 workers); close one first",
  );
  assert.equal(
    sayShare('Too many requests: this address may send 67 a second (bursts of 134); retry in 1 s', 3),
    'Too many requests: this address may send 67 a second (bursts of 134) to this worker: its share of the 200 a second (bursts of 400) one address may send across 3 workers; retry in 1 s',
  );
  const principal = 'Too many requests: this principal may send 100 a second (bursts of 200); retry in 1 s';
  assert.equal(sayShare(principal, 3), principal);
  const once = 'too-many-connections: this address already holds 64 connections (at most 64)';
  assert.equal(sayShare(once, 1), once);
  assert.equal(sayShare(sayShare(once, 3), 3), sayShare(once, 3), 'a reworded refusal is not reworded again');
});

it("a refused upgrade's answer says the share, with its Content-Length right", async () => {
  const socket = new PassThrough();
  sayShareOnUpgrade(socket, 3);
  const reason = 'too-many-connections: this address already holds 22 connections (at most 22)';
  let written = '';
  socket.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const ended = new Promise((resolve) => socket.once('end', resolve));
  socket.end(`HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
  await ended;
  const [head, body] = written.split('\r\n\r\n') as [string, string];
  assert.equal(
    body,
    "too-many-connections: this address already holds 22 sockets on this worker (at most 22: this worker's share of the 64 one address may hold across 3 workers)",
  );
  assert.match(head, new RegExp(`\\r\\nContent-Length: ${Buffer.byteLength(body)}$`));
});
