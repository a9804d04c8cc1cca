import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { startDemoServer } from '../../demo/app.js';
import { buildDemo } from '../../demo/build.js';
import { IDENTITY_COOKIE } from '../../demo/identity.js';
import { closeWhenDone } from '../closeWhenDone.js';

/** Opens the demo's socket with these headers: the list of sessions it sees, or the refused upgrade's status. */
function listOver(port: number, headers: Record<string, string>): Promise<number | { title: string }[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Origin: `http://127.0.0.1:${port}`, ...headers } });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ id: 'l', type: 'session.list' })));
    socket.once('message', (data) => {
      socket.close();
      resolve((JSON.parse(String(data)) as { result: { title: string }[] }).result);
    });
  });
}

describe('demo identity: a signed cookie per browser', () => {
  let root: string;
  let data: string;
  before(async () => {
    root = await buildDemo(mkdtempSync(join(tmpdir(), 'ts-demo-id-')));
    data = mkdtempSync(join(tmpdir(), 'ts-demo-id-data-'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('sets an HttpOnly, SameSite=Strict cookie on the page; the secret is made once, mode 0600', async (t) => {
    const server = await startDemoServer({ root, store: 'sqlite', dataDir: data });
    const closeFirst = closeWhenDone(t, server);
    const page = await fetch(server.url);
    const setCookie = page.headers.get('set-cookie')!;
    assert.match(setCookie, new RegExp(`^${IDENTITY_COOKIE}=[\\w-]{22}\\.[\\w-]{43}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Strict$`));
    const cookie = setCookie.split(';')[0]!;
    const again = await fetch(server.url, { headers: { Cookie: cookie } });
    assert.equal(again.headers.get('set-cookie'), null, 'a valid cookie is kept');
    assert.equal((await fetch(`${server.url}assets/app.css`)).headers.get('set-cookie'), null, 'assets set nothing');
    const secretFile = join(data, 'identity.secret');
    assert.equal(statSync(secretFile).mode & 0o777, 0o600);
    const secret = readFileSync(secretFile, 'utf8');
    const first = await listOver(server.port, { Cookie: cookie });
    assert.deepEqual(
      (first as { title: string }[]).map((s) => s.title),
      ['Welcome'],
    );
    await closeFirst();
    const restarted = await startDemoServer({ root, store: 'sqlite', dataDir: data });
    closeWhenDone(t, restarted);
    assert.equal(readFileSync(secretFile, 'utf8'), secret, 'kept across restarts');
    assert.deepEqual(await listOver(restarted.port, { Cookie: cookie }), first, 'the same browser keeps its one Welcome chat');
  });

  it('refuses the socket without a cookie, with a forged one, or with a tampered signature (401)', async (t) => {
    const server = await startDemoServer({ root, store: 'memory' });
    closeWhenDone(t, server);
    const { cookie } = server.identities.issue();
    const [id, mac] = cookie.value.split('.') as [string, string];
    assert.equal(await listOver(server.port, {}), 401);
    assert.equal(await listOver(server.port, { Cookie: `${IDENTITY_COOKIE}=${id}.${'A'.repeat(43)}` }), 401);
    assert.equal(await listOver(server.port, { Cookie: `${IDENTITY_COOKIE}=${'B'.repeat(22)}.${mac}` }), 401);
    const lastChanged = `${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(await listOver(server.port, { Cookie: `${IDENTITY_COOKIE}=${lastChanged}` }), 401, 'one MAC character changed');
    assert.equal(await listOver(server.port, { Cookie: `${IDENTITY_COOKIE}=garbage` }), 401);
    assert.deepEqual(
      ((await listOver(server.port, { Cookie: `other=1; ${cookie.name}=${cookie.value}` })) as { title: string }[]).map((s) => s.title),
      ['Welcome'],
    );
  });

  it('two identities each see only their own chats, each with its own Welcome', async (t) => {
    const server = await startDemoServer({ root, store: 'memory' });
    closeWhenDone(t, server);
    const a = server.identities.issue();
    const b = server.identities.issue();
    const header = (who: typeof a) => ({ Cookie: `${who.cookie.name}=${who.cookie.value}` });
    const mine = server.demo.host.as(a.principal).openSession({ title: 'Only mine' });
    const seenByA = (await listOver(server.port, header(a))) as { sessionId: string; title: string }[];
    const seenByB = (await listOver(server.port, header(b))) as { sessionId: string; title: string }[];
    assert.deepEqual(
      seenByA.map((s) => s.title),
      ['Only mine'],
      'an identity that has a chat gets no Welcome',
    );
    assert.equal(seenByA[0]!.sessionId, mine);
    assert.deepEqual(
      seenByB.map((s) => s.title),
      ['Welcome'],
    );
    assert.equal(server.demo.host.listSessions().length, 2);
  });
});
