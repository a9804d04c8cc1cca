// `/mcp` held by several processes behind a balancer (createMcpHttpHandler's `processes`): each holds
// ceil(limit / processes) of one address's sessions and of its request rate and burst, and its 429s
// name the share and the total; one process words them as it always has.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ensurePanelBuilt, httpServer, RAW_REQUESTS, refusal } from './helpers.js';

before(ensurePanelBuilt, { timeout: 180_000 });

const { HEADERS, PING, INITIALIZE } = RAW_REQUESTS;

/** Each request's principal (`x-who`) and address (`x-from`), as the test names them. */
const who = {
  authenticate: (request: { headers: Record<string, unknown> }) => ({ id: String(request.headers['x-who']), name: 'x' }),
  remoteAddress: (request: { headers: Record<string, unknown> }) => String(request.headers['x-from']),
};

async function post(url: URL, principal: string, body: string) {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-who': principal, 'x-from': '10.0.0.1' }, body });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

describe('/mcp with `processes`', () => {
  it("holds its share of one address's sessions and refuses the next initialize in words", async (t) => {
    const { url } = await httpServer(t, undefined, { ...who, maxSessionsPerAddress: 6, processes: 3 });
    for (const principal of ['a', 'b']) assert.equal((await post(url, principal, INITIALIZE)).status, 200, `${principal}'s session`);
    const refused = await post(url, 'c', INITIALIZE);
    assert.deepEqual(
      { status: refused.status, body: JSON.parse(refused.body) as unknown },
      {
        status: 429,
        body: refusal(
          'Too many sessions: this address already holds 2 MCP sessions on this process (at most 2: its share of the 6 one address may hold across 3 processes); close one first',
        ),
      },
    );
  });

  it("takes its share of one address's rate and burst, and refuses the next request in words", async (t) => {
    const { url } = await httpServer(t, undefined, {
      ...who,
      requestRates: { perAddress: { perSecond: 3, burst: 6 } },
      processes: 3,
    });
    for (const principal of ['a', 'b']) assert.notEqual((await post(url, principal, PING)).status, 429, `${principal}'s request`);
    const refused = await post(url, 'c', PING);
    assert.deepEqual(
      { ...refused, body: JSON.parse(refused.body) as unknown },
      {
        status: 429,
        retryAfter: '1',
        body: refusal(
          'Too many requests: this address may send 1 a second (bursts of 2) to this process: its share of the 3 a second (bursts of 6) one address may send across 3 processes; retry in 1 s',
        ),
      },
    );
  });

  it('one process (the default) holds the whole limits and words them as ever', async (t) => {
    const sessions = await httpServer(t, undefined, { ...who, maxSessionsPerAddress: 1 });
    assert.equal((await post(sessions.url, 'a', INITIALIZE)).status, 200);
    const full = await post(sessions.url, 'b', INITIALIZE);
    assert.deepEqual(
      JSON.parse(full.body),
      refusal('Too many sessions: this address already holds 1 MCP sessions (at most 1); close one first'),
    );
    const rates = await httpServer(t, undefined, { ...who, requestRates: { perAddress: { perSecond: 1, burst: 2 } } });
    for (const principal of ['a', 'b']) assert.notEqual((await post(rates.url, principal, PING)).status, 429, `${principal}'s request`);
    const fast = await post(rates.url, 'c', PING);
    assert.deepEqual(JSON.parse(fast.body), refusal('Too many requests: this address may send 1 a second (bursts of 2); retry in 1 s'));
  });
});
