// `/mcp` under --workers (demo/mcpPeers.ts): a request for a session another worker holds is sent to
// the port that worker wrote in `ts_mcp_workers`; a worker that stops gracefully deletes its row, so
// no later request is sent to a port it no longer holds (which another process may take): the
// request is answered where it landed (404 "Session not found" there).
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { joinMcpPeers, type McpPeers } from '../../demo/mcpPeers.js';
import { freshSchema } from './helpers.js';

describe('/mcp peers: a worker stopped gracefully leaves no row behind', () => {
  let db: Awaited<ReturnType<typeof freshSchema>>;
  before(async () => {
    db = await freshSchema('mcppeers');
    await db.pool.query(`CREATE SCHEMA "${db.schema}"`);
  });
  after(() => db?.drop());

  /** A server of worker `peers`: forwards what it can, answers the rest `here`. */
  async function serve(peers: McpPeers) {
    const server = createServer((req, res) => {
      void peers.forward(req, res).then((sent) => sent || res.end('here'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  }
  const ask = (port: number, sessionId: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'mcp-session-id': sessionId } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end('{}');
    });
  const rows = async () =>
    (await db.pool.query(`SELECT worker_id FROM "${db.schema}".ts_mcp_workers ORDER BY worker_id`)).rows.map((r) => r.worker_id as string);

  it('deletes its row on close; a request for its session is then answered by the worker it reached', async (t) => {
    // Worker a's PROXY port: nothing listens there once it has stopped.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as { port: number }).port;
    await new Promise((resolve) => gone.close(resolve));
    const a = await joinMcpPeers({ db: db.pool, schema: db.schema, workerId: 'a', proxyPort: port });
    const b = await joinMcpPeers({ db: db.pool, schema: db.schema, workerId: 'b', proxyPort: 1 });
    t.after(() => b.close());
    assert.deepEqual(await rows(), ['a', 'b']);
    const atB = await serve(b);
    t.after(() => atB.close());
    const bPort = (atB.address() as { port: number }).port;
    const sessionId = a.mintSessionId();
    assert.match(sessionId, /^a\./, "a session's id names its worker");

    // Its row still there, its port dead: the session is gone with it.
    const dead = await ask(bPort, sessionId);
    assert.equal(dead.status, 404);
    assert.match(dead.body, /Session not found: the worker that held it has stopped/);

    await a.close();
    assert.deepEqual(await rows(), ['b'], "a's row is deleted");
    // A worker that has not looked a's port up yet sends nothing there.
    const c = await joinMcpPeers({ db: db.pool, schema: db.schema, workerId: 'c', proxyPort: 2 });
    t.after(() => c.close());
    const atC = await serve(c);
    t.after(() => atC.close());
    assert.deepEqual(await ask((atC.address() as { port: number }).port, sessionId), { status: 200, body: 'here' });
  });
});
