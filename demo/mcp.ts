import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryStore } from '../host/store/memory.js';
import { createSqliteStore } from '../host/store/sqlite.js';
import type { SessionLogStore } from '../host/store/types.js';
import { createMcpHttpHandler, createPanelLedger, panelDocumentPath, readPanelDocument, type McpHttpHandler } from '../mcp/index.js';
import type { Principal } from '../protocol/index.js';
import { requestAddress } from '../transport/forwarded.js';
import type { McpPeers } from './mcpPeers.js';
import { originAllowed, requestPath } from '../transport/ws/origin.js';

/**
 * SQLite under `dataDir`, or memory when none is given (`--memory`). A file that cannot be opened
 * fails the start, saying why, rather than keep panels in memory that another process cannot read.
 */
function openStore(dataDir: string | null): SessionLogStore {
  if (dataDir === null) return createMemoryStore();
  const file = join(dataDir, 'mcp.db');
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return createSqliteStore(file);
  } catch (error) {
    throw new Error(`/mcp: cannot open ${file}: ${(error as Error).message}. Give the demo a data folder of its own, or use --memory`, {
      cause: error,
    });
  }
}

/** The demo's `/mcp` request body limit: a panel's model is at most 64 KiB, its answer 32 KiB. */
export const DEMO_MCP_MAX_BODY = 1024 * 1024;

/** What a web-based MCP host on a listed origin may send and read (CORS). */
const CORS_REQUEST_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';
const CORS_EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version';

export interface DemoMcpOptions {
  dataDir: string | null;
  /**
   * Where panels are kept instead of `dataDir`'s `mcp.db`: the store every process of a deployment
   * shares (PostgreSQL under `--workers N`), so any process reads and answers any panel. The caller closes it.
   */
  store?: SessionLogStore | undefined;
  /** Under `--workers N`: the other workers, to which a request for a session they hold is sent on. */
  peers?: (() => McpPeers | undefined) | undefined;
  /** Who sends a request: the demo's identity (its cookie, or `Authorization: Bearer <the cookie's value>`). */
  principalOf(request: IncomingMessage): Principal | null;
  /** Page origins that may open `/ws` besides the demo's own: they may use `/mcp` from a page too. */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Origins of web-based MCP hosts whose pages call `/mcp` (CORS: preflight answered, the session
   * headers exposed; no cookies cross origins, so such a host sends the bearer token). Default none.
   */
  corsOrigins?: readonly string[] | undefined;
  /** A request body must arrive whole within this many milliseconds. Default the handler's, 10 s. */
  bodyTimeoutMs?: number | undefined;
  /**
   * Under `--workers N`: N, passed as the handler's `processes`. One address's sessions and requests
   * a second are counted by each worker on its own, so each holds its share, ceil(limit / N) (of 64
   * sessions, 200 requests a second after 400), and its refusals name the share. Default 1.
   */
  workers?: number | undefined;
}

/**
 * `/mcp` on the demo server: the Task Surface MCP server over Streamable HTTP, behind the same Host
 * check as every request, the same Origin check as `/ws` (a page on another origin gets 403 unless
 * listed; a client without an Origin, as MCP hosts are, is let in) and the same identity: a request
 * without a valid identity gets 401, and every panel is its shower's alone. Answered panels are kept
 * in `mcp.db` beside the demo's own data (in memory with `--memory`).
 */
export function createDemoMcp(options: DemoMcpOptions) {
  const store = options.store ?? openStore(options.dataDir);
  const ledger = createPanelLedger({ store });
  const cors = new Set((options.corsOrigins ?? []).map((o) => o.toLowerCase()));
  const workers = options.workers ?? 1;
  let handler: McpHttpHandler | undefined;
  const reply = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(text);
  };
  return {
    /** Answers `/mcp` (true), or leaves the request to the page server (false). `host`: the checked Host. */
    route(request: IncomingMessage, response: ServerResponse, host: string): boolean {
      if (requestPath(request) !== '/mcp') return false;
      const origin = request.headers.origin;
      const listed = origin !== undefined && cors.has(origin.toLowerCase());
      if (listed) {
        response.setHeader('Access-Control-Allow-Origin', origin);
        response.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
        response.setHeader('Vary', 'Origin');
      }
      if (!listed && !originAllowed(origin, host, options.allowedOrigins)) reply(response, 403, 'forbidden: this Origin may not use /mcp');
      else if (request.method === 'OPTIONS') {
        response.writeHead(listed ? 204 : 405, {
          ...(listed
            ? {
                'Access-Control-Allow-Methods': 'GET, POST, DELETE',
                'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
                'Access-Control-Max-Age': '600',
              }
            : {}),
          'Cache-Control': 'no-store',
        });
        response.end();
      } else if (panelDocumentPath() === null) reply(response, 503, 'the MCP app document is not built: run `npm run build`');
      else {
        const serve = () => {
          handler ??= createMcpHttpHandler({
            appHtml: readPanelDocument(),
            ledger,
            authenticate: options.principalOf,
            // Behind the balancer: the client's address, as its PROXY header (or a trusted X-Forwarded-For) names it.
            remoteAddress: requestAddress,
            maxBodyBytes: DEMO_MCP_MAX_BODY,
            ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
            // One address's 64 sessions and 200 requests a second (the defaults), dealt over the workers.
            processes: workers,
            ...(options.peers ? { mintSessionId: () => options.peers?.()?.mintSessionId() ?? randomUUID() } : {}),
          });
          handler
            .handle(request, response)
            .catch(() => (response.headersSent ? response.destroy() : reply(response, 500, 'internal error')));
        };
        // Under --workers: a session another worker holds is answered there (demo/mcpPeers.ts).
        const peers = options.peers?.();
        if (!peers) serve();
        else void peers.forward(request, response).then((sent) => sent || serve(), serve);
      }
      return true;
    },
    async close() {
      await handler?.close();
      await ledger.close();
      if (!options.store) store.close();
    },
  };
}
