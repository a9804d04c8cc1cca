// `/mcp` under `--workers N`: a 2025-era MCP session (`Mcp-Session-Id`) lives in the worker that
// answered its `initialize`, with its elicitations in flight and its event stream. Its id starts with
// that worker's id, and a request for it that the balancer gives another worker is sent on to it,
// unchanged, through its PROXY-protocol port with the client's own address (so its caps count the
// client, not the worker). Each worker writes where that port is in one row of `ts_mcp_workers`.
// 2026-07-28 requests carry no session: any worker answers them from the shared panel ledger.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { connect, isIP } from 'node:net';
import { quoteSchema } from '../host/store/postgres/migrations.js';
import type { Queryable } from '../transport/cluster/ownership.js';
import { clientAddress } from '../transport/proxyProtocol.js';

/** Hop-by-hop headers: never sent on. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);
const GONE = 'Session not found: the worker that held it has stopped; start a new one with initialize';
/** Worker rows remembered this long before being read again. */
const REMEMBER_MS = 20_000;

export interface McpPeers {
  /** A new session's id: this worker's id, a dot, a random UUID. */
  mintSessionId(): string;
  /** Sends the request on to the worker that holds its session (true), or leaves it to this one (false). */
  forward(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
}

/** Registers this worker (`workerId`, its PROXY-protocol port on loopback) in `schema`. */
export async function joinMcpPeers(options: { db: Queryable; schema: string; workerId: string; proxyPort: number }): Promise<McpPeers> {
  const table = `${quoteSchema(options.schema)}.ts_mcp_workers`;
  await options.db.query(`CREATE TABLE IF NOT EXISTS ${table} (worker_id text PRIMARY KEY, proxy_port integer NOT NULL)`);
  await options.db.query(
    `INSERT INTO ${table} (worker_id, proxy_port) VALUES ($1, $2) ON CONFLICT (worker_id) DO UPDATE SET proxy_port = EXCLUDED.proxy_port`,
    [options.workerId, options.proxyPort],
  );
  const ports = new Map<string, { port: number | null; at: number }>();
  const portOf = async (workerId: string): Promise<number | null> => {
    const known = ports.get(workerId);
    if (known && Date.now() - known.at < REMEMBER_MS) return known.port;
    const { rows } = await options.db.query(`SELECT proxy_port FROM ${table} WHERE worker_id = $1`, [workerId]);
    const port = typeof rows[0]?.['proxy_port'] === 'number' ? rows[0]['proxy_port'] : null;
    if (ports.size > 1_000) ports.clear();
    ports.set(workerId, { port, at: Date.now() });
    return port;
  };

  const send = (request: IncomingMessage, response: ServerResponse, port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const address = clientAddress(request.socket) ?? '127.0.0.1';
      const family = isIP(address) === 6 ? 6 : 4;
      const socket = connect({ host: '127.0.0.1', port });
      socket.write(`PROXY TCP${family} ${address} ${family === 6 ? '::1' : '127.0.0.1'} 0 ${port}\r\n`);
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP.has(name)));
      const onward = httpRequest({ createConnection: () => socket, method: request.method, path: request.url, headers }, (answer) => {
        const back = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP.has(name)));
        response.writeHead(answer.statusCode ?? 502, back as Record<string, string | string[]>);
        answer.pipe(response);
        resolve(true);
      });
      // The worker is gone before answering: so is its session (the body is spent, so answered here).
      onward.on('error', () => {
        if (response.headersSent) return void response.destroy();
        response.writeHead(404, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: GONE }, id: null }));
        resolve(true);
      });
      response.on('close', () => onward.destroy());
      request.pipe(onward);
    });

  return {
    mintSessionId: () => `${options.workerId}.${randomUUID()}`,
    async forward(request, response) {
      const id = request.headers['mcp-session-id'];
      if (typeof id !== 'string') return false;
      const dot = id.lastIndexOf('.');
      const workerId = dot > 0 ? id.slice(0, dot) : '';
      if (workerId === '' || workerId === options.workerId) return false;
      const port = await portOf(workerId).catch(() => null);
      return port === null ? false : send(request, response, port);
    },
    async close() {
      await options.db.query(`DELETE FROM ${table} WHERE worker_id = $1`, [options.workerId]).catch(() => undefined);
    },
  };
}
