// `X-Forwarded-For` behind a trusted HTTP proxy (issue 37): the right-most address that is not a
// trusted proxy is the client; from any other peer the header is ignored, so a forged one changes
// nothing. Unit checks of the reading, then the demo's identity minting counting by it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { startDemoServer } from '../../demo/app.js';
import { addressKey, parseTrustedProxies, requestAddress, trustForwardedFor } from '../../transport/forwarded.js';

/** A server answering each request's `requestAddress`, trusting `proxies` (none: trusts nobody). */
async function echo(t: TestContext, proxies: string[]) {
  const server = createServer((request, response) => response.end(String(requestAddress(request))));
  if (proxies.length) trustForwardedFor(server, parseTrustedProxies(proxies));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  return (forwardedFor?: string) =>
    new Promise<string>((resolve, reject) => {
      const headers = forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor };
      const req = httpRequest({ host: '127.0.0.1', port, headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
}

describe('parseTrustedProxies', () => {
  it('takes addresses and CIDRs of both families, IPv4-mapped peers too; names a bad entry', () => {
    const trusted = parseTrustedProxies(['10.0.0.0/8', '203.0.113.7', 'fd00::/8']);
    for (const a of ['10.1.2.3', '::ffff:10.1.2.3', '203.0.113.7', 'fd12::1']) assert.equal(trusted(a), true, a);
    for (const a of ['11.0.0.1', '203.0.113.8', '2001:db8::1', 'not-an-ip', '']) assert.equal(trusted(a), false, a);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '10.0.0.0/x']) {
      assert.throws(() => parseTrustedProxies([bad]), {
        message: `trustedProxies: "${bad}" is not an IP address or a CIDR (e.g. 10.0.0.0/8, 203.0.113.7, fd00::/8)`,
      });
    }
  });
});

describe('requestAddress with X-Forwarded-For', () => {
  it('from a trusted proxy: the right-most address that is not a trusted proxy', async (t) => {
    const ask = await echo(t, ['127.0.0.1', '10.0.0.0/8']);
    assert.equal(await ask('203.0.113.9'), '203.0.113.9');
    // A client that wrote its own header: the proxy appended the real one on the right.
    assert.equal(await ask('198.51.100.1, 203.0.113.9'), '203.0.113.9');
    // Two trusted hops (a CDN, then the balancer): skipped, the client before them counts.
    assert.equal(await ask('198.51.100.1, 203.0.113.9, 10.0.0.5'), '203.0.113.9');
    assert.equal(await ask('[2001:db8::9]:443, 10.0.0.5:8080'), '2001:db8::9');
    assert.equal(await ask('10.0.0.4, 10.0.0.5'), '10.0.0.4', 'all trusted: the left-most');
    assert.equal(await ask('garbage, 10.0.0.5'), '10.0.0.5', 'malformed where the client should be: the nearest proxy');
    assert.equal(await ask(), '127.0.0.1', 'no header: the proxy itself');
  });

  it('from a peer that is not a trusted proxy, or with none configured: a forged header is ignored', async (t) => {
    const untrusted = await echo(t, ['10.0.0.0/8']);
    assert.equal(await untrusted('203.0.113.9'), '127.0.0.1');
    const none = await echo(t, []);
    assert.equal(await none('203.0.113.9'), '127.0.0.1');
  });
});

describe('the demo with trustedProxies', () => {
  async function demo(t: TestContext, trustedProxies?: string[]) {
    const data = mkdtempSync(join(tmpdir(), 'ts-forwarded-'));
    t.after(() => rmSync(data, { recursive: true, force: true }));
    writeFileSync(join(data, 'index.html'), '<!doctype html><title>demo</title>');
    const server = await startDemoServer({
      root: data,
      store: 'memory',
      dataDir: data,
      identityRate: { burst: 1, perMinute: 1 },
      ...(trustedProxies ? { trustedProxies } : {}),
    });
    t.after(() => server.close());
    return (forwardedFor: string) => fetch(server.url, { headers: { 'X-Forwarded-For': forwardedFor } }).then((r) => r.status);
  }

  it('mints identities per forwarded client behind a trusted proxy; a forged header elsewhere counts the peer', async (t) => {
    const behind = await demo(t, ['127.0.0.1']);
    assert.equal(await behind('203.0.113.1'), 200);
    assert.equal(await behind('203.0.113.1'), 429, "the client's one identity a minute is spent");
    assert.equal(await behind('203.0.113.2'), 200, 'another client behind the same proxy is served');
    const direct = await demo(t);
    assert.equal(await direct('203.0.113.1'), 200);
    assert.equal(await direct('203.0.113.2'), 429, 'a forged header from an untrusted peer changes nothing');
  });
});

describe('addressKey: what a per-address limit counts', () => {
  it('an IPv4 address as itself (mapped ones too); an IPv6 address by its /64', () => {
    const cases: [string, string][] = [
      ['203.0.113.7', '203.0.113.7'],
      ['::ffff:203.0.113.7', '203.0.113.7'],
      ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
      ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
      ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
      ['2001:db8::1', '2001:db8:0:0::/64'],
      ['2001:db8:0:1::1', '2001:db8:0:1::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['unknown', 'unknown'],
    ];
    for (const [address, key] of cases) assert.equal(addressKey(address), key, address);
  });

  it('mints identities per /64 behind a trusted proxy: another address of the same /64 is the same client', async (t) => {
    const data = mkdtempSync(join(tmpdir(), 'ts-forwarded-v6-'));
    t.after(() => rmSync(data, { recursive: true, force: true }));
    writeFileSync(join(data, 'index.html'), '<!doctype html><title>demo</title>');
    const server = await startDemoServer({
      root: data,
      store: 'memory',
      dataDir: data,
      identityRate: { burst: 1, perMinute: 1 },
      trustedProxies: ['127.0.0.1'],
    });
    t.after(() => server.close());
    const get = (forwardedFor: string) => fetch(server.url, { headers: { 'X-Forwarded-For': forwardedFor } }).then((r) => r.status);
    assert.equal(await get('2001:db8:1:2::1'), 200);
    assert.equal(await get('2001:db8:1:2::9999'), 429, 'the same /64');
    assert.equal(await get('2001:db8:1:3::1'), 200, 'another /64');
  });
});
