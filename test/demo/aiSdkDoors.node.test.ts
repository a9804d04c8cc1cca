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
import { scriptedModel } from '../../demo/ai-sdk/model.js';
import {
  MAX_CHAT_BYTES,
  MAX_CHATS_PER_PRINCIPAL,
  startAiSdkDemo,
  TURNS_PER_MINUTE,
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
    const { cookieOf, post } = await example(t, { turnsPerMinute: 2 });
    const ann = cookieOf();
    const say = (id: string) => ({ id: 'c1', message: { id, role: 'user', parts: [{ type: 'text', text: id }] } });
    assert.equal((await post('/api/chat', say('m1'), { cookie: ann })).status, 200);
    assert.equal((await post('/api/chat', say('m2'), { cookie: ann })).status, 200);
    assert.equal((await post('/api/chat', say('m2'), { cookie: ann })).status, 200, 'a retry of a message is not a new turn');
    const third = await post('/api/chat', say('m3'), { cookie: ann });
    assert.equal(third.status, 429);
    assert.match((third.body as { error: string }).error, /^you sent 2 messages in the last minute \(at most 2\): send again in \d+ s$/);
    assert.equal((await post('/api/chat', say('m1'), { cookie: cookieOf() })).status, 200, 'another person is served');
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

  it('answers a body too large or nested too deep with a clear error', async (t) => {
    const { post, cookieOf } = await example(t);
    const deep = `{"id":"c1","message":${'['.repeat(70)}${']'.repeat(70)}}`;
    assert.deepEqual(await post('/api/chat', deep, { cookie: cookieOf() }), refused(400, 'the request body nests deeper than 64'));
    assert.deepEqual(
      await post('/api/chat', 'x'.repeat(256 * 1024 + 1), { cookie: cookieOf() }),
      refused(413, 'the request body is over 262144 bytes'),
    );
  });
});
