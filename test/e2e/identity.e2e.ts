import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IDENTITY_COOKIE } from '../../demo/identity.js';
import { e2eSuite, say } from './harness.js';

const suite = e2eSuite();

describe('Demo identities (real Chromium, real WebSocket host)', () => {
  it('two browser contexts are two identities: each sees only its own chats', async () => {
    const demo = await suite.start();
    const mine = demo.server.demo.host.as(demo.principal).openSession({ title: 'Private plans' });
    const pageA = await demo.open();
    const titles = (page: typeof pageA) => page.locator('demo-chat-app .sessions button.session').allTextContents();
    await pageA.locator('demo-chat-app .sessions button.session', { hasText: 'Private plans' }).waitFor();
    assert.deepEqual(
      (await titles(pageA)).map((t) => t.trim()),
      ['Welcome', 'Private plans'],
    );
    await say(pageA, 'compare databases');

    // A second context starts with no cookie: the page gives it its own identity and Welcome chat.
    const other = await demo.context.browser()!.newContext({ viewport: { width: 1200, height: 900 } });
    try {
      const pageB = await other.newPage();
      // Even asked for A's chat by its id, B gets only its own.
      await pageB.goto(`${demo.server.url}#session=${encodeURIComponent(mine)}`);
      await pageB.locator('demo-chat-app demo-transcript .top').waitFor();
      assert.deepEqual(
        (await titles(pageB)).map((t) => t.trim()),
        ['Welcome'],
      );
      assert.equal(await pageB.getByText('compare databases').count(), 0, 'nothing of A shows in B');
      const [cookie] = (await other.cookies()).filter((c) => c.name === IDENTITY_COOKIE);
      assert.ok(cookie, 'B got an identity cookie from the page');
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      assert.equal(await pageB.evaluate(() => document.cookie), '', 'scripts cannot read it');
      // Three sessions in all: A's two and B's Welcome.
      assert.equal(demo.server.demo.host.listSessions().length, 3);
    } finally {
      await other.close();
    }
  });
});
