// The MCP HTTP handler built without options (`createMcpHttpHandler`, docs/mcp.md): what a host that
// passes none gets. Bodies over 4 MiB are refused with 413; at most 8 2025-era sessions per principal
// (its own least recently used closed to make room), 64 per address (then 429) and 1,024 in all (then
// 503); a session unused for 30 minutes is closed.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { before, describe, it } from 'node:test';
import { ensurePanelBuilt, httpServer } from './helpers.js';

// `npm test` builds the document first; run alone, a file may build it (slow on a busy machine).
before(ensurePanelBuilt, { timeout: 180_000 });

const MiB = 1024 * 1024;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A bare 2025-era initialize request as `who` (the test's `x-who` header names the principal). */
function initialize(url: URL, who = 'a'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'x-who': who },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-host', version: '1.0.0' } },
    }),
  });
}

/** Opens a 2025-era session as `who`; its Mcp-Session-Id. */
async function openSession(url: URL, who = 'a'): Promise<string> {
  const response = await initialize(url, who);
  await response.text();
  const id = response.headers.get('mcp-session-id');
  assert.equal(response.status, 200);
  assert.ok(id, 'a 2025-era client gets a session');
  return id;
}

/** A ping on the session: its HTTP status and body (404 with "Session not found" once it is closed). */
async function ping(url: URL, sessionId: string, who = 'a'): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'x-who': who, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  return { status: response.status, body: await response.text() };
}

const closed = {
  status: 404,
  body: JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32001, message: 'Session not found: start a new one with initialize' },
    id: null,
  }),
};

describe('the MCP HTTP handler without options', () => {
  it('refuses a body over 4 MiB with 413 and reads one of exactly 4 MiB', async (t) => {
    const { url } = await httpServer(t, undefined, {});
    const over = await fetch(url, { method: 'POST', headers: HEADERS, body: 'x'.repeat(4 * MiB + 1) });
    assert.equal(over.status, 413);
    assert.deepEqual(await over.json(), {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Request body larger than 4194304 bytes' },
      id: null,
    });
    // Exactly at the limit it is read: this one is JSON, not a JSON-RPC message, so the SDK answers it.
    const at = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify('x'.repeat(4 * MiB - 2)) });
    await at.text();
    assert.notEqual(at.status, 413);
  });

  it("holds 8 sessions per principal: the 9th closes its own least recently used one, never another's", async (t) => {
    const { url } = await httpServer(t, undefined, { authenticate: (request) => ({ id: String(request.headers['x-who']), name: 'x' }) });
    const other = await openSession(url, 'b');
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await openSession(url, 'a'));
    // The first is used again: the second is now the least recently used of a's.
    assert.equal((await ping(url, ids[0]!, 'a')).status, 200);
    ids.push(await openSession(url, 'a'));
    assert.deepEqual(await ping(url, ids[1]!, 'a'), closed);
    for (const id of [ids[0]!, ...ids.slice(2)])
      assert.equal((await ping(url, id, 'a')).status, 200, `session ${ids.indexOf(id) + 1} is kept`);
    assert.equal((await ping(url, other, 'b')).status, 200, "b's session outlives a's nine");
    assert.deepEqual(await ping(url, other, 'a'), closed, "b's session id answers a exactly as a missing one");
  });

  it('holds 64 sessions from one address, whoever opened them; the 65th initialize gets 429', async (t) => {
    const { url } = await httpServer(t, undefined, { authenticate: (request) => ({ id: String(request.headers['x-who']), name: 'x' }) });
    for (let i = 0; i < 64; i++) await openSession(url, `p${i % 8}`);
    const refused = await initialize(url, 'fresh');
    assert.deepEqual(
      { status: refused.status, body: await refused.json() },
      {
        status: 429,
        body: {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Too many sessions: this address already holds 64 MCP sessions (at most 64); close one first' },
          id: null,
        },
      },
    );
  });

  it("refuses an initialize past 1,024 sessions in all with 503, closing nobody's", async (t) => {
    const { url } = await httpServer(t, undefined, {
      authenticate: (request) => ({ id: String(request.headers['x-who']), name: 'x' }),
      // Each principal from an address of its own, as 128 people would be.
      remoteAddress: (request) => String(request.headers['x-who']),
    });
    const ids: string[] = [];
    for (let i = 0; i < 1_024; i++) ids.push(await openSession(url, `p${i % 128}`));
    const refused = await initialize(url, 'late');
    assert.deepEqual(
      { status: refused.status, body: await refused.json() },
      {
        status: 503,
        body: {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Server busy: 1024 MCP sessions are open (at most 1024); try again later' },
          id: null,
        },
      },
    );
    assert.equal((await ping(url, ids[0]!, 'p0')).status, 200, 'the oldest session is still open');
  });

  it('closes a session unused for 30 minutes, not before (checked every minute); a request keeps it', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const { url } = await httpServer(t, undefined, {});
    const used = await openSession(url);
    const idle = await openSession(url);
    t.mock.timers.tick(30 * 60_000);
    assert.equal((await ping(url, used)).status, 200, 'still open after exactly 30 minutes');
    t.mock.timers.tick(60_000);
    assert.deepEqual(await ping(url, idle), closed, 'closed at the check after 30 minutes unused');
    assert.equal((await ping(url, used)).status, 200, 'used a minute ago');
  });

  it('reads 64 MiB of bodies at once, 4 MiB of one principal: past its share 429, past the whole 503, a small body read', async (t) => {
    const { url } = await httpServer(t, undefined, { authenticate: (request) => ({ id: String(request.headers['x-who']), name: 'x' }) });
    /** A body of `bytes` announced as `who` and never finished: held until the test ends (or answered at once when refused). */
    const hold = (who: string, bytes = 4 * MiB) => {
      const req = request(url, { method: 'POST', headers: { ...HEADERS, 'x-who': who, 'content-length': String(bytes) } });
      req.on('error', () => undefined);
      req.write('{"jsonrpc":');
      t.after(() => req.destroy());
      return new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve) =>
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
        }),
      );
    };
    const error = (message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
    // 16 principals, a 4 MiB body each: the whole budget, held.
    for (let i = 0; i < 16; i++) void hold(`p${i}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await hold('p0', 1), {
      status: 429,
      retryAfter: '1',
      body: error(`Too many requests: this principal's request bodies being read would pass ${4 * MiB} bytes; finish one first`),
    });
    assert.deepEqual(await hold('fresh', 65 * 1024), {
      status: 503,
      retryAfter: '1',
      body: error(`Server busy: request bodies being read take up to ${64 * MiB} bytes at once; retry in 1 s`),
    });
    assert.equal((await initialize(url, 'fresh')).status, 200, 'a small body is read whatever the whole holds');
  });
});
