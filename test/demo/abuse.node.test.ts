// What one visitor of the demo cannot do to the others: mint identities without limit, read a
// secret from the startup banner, or have the ?inspect page post the actors to a window by name.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chooseModel } from '../../demo/agent/model.js';
import { postgresLabel, startDemoServer } from '../../demo/app.js';
import { INSPECTOR_URL, openInspectorWindow } from '../../demo/page/inspectorWindow.js';
import { shownUrl } from '../../demo/shownUrl.js';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'demo-abuse-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('demo limits', () => {
  it('mints at most 60 identities at once per address, then 30 a minute (429, Retry-After); a known visitor is served', async () => {
    const server = await startDemoServer({ root, store: 'memory' });
    after(() => server.close());
    let cookie = '';
    for (let i = 0; i < 60; i++) {
      const page = await fetch(server.url);
      assert.equal(page.status, 200, `identity ${i + 1}`);
      cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    }
    const refused = await fetch(server.url);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('set-cookie'), null);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.match(await refused.text(), /too many new identities from this address: retry in \d+ s/);
    const known = await fetch(server.url, { headers: { Cookie: cookie } });
    assert.equal(known.status, 200, 'a visitor who already has an identity is not refused');
    assert.equal((await fetch(`${server.url}assets/nothing.js`)).status, 404, 'assets mint nothing and are not limited');
  });

  it('prints base URLs without passwords, queries or control characters', () => {
    assert.equal(shownUrl('https://user:sk-secret@proxy.example/v1?api-key=sk-2#x'), 'https://user@proxy.example/v1?…');
    assert.equal(shownUrl('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
    assert.equal(shownUrl('http://h/\u001b[31mred'), 'http://h/%1B[31mred');
    assert.equal(shownUrl('not a url sk-secret'), '…');
    const { label } = chooseModel({ OPENAI_API_KEY: 'sk-live', OPENAI_BASE_URL: 'https://u:sk-pw@llm.example/v1?key=sk-q' });
    assert.ok(!label.includes('sk-'), label);
    assert.match(label, /at https:\/\/u@llm\.example\/v1\?…$/);
    assert.equal(postgresLabel('postgres://app:pw@db:5432/chat?sslpassword=x', 's'), 'PostgreSQL postgres://app@db:5432/chat?…, schema s');
  });

  it("posts the ?inspect page's events only to the inspector's origin, once its own window says it is connected", async () => {
    const posted: [unknown, string][] = [];
    const inspectorWindow = { closed: false, postMessage: (data: unknown, origin: string) => posted.push([data, origin]) };
    let onMessage: (event: Partial<MessageEvent>) => void = () => {};
    const opened: unknown[][] = [];
    const win = {
      open: (...args: unknown[]) => (opened.push(args), inspectorWindow),
      addEventListener: (type: string, listener: typeof onMessage) => type === 'message' && (onMessage = listener),
    } as unknown as Window;
    const inspector = openInspectorWindow(win);
    assert.deepEqual(opened, [[INSPECTOR_URL]], 'opened without a window name');
    inspector.send({ type: '@xstate.event', text: 'a private message' });
    const connected = { data: { type: '@statelyai.connected' } };
    onMessage({ ...connected, origin: 'https://evil.example', source: inspectorWindow as unknown as Window });
    onMessage({ ...connected, origin: 'https://stately.ai', source: {} as Window });
    assert.equal(posted.length, 0, 'nothing before the inspector itself says it is connected');
    onMessage({ ...connected, origin: 'https://stately.ai', source: inspectorWindow as unknown as Window });
    inspector.send({ type: '@xstate.event', text: 'later' });
    assert.deepEqual(
      posted.map(([, origin]) => origin),
      ['https://stately.ai', 'https://stately.ai'],
    );
  });
});
