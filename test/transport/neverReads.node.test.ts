// A socket that never reads its answers cannot make the server hold what it asked for: log.read pages
// are built within the byte budget (no whole-page build and copy first). Over a real server process,
// measured by its own RSS.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { neverReading, startBigLogServer } from '../../fixtures/bigLogServer.js';

it('one socket asking log.read (limit 500) 60 times on 15 MB of log and never reading adds far less than a page per ask', async (t) => {
  const server = await startBigLogServer();
  t.after(() => server.close());
  const before = await server.reset();
  await neverReading(server.port, 1, 60, 3_000);
  const added = (await server.peak()) - before;
  // Before the pages were built within the budget this was about 180 MB (each ask built and copied
  // the whole 15 MB page); the bench measures about 10 MB.
  assert.ok(added < 96 * 1024 * 1024, `the server's RSS grew by ${Math.round(added / 1024 / 1024)} MB`);
});
