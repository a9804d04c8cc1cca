// `npm start -- --inspect`: the /inspect relay shows each identity only its own sessions' actors,
// refuses pages without the identity cookie, caps pages, and cuts off a page that does not read.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import { createInspectRelay } from '../../demo/inspectRelay.js';
import { createActor, createMachine } from 'xstate';
import { inspectSession } from '../../host/inspect.js';
import { mintMessageId, mintRpcId, type Principal, type SessionId } from '../../protocol/index.js';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'demo-inspect-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
});
after(() => rmSync(root, { recursive: true, force: true }));

interface Page {
  socket: WebSocket;
  frames: string[];
}

/** Opens /inspect with these headers: the page, or the refused upgrade's status and body. */
function openPage(port: number, headers: Record<string, string>): Promise<Page | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/inspect`, { headers: { Origin: `http://127.0.0.1:${port}`, ...headers } });
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(String(data)));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
    socket.once('open', () => resolve({ socket, frames }));
  });
}

const cookieOf = (server: DemoServer) => {
  const { principal, cookie } = server.identities.issue();
  return { principal, headers: { Cookie: `${cookie.name}=${cookie.value}` } };
};

async function chat(server: DemoServer, principal: Principal, text: string): Promise<SessionId> {
  const host = server.demo.host.as(principal);
  const sessionId = host.openSession({ title: text });
  await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
  await server.demo.host.whenIdle(sessionId);
  return sessionId;
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within 10 s');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('demo /inspect relay', () => {
  it('refuses a page without the identity cookie (401), whatever its Origin', async () => {
    const server = await startDemoServer({ root, store: 'memory', inspectHost: true });
    after(() => server.close());
    await chat(server, cookieOf(server).principal, 'secret plans');
    const refused = await openPage(server.port, {});
    assert.ok(!('socket' in refused));
    assert.equal(refused.status, 401);
    const noOrigin = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}/inspect`);
      socket.once('unexpected-response', (_q, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
    });
    assert.equal(noOrigin, 401);
  });

  it("relays each identity only its own sessions' actors, live and replayed", async () => {
    const server = await startDemoServer({ root, store: 'memory', inspectHost: true });
    after(() => server.close());
    const alice = cookieOf(server);
    const bob = cookieOf(server);
    const live = await openPage(server.port, alice.headers);
    assert.ok('socket' in live);
    after(() => live.socket.close());
    await chat(server, alice.principal, 'alice compares databases');
    await chat(server, bob.principal, 'bob compares databases');
    await until(() => live.frames.some((f) => f.includes('alice compares databases')));
    // Host code's own session is nobody's to see either.
    await chat(server, { id: 'carol', name: 'Carol' }, 'carol compares databases');
    const later = await openPage(server.port, alice.headers);
    assert.ok('socket' in later);
    after(() => later.socket.close());
    await until(() => later.frames.some((f) => f.includes('alice compares databases')));
    const forBob = await openPage(server.port, bob.headers);
    assert.ok('socket' in forBob);
    after(() => forBob.socket.close());
    await until(() => forBob.frames.some((f) => f.includes('bob compares databases')));
    for (const page of [live, later]) {
      assert.ok(!page.frames.some((f) => f.includes('bob') || f.includes('carol')), "alice's pages never see another's actors");
    }
    assert.ok(!forBob.frames.some((f) => f.includes('alice') || f.includes('carol')));
  });

  it('caps pages at 4 per identity (429 too-many-connections); other identities still get in', async () => {
    const server = await startDemoServer({ root, store: 'memory', inspectHost: true });
    after(() => server.close());
    const alice = cookieOf(server);
    const pages: Page[] = [];
    after(() => pages.forEach((p) => p.socket.close()));
    for (let i = 0; i < 4; i++) {
      const page = await openPage(server.port, alice.headers);
      assert.ok('socket' in page);
      pages.push(page);
    }
    const fifth = await openPage(server.port, alice.headers);
    assert.ok(!('socket' in fifth));
    assert.equal(fifth.status, 429);
    assert.match(fifth.body, /^too-many-connections: at most 4 per identity/);
    const other = await openPage(server.port, cookieOf(server).headers);
    assert.ok('socket' in other);
    pages.push(other);
    pages[0]!.socket.close();
    await until(() => server.demo !== undefined && pages[0]!.socket.readyState === WebSocket.CLOSED);
    await new Promise((r) => setTimeout(r, 50));
    const again = await openPage(server.port, alice.headers);
    assert.ok('socket' in again, 'a closed page frees its place');
    pages.push(again);
  });

  it('closes a page that does not read once 1 MiB waits for it (4008); other pages go on', async () => {
    const http = createServer();
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const relay = createInspectRelay(http, { principalOf: () => ({ id: 'alice', name: 'Alice' }), canSee: () => true });
    const actor = createActor(createMachine({ on: { '*': {} } }), {
      inspect: inspectSession(relay.inspect, 'flooded' as SessionId),
    }).start();
    after(async () => {
      actor.stop();
      relay.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    });
    const port = (http.address() as { port: number }).port;
    const stalled = await openPage(port, {});
    const reading = await openPage(port, {});
    assert.ok('socket' in stalled && 'socket' in reading);
    let code: number | undefined;
    stalled.socket.once('close', (c) => (code = c));
    // The page stops reading: its socket's bytes pile up in the server.
    const tcp = (stalled.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    tcp.pause();
    const payload = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 2_000 && relay.pageCount > 1; i++) {
      actor.send({ type: 'flood', payload });
      await new Promise((r) => setTimeout(r, 1));
    }
    assert.equal(relay.pageCount, 1, 'the page that does not read is let go');
    tcp.resume();
    await until(() => code !== undefined);
    assert.ok(code === 4008 || code === 1006, `closed with ${code}`);
    const before = reading.frames.length;
    actor.send({ type: 'after' });
    await until(() => reading.frames.length > before);
  });
});
