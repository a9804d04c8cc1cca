// The demo's identity minting at its default rate, 60 at once and then 30 a minute per address,
// with the clock mocked so the refill is observed exactly instead of waited for.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { startDemoServer } from '../../demo/app.js';
import { closeWhenDone } from '../closeWhenDone.js';

it('mints 60 identities at once per address, then one every 2 s (30 a minute), saying when to retry', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'demo-mint-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
  t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  const server = await startDemoServer({ root, store: 'memory' });
  closeWhenDone(t, server);
  /** How many new visitors in a row get an identity (status 200), and the refusal after them. */
  const mintAll = async () => {
    for (let minted = 0; ; minted++) {
      const page = await fetch(server.url);
      await page.arrayBuffer();
      if (page.status !== 200) return { minted, status: page.status, retryAfter: page.headers.get('retry-after') };
    }
  };
  assert.deepEqual(await mintAll(), { minted: 60, status: 429, retryAfter: '2' });
  t.mock.timers.tick(1_999);
  assert.deepEqual(await mintAll(), { minted: 0, status: 429, retryAfter: '1' });
  t.mock.timers.tick(1);
  assert.deepEqual(await mintAll(), { minted: 1, status: 429, retryAfter: '2' }, 'one token 2 s after the last');
  t.mock.timers.tick(60_000);
  assert.deepEqual(await mintAll(), { minted: 30, status: 429, retryAfter: '2' }, '30 a minute');
});
