// The AI SDK example tried as an attacker would (issue 37): its doors are the main demo's (Host,
// Origin, JSON only, the signed identity cookie), each chat is its owner's, a user message carries
// only the parts the example knows, and a chat and a person's chats are bounded.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TSX_IMPORT } from '../../fixtures/tsxImport.js';
import { scriptedModel } from '../../demo/ai-sdk/model.js';
import {
  AI_SDK_REQUEST_LIMITS,
  MAX_CHAT_BYTES,
  MAX_CHATS_PER_PRINCIPAL,
  startAiSdkDemo,
  TURNS_PER_MINUTE,
  type AiSdkDemo,
  type AiSdkDemoOptions,
} from '../../demo/ai-sdk/server.js';

async function example(t: TestContext, options: Partial<AiSdkDemoOptions> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ts-ai-sdk-doors-'));
  const demo = await startAiSdkDemo({ model: scriptedModel(), dataDir, ...options });
  t.after(async () => {
    await demo.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const cookieOf = () => {
    const { cookie } = demo.identities.issue();
    return `${cookie.name}=${cookie.value}`;
  };
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${demo.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  return { demo, cookieOf, post };
}

const say = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const refused = (status: number, error: string) => ({ status, body: { error } });

describe('the AI SDK example', () => {
  it('sets an identity on the page and answers an API call without one 401', async (t) => {
    const { demo, post } = await example(t);
    const page = await fetch(`${demo.url}/`);
    assert.match(page.headers.get('set-cookie') ?? '', /^ts_demo_id=[^;]+; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict$/);
    assert.equal(page.headers.get('content-security-policy'), "default-src 'self'; frame-ancestors 'none'");
    assert.equal(page.headers.get('x-frame-options'), 'DENY', 'the page cannot be framed');
    assert.deepEqual(
      await post('/api/chat', { id: 'c1', message: say('m1', 'hi') }),
      refused(401, 'who is asking is not known: open the page first (it sets your identity cookie)'),
    );
  });

  it('refuses a Host it does not serve (DNS rebinding), a cross-site write and a text/plain POST', async (t) => {
    const { demo, cookieOf, post } = await example(t);
    const port = new URL(demo.url).port;
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${demo.url}/api/chats/c1`, { headers: { host: `attacker.example:${port}`, cookie: cookieOf() } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(
      { status: rebound.status, body: JSON.parse(rebound.body) },
      refused(400, 'the Host header is malformed or not one this server serves'),
    );
    const message = { id: 'c1', message: say('m1', 'hi') };
    assert.deepEqual(
      await post('/api/chat', message, { origin: 'https://evil.example', cookie: cookieOf() }),
      refused(403, 'this Origin may not write here'),
    );
    assert.deepEqual(
      await post('/api/chat', JSON.stringify(message), { 'content-type': 'text/plain', cookie: cookieOf() }),
      refused(415, 'the request body must be application/json'),
    );
  });

  it("keeps each chat its owner's: another person reading or writing its id gets a chat of their own", async (t) => {
    const { demo, cookieOf, post } = await example(t);
    const alice = cookieOf();
    const mallory = cookieOf();
    const sent = await post('/api/chat', { id: 'trip', message: say('a1', 'Lisbon in May') }, { cookie: alice });
    assert.equal(sent.status, 200);
    const read = async (cookie: string) => (await fetch(`${demo.url}/api/chats/trip`, { headers: { cookie } })).json();
    assert.deepEqual(await read(mallory), [], "Alice's chat is not Mallory's");
    assert.equal(((await read(alice)) as unknown[]).length >= 1, true);
    await post('/api/chat', { id: 'trip', message: say('m1', 'mine now') }, { cookie: mallory });
    assert.doesNotMatch(JSON.stringify(await read(alice)), /mine now/, "Mallory's message went to her own chat");
  });

  it('takes text parts only; a file part only from the origins the app names', async (t) => {
    const strict = await example(t);
    const file = { type: 'file', mediaType: 'image/png', url: 'http://localhost.attacker.example/x.png' };
    const message = (parts: unknown[]) => ({ id: 'c1', message: { id: 'm1', role: 'user', parts } });
    assert.deepEqual(await strict.post('/api/chat', message([file]), { cookie: strict.cookieOf() }), {
      status: 400,
      body: { error: 'invalid-message', message: 'a user message may carry only these parts here: text; not "file"' },
    });
    assert.deepEqual(await strict.post('/api/chat', message([{ type: 'data-anything', data: {} }]), { cookie: strict.cookieOf() }), {
      status: 400,
      body: { error: 'invalid-message', message: 'a user message may carry only these parts here: text; not "data-anything"' },
    });
    const files = await example(t, { files: { origins: ['https://files.example.com'] } });
    assert.deepEqual(await files.post('/api/chat', message([file]), { cookie: files.cookieOf() }), {
      status: 400,
      body: { error: 'invalid-message', message: "a file part's URL must be on one of: https://files.example.com" },
    });
    const cookie = files.cookieOf();
    const none = await files.post('/api/chat', message([{ type: 'text', text: 'hi' }]), { cookie });
    assert.equal(none.status, 200, 'text passes');
    assert.deepEqual(
      await (await fetch(`${files.demo.url}/api/chats/c1`, { headers: { cookie } })).json().then((m: unknown[]) => m.length > 0),
      true,
    );
  });

  it('refuses a message to a full chat, and a new chat past the per-person count, in words', async (t) => {
    assert.deepEqual([MAX_CHAT_BYTES, MAX_CHATS_PER_PRINCIPAL], [4 * 1024 * 1024, 200], 'the defaults docs/security.md names');
    const { cookieOf, post } = await example(t, { maxChatBytes: 600, maxChatsPerPrincipal: 2 });
    const cookie = cookieOf();
    let answer = await post('/api/chat', { id: 'c1', message: say('m1', 'x'.repeat(700)) }, { cookie });
    assert.equal(answer.status, 200, 'the message that fills the chat is taken');
    answer = await post('/api/chat', { id: 'c1', message: say('m2', 'more') }, { cookie });
    assert.equal(answer.status, 413);
    assert.match(answer.body.error, /^this chat holds \d+ bytes \(at most 600 bytes\): it takes no more messages; start a new chat$/);
    assert.equal((await post('/api/chat', { id: 'c2', message: say('m3', 'hi') }, { cookie })).status, 200);
    assert.deepEqual(
      await post('/api/chat', { id: 'c3', message: say('m4', 'hi') }, { cookie }),
      refused(429, 'you have 2 chats (at most 2): continue one of them'),
    );
  });

  it('runs the model for at most turnsPerMinute messages a person (default 30); a retry is free; others served', async (t) => {
    assert.equal(TURNS_PER_MINUTE, 30);
    const { demo, cookieOf, post } = await example(t, { turnsPerMinute: 2 });
    const ann = cookieOf();
    const say = (id: string) => ({ id: 'c1', message: { id, role: 'user', parts: [{ type: 'text', text: id }] } });
    assert.equal((await post('/api/chat', say('m1'), { cookie: ann })).status, 200);
    assert.equal((await post('/api/chat', say('m2'), { cookie: ann })).status, 200);
    assert.equal((await post('/api/chat', say('m2'), { cookie: ann })).status, 200, 'a retry of a message is not a new turn');
    const third = await post('/api/chat', say('m3'), { cookie: ann });
    assert.equal(third.status, 429);
    assert.match((third.body as { error: string }).error, /^you sent 2 messages in the last minute \(at most 2\): send again in \d+ s$/);
    assert.equal((await post('/api/chat', say('m1'), { cookie: cookieOf() })).status, 200, 'another person is served');
    const again = await fetch(`${demo.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: ann, origin: demo.url },
      body: JSON.stringify(say('m4')),
    });
    await again.text();
    assert.equal(again.status, 429);
    assert.match(again.headers.get('retry-after') ?? '', /^\d+$/, 'with Retry-After');
  });

  it('mints identities per address at the main demo rate (here 1 at once), then 429 with Retry-After; a page with one is served', async (t) => {
    const { demo } = await example(t, { identityRate: { burst: 1, perMinute: 1 } });
    const page = (cookie?: string) => fetch(`${demo.url}/`, cookie ? { headers: { cookie } } : {});
    const first = await page();
    assert.equal(first.status, 200);
    const second = await page();
    assert.deepEqual(
      { status: second.status, body: await second.json() },
      {
        status: 429,
        body: { error: 'too many new identities from this address: retry in 60 s' },
      },
    );
    assert.equal(second.headers.get('retry-after'), '60');
    assert.equal((await page(first.headers.get('set-cookie')!.split(';')[0])).status, 200, 'a browser with an identity is never refused');
  });

  it('holds 128 connections of one address; the 129th is answered 429 and closed', async (t) => {
    const { demo } = await example(t);
    const port = Number(new URL(demo.url).port);
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
        socket.once('error', reject);
      });
    const held: Socket[] = [];
    t.after(() => held.forEach((s) => s.destroy()));
    for (let i = 0; i < 128; i++) held.push(await open());
    const late = await open();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      late.on('data', (chunk: Buffer) => (text += chunk.toString()));
      late.once('close', () => resolve(text));
    });
    assert.match(
      answer,
      /^HTTP\/1\.1 429 Too Many Requests[^]*too-many-connections: this address already holds 128 connections \(at most 128\)$/,
    );
  });

  it('cuts off a request whose headers are not in within 10 s, or that is not whole within 30 s: 408', async (t) => {
    const { demo: defaults } = await example(t);
    assert.deepEqual([defaults.server.headersTimeout, defaults.server.requestTimeout], [10_000, 30_000]);
    const { demo, cookieOf } = await example(t, { httpLimits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const port = Number(new URL(demo.url).port);
    const cutOff = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('error', () => undefined);
        socket.once('close', () => resolve(answer));
      });
    assert.match(await cutOff(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`), /^HTTP\/1\.1 408 Request Timeout/);
    const head = `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${demo.url}\r\nCookie: ${cookieOf()}\r\n`;
    const partial = `${head}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":`;
    assert.match(await cutOff(partial), /^HTTP\/1\.1 408 Request Timeout/, 'a body that trickles in past the request deadline');
  });

  it('keeps every write of one chat when many land at once (queued per chat, none lost)', async (t) => {
    const { demo } = await example(t);
    const owner = 'someone';
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        demo.store.update(owner, 'c1', (stored) => [...(stored ?? []), { id: `m${i}`, role: 'user' as const, parts: [] }]),
      ),
    );
    const kept = (await demo.store.read(owner, 'c1'))!.map((message) => message.id);
    assert.deepEqual(
      kept,
      Array.from({ length: 20 }, (_, i) => `m${i}`),
      'in the order they were asked',
    );
  });

  it('answers a body too large or nested too deep with a clear error', async (t) => {
    const { post, cookieOf } = await example(t);
    const deep = `{"id":"c1","message":${'['.repeat(70)}${']'.repeat(70)}}`;
    assert.deepEqual(await post('/api/chat', deep, { cookie: cookieOf() }), refused(400, 'the request body nests deeper than 64'));
    assert.deepEqual(
      await post('/api/chat', 'x'.repeat(256 * 1024 + 1), { cookie: cookieOf() }),
      refused(413, 'the request body is over 262144 bytes'),
    );
  });

  describe('requests counted before anything is read', () => {
    /** A request from `from` (a 127/8 address); its status, Retry-After, Connection and `{ error }`. */
    const send = (
      demo: AiSdkDemo,
      from: string,
      path: string,
      init: { cookie?: string; body?: string; unfinished?: boolean; xff?: string } = {},
    ) => {
      const url = new URL(path, demo.url);
      const write = init.body !== undefined || init.unfinished;
      return new Promise<{ status: number; retryAfter: string | null; connection: string | null; error: string | null }>(
        (resolve, reject) => {
          const req = request(url, {
            method: write ? 'POST' : 'GET',
            localAddress: from,
            agent: false,
            headers: {
              ...(init.cookie ? { cookie: init.cookie } : {}),
              ...(init.xff ? { 'x-forwarded-for': init.xff } : {}),
              ...(write ? { origin: url.origin, 'content-type': 'application/json' } : {}),
              ...(init.unfinished ? { 'content-length': '100000' } : {}),
            },
          });
          req.on('response', (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                retryAfter: res.headers['retry-after'] ?? null,
                connection: res.headers.connection ?? null,
                error: res.headers['content-type']?.includes('json') ? (JSON.parse(text) as { error: string }).error : null,
              }),
            );
          });
          req.on('error', reject);
          if (init.unfinished) req.write('{"id":');
          else req.end(init.body);
        },
      );
    };
    /** A request whose body never finishes: it holds its slot until the test ends. */
    const hold = (t: TestContext, demo: AiSdkDemo, from: string, cookie: string) => {
      const url = new URL('/api/chat', demo.url);
      const req = request(url, {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { cookie, origin: url.origin, 'content-type': 'application/json', 'content-length': '100000' },
      });
      req.on('error', () => undefined);
      req.write('{"id":');
      t.after(() => req.destroy());
    };
    const message = (id: string) => JSON.stringify({ id: 'c1', message: say(id, 'hi') });
    /** Until the server has seen `n` requests (each held one counts once its headers arrive). */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

    it('one address starts 20 requests a second after a burst of 60: then 429 with Retry-After; another address is served', async (t) => {
      assert.deepEqual(AI_SDK_REQUEST_LIMITS.perAddress, { perSecond: 20, burst: 60, inFlight: 32 });
      const { demo } = await example(t);
      // Four at a time (below the 32 at once) until the first refusal: 400 would need 17 s at 20 a
      // second after the burst, so the rate refuses long before.
      let sent = 0;
      let served = 0;
      let refused: Awaited<ReturnType<typeof send>> | undefined;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (refused === undefined && sent++ < 400) {
            const answer = await send(demo, '127.0.0.2', '/favicon.ico');
            if (answer.status === 204) served++;
            else refused ??= answer;
          }
        }),
      );
      assert.ok(served >= 60, `the burst of 60 served first (${served})`);
      assert.deepEqual(refused, {
        status: 429,
        retryAfter: '1',
        connection: 'close',
        error: 'too many requests: this address may send 20 a second (bursts of 60); retry in 1 s',
      });
      assert.equal((await send(demo, '127.0.0.3', '/favicon.ico')).status, 204, 'another address is served');
    });

    it('refuses before the body: a 33rd unfinished body of one address gets 429 at once, whoever sends it', async (t) => {
      const { demo, cookieOf } = await example(t);
      for (let i = 0; i < 32; i++) hold(t, demo, '127.0.0.4', cookieOf());
      await settle();
      assert.deepEqual(await send(demo, '127.0.0.4', '/api/chat', { cookie: cookieOf(), unfinished: true }), {
        status: 429,
        retryAfter: '1',
        connection: 'close',
        error: 'too many requests at once: this address already has 32 being answered (at most 32); retry in 1 s',
      });
      assert.equal((await send(demo, '127.0.0.5', '/api/chat', { cookie: cookieOf(), body: message('m1') })).status, 200);
    });

    it('one person has 8 API requests answered at once from any address; the 9th 429, another person served', async (t) => {
      assert.deepEqual(AI_SDK_REQUEST_LIMITS.perPrincipal, { perSecond: 10, burst: 20, inFlight: 8 });
      const { demo, cookieOf } = await example(t);
      const ann = cookieOf();
      for (let i = 0; i < 8; i++) hold(t, demo, `127.0.0.${20 + i}`, ann);
      await settle();
      assert.deepEqual(await send(demo, '127.0.0.30', '/api/chat', { cookie: ann, body: message('m1') }), {
        status: 429,
        retryAfter: '1',
        connection: 'close',
        error: 'too many requests at once: this person already has 8 being answered (at most 8); retry in 1 s',
      });
      assert.equal((await send(demo, '127.0.0.30', '/api/chat', { cookie: cookieOf(), body: message('m1') })).status, 200);
    });

    it('one person starts 10 API requests a second after 20, whatever addresses they come from', async (t) => {
      const { demo, cookieOf } = await example(t);
      const ann = cookieOf();
      // Four at a time (below the 8 at once), from 50 addresses, until the first refusal: 200 would
      // need 20 s at 10 a second, so the rate refuses long before.
      let sent = 0;
      let served = 0;
      let refused: { error: string | null } | undefined;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (refused === undefined && sent < 200) {
            const answer = await send(demo, `127.0.1.${1 + (sent++ % 50)}`, '/api/chats/c1', { cookie: ann });
            if (answer.status === 200) served++;
            else refused ??= answer;
          }
        }),
      );
      assert.ok(served >= 20, `a burst of 20 served first (${served})`);
      assert.equal(refused?.error, 'too many requests: this person may send 10 a second (bursts of 20); retry in 1 s');
      assert.equal((await send(demo, '127.0.1.99', '/api/chats/c1', { cookie: cookieOf() })).status, 200, 'another person is served');
    });

    it('answers 503 with Retry-After past the requests in flight in all (default 1,024)', async (t) => {
      assert.equal(AI_SDK_REQUEST_LIMITS.inFlight, 1_024);
      const { demo, cookieOf } = await example(t, { requestLimits: { inFlight: 2 } });
      hold(t, demo, '127.0.0.6', cookieOf());
      hold(t, demo, '127.0.0.7', cookieOf());
      await settle();
      assert.deepEqual(await send(demo, '127.0.0.8', '/favicon.ico'), {
        status: 503,
        retryAfter: '1',
        connection: 'close',
        error: 'too many requests at once: the server already has 2 being answered (at most 2); retry in 1 s',
      });
    });

    it('reads 64 MiB of bodies at once, 4 MiB of one address: past its share 429, past the whole 503, a small body read', async (t) => {
      assert.equal(AI_SDK_REQUEST_LIMITS.bodyBytesInFlight, 64 * 1024 * 1024);
      // A budget of 1,600,000 bytes: 100,000 (one held body) an address.
      const { demo, cookieOf } = await example(t, { requestLimits: { bodyBytesInFlight: 1_600_000 } });
      for (let i = 0; i < 16; i++) hold(t, demo, `127.0.2.${i + 1}`, cookieOf());
      await settle();
      assert.deepEqual(await send(demo, '127.0.2.1', '/api/chat', { cookie: cookieOf(), body: message('m1') }), {
        status: 429,
        retryAfter: '1',
        connection: 'close',
        error: "this address's request bodies being read would pass 100000 bytes; retry in 1 s",
      });
      assert.deepEqual(await send(demo, '127.0.2.17', '/api/chat', { cookie: cookieOf(), unfinished: true }), {
        status: 503,
        retryAfter: '1',
        connection: 'close',
        error: 'the server is reading as many request bodies as it may at once (1.5 MiB); retry in 1 s',
      });
      assert.equal((await send(demo, '127.0.2.18', '/api/chat', { cookie: cookieOf(), body: message('m1') })).status, 200);
    });

    it('behind a trusted proxy counts the X-Forwarded-For client; a forged header from anyone else counts the peer', async (t) => {
      const { demo } = await example(t, { trustedProxies: ['127.0.0.9'], requestLimits: { perAddress: { perSecond: 0.001, burst: 2 } } });
      const through = (client: string) => send(demo, '127.0.0.9', '/favicon.ico', { xff: client });
      assert.deepEqual([(await through('203.0.113.1')).status, (await through('203.0.113.1')).status], [204, 204]);
      assert.equal((await through('203.0.113.1')).status, 429, "the third of one client's");
      assert.equal((await through('203.0.113.2')).status, 204, 'another client behind the same proxy');
      const forged = (client: string) => send(demo, '127.0.0.10', '/favicon.ico', { xff: client });
      assert.deepEqual([(await forged('198.51.100.1')).status, (await forged('198.51.100.2')).status], [204, 204]);
      assert.equal((await forged('198.51.100.3')).status, 429, 'a forged header does not make a new address');
    });
  });

  it('npm run demo:ai-sdk with a bad TASK_SURFACE_TRUSTED_PROXIES entry exits 2, naming it', async () => {
    const main = fileURLToPath(new URL('../../demo/ai-sdk/main.ts', import.meta.url));
    const child = spawn(process.execPath, [...TSX_IMPORT, main], {
      env: { ...process.env, PORT: '0', OPENAI_API_KEY: '', TASK_SURFACE_TRUSTED_PROXIES: '10.0.0.0/8, example.com' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2, output);
    assert.match(output, /trustedProxies: "example.com" is not an IP address or a CIDR/);
  });
});
