import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryStore } from '../host/store/memory.js';
import { createSqliteStore } from '../host/store/sqlite.js';
import type { SessionLogStore } from '../host/store/types.js';
import { createMcpHttpHandler, createPanelLedger, panelDocumentPath, readPanelDocument, type McpHttpHandler } from '../mcp/index.js';
import { originAllowed, requestPath } from '../transport/ws/origin.js';

/** SQLite under `dataDir`; memory when none is given or the file cannot be opened (said once on stderr). */
function openStore(dataDir: string | null): SessionLogStore {
  if (dataDir === null) return createMemoryStore();
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return createSqliteStore(join(dataDir, 'mcp.db'));
  } catch (error) {
    console.error(`/mcp: cannot open ${join(dataDir, 'mcp.db')} (${(error as Error).message}); answered panels are kept in memory only`);
    return createMemoryStore();
  }
}

/**
 * `/mcp` on the demo server: the Task Surface MCP server over Streamable HTTP, behind the same Host
 * check as every request and the same Origin check as `/ws` (a browser page on another origin is
 * refused; a client that sends no Origin, as MCP hosts do, is let in). Answered panels are kept in
 * `mcp.db` beside the demo's own data (in memory with `--memory`).
 */
export function createDemoMcp(options: { dataDir: string | null; allowedOrigins?: readonly string[] | undefined }) {
  const store = openStore(options.dataDir);
  const ledger = createPanelLedger({ store });
  let handler: McpHttpHandler | undefined;
  const reply = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(text);
  };
  return {
    /** Answers `/mcp` (true), or leaves the request to the page server (false). `host`: the checked Host. */
    route(request: IncomingMessage, response: ServerResponse, host: string): boolean {
      if (requestPath(request) !== '/mcp') return false;
      if (!originAllowed(request.headers.origin, host, options.allowedOrigins))
        reply(response, 403, 'forbidden: this Origin may not use /mcp');
      else if (panelDocumentPath() === null) reply(response, 503, 'the MCP app document is not built: run `npm run build`');
      else {
        handler ??= createMcpHttpHandler({ appHtml: readPanelDocument(), ledger });
        handler.handle(request, response).catch(() => (response.headersSent ? response.destroy() : reply(response, 500, 'internal error')));
      }
      return true;
    },
    async close() {
      await handler?.close();
      await ledger.close();
      store.close();
    },
  };
}
