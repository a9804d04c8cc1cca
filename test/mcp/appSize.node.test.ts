// The app document's budget: at most 60 KB gzip with every shipped language, and no ext-apps `App`,
// MCP client protocol or zod inside (the panel speaks MCP Apps through mcp/app/hostClient.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/ext-apps';
import { SHIPPED_LOCALES } from '../../components/i18n/index.js';
import { PROTOCOL_VERSION } from '../../mcp/app/hostClient.js';
import { panelDocumentPath } from '../../mcp/document.js';
import { APP_STRINGS } from '../../mcp/app/strings.js';
import { ensurePanelBuilt } from './helpers.js';

/** The aim of issue 38, in bytes of gzip at level 9 (what `npm run bench -- mcp` prints). */
const BUDGET = 60 * 1024;

before(ensurePanelBuilt, { timeout: 180_000 });

test('the app document is at most 60 KB gzip, with every shipped language in it', () => {
  const html = readFileSync(panelDocumentPath()!, 'utf8');
  const gzip = gzipSync(html, { level: 9 }).length;
  assert.ok(gzip <= BUDGET, `the app document is ${(gzip / 1024).toFixed(1)} KB gzip, over the ${BUDGET / 1024} KB budget`);
  for (const tag of SHIPPED_LOCALES) assert.ok(html.includes(APP_STRINGS[tag]!.tryAgain), `the ${tag} table is in the document`);
  assert.doesNotMatch(html, /_zod|\$ZodType/, 'no zod');
  assert.doesNotMatch(html, /Failed to parse message|App is already connected/, 'no ext-apps App');
});

test("the panel's client speaks the MCP Apps version ext-apps speaks", () => {
  assert.equal(PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION);
});
