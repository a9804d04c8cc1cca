// `/mcp` for web-based MCP hosts (issue 38, item 4; issue 37): a page on another origin that the
// demo lists in `mcpCorsOrigins` calls `/mcp` from Chromium with the identity as a bearer token and
// reads the session header; a page on an unlisted origin is refused by the Origin check, and the
// browser never shows it the answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../../demo/app.js';
import { ensurePanelBuilt } from '../mcp/helpers.js';
import { sharedChromium, type SharedChromium } from './harness.js';

describe('/mcp from a web-based MCP host on another origin', { timeout: 120_000 }, () => {
  let demo: DemoServer;
  let browser: Browser;
  let chromium: SharedChromium | undefined;
  let site: Server;
  let listed: string;
  let unlisted: string;
  let data: string;

  before(async () => {
    await ensurePanelBuilt();
    data = mkdtempSync(join(tmpdir(), 'ts-mcp-cors-'));
    // Two origins for one page server: 127.0.0.1 and localhost name different origins.
    site = createServer((_req, res) => res.end('<!doctype html><title>MCP host</title>'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    listed = `http://localhost:${port}`;
    unlisted = `http://127.0.0.1:${port}`;
    demo = await startDemoServer({ root: data, store: 'memory', dataDir: data, mcpCorsOrigins: [listed] });
    chromium = await sharedChromium();
    browser = chromium.browser;
  });
  after(async () => {
    await chromium?.close();
    await demo?.close();
    site?.close();
    rmSync(data, { recursive: true, force: true });
  });

  /** From a page of `origin`: initialize on `/mcp` with the bearer token; what the page could read. */
  async function initializeFrom(origin: string, token: string): Promise<{ status?: number; session?: string | null; failed?: string }> {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(
        async ({ url, token }) => {
          try {
            const response = await fetch(url, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'initialize',
                params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'web-host', version: '1' } },
              }),
            });
            await response.text();
            return { status: response.status, session: response.headers.get('mcp-session-id') };
          } catch (error) {
            return { failed: (error as Error).name };
          }
        },
        { url: `${demo.url}mcp`, token },
      );
    } finally {
      await page.close();
    }
  }

  it('serves a listed origin with the bearer token, its session header readable', async () => {
    const { cookie } = demo.identities.issue();
    const answer = await initializeFrom(listed, cookie.value);
    assert.equal(answer.status, 200);
    assert.match(answer.session ?? '', /^[0-9a-f-]{36}$/, 'Mcp-Session-Id is exposed to the page');
  });

  it('refuses an unlisted origin: the browser shows the page nothing', async () => {
    const { cookie } = demo.identities.issue();
    assert.deepEqual(await initializeFrom(unlisted, cookie.value), { failed: 'TypeError' });
  });

  it('a listed origin without a token gets 401, readable, so the host can ask the person to sign in', async () => {
    assert.deepEqual(await initializeFrom(listed, 'forged.token'), { status: 401, session: null });
  });
});
