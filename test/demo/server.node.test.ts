import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { startDemoServer } from '../../demo/app.js';
import { HistoryWindow } from '../../demo/page/history.js';
import { mintMessageId, mintRpcId, type LogPage, type SessionEvent, type SessionId } from '../../protocol/index.js';
import type { HostTransport } from '../../transport/types.js';
import { closeWhenDone } from '../closeWhenDone.js';
import { inTime, until, WAIT_MS } from '../transport/helpers.js';

let root: string;
let data: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'demo-root-'));
  data = mkdtempSync(join(tmpdir(), 'demo-data-'));
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
});
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

describe('demo server', () => {
  it('serves the page with a strict CSP and Trusted Types, and nothing outside its root', async (t) => {
    const server = await startDemoServer({ root, store: 'memory' });
    closeWhenDone(t, server);
    const page = await fetch(server.url);
    const csp = page.headers.get('content-security-policy')!;
    for (const directive of [
      "script-src 'self'",
      "default-src 'none'",
      "require-trusted-types-for 'script'",
      'trusted-types lit-html',
      "object-src 'none'",
    ]) {
      assert.ok(csp.includes(directive), `${directive} in ${csp}`);
    }
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
    assert.equal((await fetch(`${server.url}assets/..%2f..%2fetc%2fpasswd`)).status, 404);
    assert.equal((await fetch(`${server.url}nope`)).status, 404);
  });

  it('keeps every session across a restart on SQLite', async (t) => {
    const first = await startDemoServer({ root, store: 'sqlite', dataDir: data });
    const closeFirst = closeWhenDone(t, first);
    first.demo.welcome(first.identities.issue().principal);
    const extra = first.demo.host.openSession({ title: 'Kept' });
    await first.demo.host.session.send({ sessionId: extra, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'compare databases' });
    await inTime(first.demo.host.whenIdle(extra), 'the first server to be idle');
    const lastSeq = first.demo.host.getView(extra).lastSeq;
    await closeFirst();
    const second = await startDemoServer({ root, store: 'sqlite', dataDir: data });
    closeWhenDone(t, second);
    const titles = second.demo.host.listSessions().map((s) => s.title);
    assert.deepEqual(titles, ['Welcome', 'Kept']);
    assert.equal(second.demo.host.getView(extra).lastSeq, lastSeq);
    assert.notEqual(second.demo.host.getView(extra).taskSurface.active, null);
  });

  it('relays the host actors to /inspect pages with --inspect', async (t) => {
    const server = await startDemoServer({ root, store: 'memory', inspectHost: true });
    const { principal, cookie } = server.identities.issue();
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/inspect`, { headers: { Cookie: `${cookie.name}=${cookie.value}` } });
    // The socket first: the server's close would otherwise wait for it.
    closeWhenDone(t, { close: () => (socket.terminate(), server.close()) });
    const types = new Set<string>();
    socket.on('message', (data) => types.add(String(JSON.parse(String(data)).type)));
    await inTime(new Promise((r) => socket.once('open', r)), 'the /inspect socket to open');
    const sessionId = server.demo.host.as(principal).openSession({ title: 'Inspected' });
    await server.demo.host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'compare databases' });
    await inTime(server.demo.host.whenIdle(sessionId), 'the server to be idle');
    await until(() => types.has('@xstate.actor') && types.has('@xstate.snapshot'), 10, WAIT_MS, 'an actor and a snapshot relayed');
  });
});

describe('demo history window', () => {
  const event = (seq: number): SessionEvent => ({ seq, at: 0, type: 'turn/started', turnId: `t${seq}` }) as SessionEvent;
  const fakeTransport = (log: { n: number }) =>
    ({
      async readLog(_: SessionId, { before, limit }: { before?: number; limit: number }): Promise<LogPage> {
        const end = Math.min(log.n, (before ?? log.n + 1) - 1);
        const start = Math.max(1, end - limit + 1);
        return { events: Array.from({ length: end - start + 1 }, (_, i) => event(start + i)), hasMore: start > 1, lastSeq: log.n };
      },
    }) as unknown as HostTransport;

  it('loads the newest page, older pages on demand, and catches up exactly even when the log grew meanwhile', async () => {
    const log = { n: 25 };
    const history = new HistoryWindow(fakeTransport(log), 's' as SessionId, 10, () => {});
    await history.loadLatest();
    assert.deepEqual(
      history.events.map((e) => e.seq),
      [16, 17, 18, 19, 20, 21, 22, 23, 24, 25],
    );
    await history.loadOlder();
    assert.equal(history.events[0]!.seq, 6);
    assert.equal(history.hasMore, true);
    log.n = 40;
    await history.catchUp(30); // the view said 30, the log already has 40
    assert.deepEqual(
      history.events.slice(-5).map((e) => e.seq),
      [26, 27, 28, 29, 30],
    );
    await history.catchUp(40);
    assert.deepEqual(
      history.events.map((e) => e.seq),
      Array.from({ length: 35 }, (_, i) => i + 6),
    );
  });
});
