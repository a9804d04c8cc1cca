// `/mcp`'s request rates (createMcpHttpHandler's `requestRates`, docs/security.md): one address's
// requests counted before anything of them is read, one principal's once it is known, each refused
// past its rate with 429 and Retry-After in words, while another address and another principal are
// served; the defaults hold against a flood.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { before, describe, it } from 'node:test';
import { MCP_REQUEST_RATES } from '../../mcp/index.js';
import { ensurePanelBuilt, httpServer, RAW_REQUESTS, refusal } from './helpers.js';

before(ensurePanelBuilt, { timeout: 180_000 });

const { HEADERS, PING, INITIALIZE } = RAW_REQUESTS;

/** Who asks: the principal (`x-who`) and the address (`x-from`) the test's hooks read. */
const asWho = {
  authenticate: (request: { headers: Record<string, unknown> }) => {
    asWho.asked += 1;
    return { id: String(request.headers['x-who']), name: 'x' };
  },
  remoteAddress: (request: { headers: Record<string, unknown> }) => String(request.headers['x-from']),
  asked: 0,
};

async function post(url: URL, who: string, from: string) {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': who, 'x-from': from }, body: PING });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

/** `count` POSTs of a ping written at once on one connection; the status of each answer, in order. */
function pipelined(url: URL, count: number): Promise<{ statuses: number[]; text: string }> {
  const one = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(PING)}\r\n\r\n${PING}`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(one.repeat(count)));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]));
      if (statuses.length >= count) {
        socket.destroy();
        resolve({ statuses, text });
      }
    });
    socket.on('error', reject);
  });
}

describe("/mcp's request rates", () => {
  it('refuses a principal past its rate in words, and serves another principal at the same address', async (t) => {
    const { url } = await httpServer(t, undefined, {
      authenticate: asWho.authenticate,
      remoteAddress: asWho.remoteAddress,
      requestRates: { perPrincipal: { perSecond: 0.5, burst: 3 } },
    });
    for (let i = 0; i < 3; i++) assert.notEqual((await post(url, 'ann', '10.0.0.1')).status, 429, `request ${i + 1} served`);
    const refused = await post(url, 'ann', '10.0.0.1');
    assert.deepEqual(
      { ...refused, body: JSON.parse(refused.body) as unknown },
      {
        status: 429,
        retryAfter: '2',
        body: refusal('Too many requests: this principal may send 0.5 a second (bursts of 3); retry in 2 s'),
      },
    );
    assert.notEqual((await post(url, 'bob', '10.0.0.1')).status, 429, 'another principal is served');
  });

  it('refuses an address past its rate before asking who it is, and serves another address', async (t) => {
    const { url } = await httpServer(t, undefined, {
      authenticate: asWho.authenticate,
      remoteAddress: asWho.remoteAddress,
      requestRates: { perAddress: { perSecond: 1, burst: 4 } },
    });
    // Four principals of one address: the address's rate counts them together.
    for (const who of ['a', 'b', 'c', 'd']) assert.notEqual((await post(url, who, '10.0.0.2')).status, 429);
    const before = asWho.asked;
    const refused = await post(url, 'e', '10.0.0.2');
    assert.equal(refused.status, 429);
    assert.equal(refused.retryAfter, '1');
    assert.deepEqual(JSON.parse(refused.body), refusal('Too many requests: this address may send 1 a second (bursts of 4); retry in 1 s'));
    assert.equal(asWho.asked, before, 'refused before its credentials were looked at');
    assert.notEqual((await post(url, 'e', '10.0.0.3')).status, 429, 'another address is served');
  });

  it('counts no address when remoteAddress answers null (a hosted MCP client), and no rate when false', async (t) => {
    const hosted = await httpServer(t, undefined, {
      authenticate: asWho.authenticate,
      remoteAddress: () => null,
      requestRates: { perAddress: { perSecond: 1, burst: 1 }, perPrincipal: { perSecond: 1, burst: 2 } },
      maxSessionsPerAddress: 1,
    });
    // Nor sessions per address: two people's sessions, where one address could hold one.
    for (const who of ['s1', 's2']) {
      const opened = await fetch(hosted.url, { method: 'POST', headers: { ...HEADERS, 'x-who': who }, body: INITIALIZE });
      await opened.text();
      assert.equal(opened.status, 200, `${who}'s session is opened`);
    }
    // Many people behind one service: each principal is limited by its own rate alone.
    for (const who of ['a', 'b', 'c']) {
      assert.notEqual((await post(hosted.url, who, 'x')).status, 429);
      assert.notEqual((await post(hosted.url, who, 'x')).status, 429);
    }
    assert.equal((await post(hosted.url, 'a', 'x')).status, 429, "a principal's own rate still holds");
    const none = await httpServer(t, undefined, { authenticate: asWho.authenticate, requestRates: false });
    for (let i = 0; i < 20; i++) assert.notEqual((await post(none.url, 'a', 'x')).status, 429);
  });

  it('holds one address to the default rate under a flood, with the documented numbers', async (t) => {
    assert.deepEqual(MCP_REQUEST_RATES, { perAddress: { perSecond: 200, burst: 400 }, perPrincipal: { perSecond: 100, burst: 200 } });
    // Nobody signed in (each answered 401 at once), 900 requests pipelined on one connection: they
    // arrive within milliseconds, whatever else the machine is doing.
    const { url } = await httpServer(t, undefined, { authenticate: () => null, onError: () => {} });
    const started = Date.now();
    const { statuses, text } = await pipelined(url, 900);
    const served = statuses.filter((s) => s !== 429).length;
    const allowed = 400 + Math.ceil(((Date.now() - started) / 1000) * 200);
    assert.ok(served >= 400 && served <= allowed && served < 900, `${served} of 900 served (the burst, at most ${allowed})`);
    assert.equal(statuses.filter((s) => s !== 429 && s !== 401).length, 0, 'each answered 401 or 429');
    assert.match(text, /"message":"Too many requests: this address may send 200 a second \(bursts of 400\); retry in 1 s"/);
    assert.match(text, /\r\nretry-after: 1\r\n/i);
  });
});
