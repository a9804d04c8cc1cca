import { mkdirSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createMemoryStore } from '../host/store/memory.js';
import { createSqliteStore } from '../host/store/sqlite.js';
import type { SessionLogStore } from '../host/store/types.js';
import type { TaskSurfaceLimitsInput, ToolMode } from '../protocol/index.js';
import { readPanelDocument } from './document.js';
import { createPanelLedger } from './ledger.js';
import { createTaskSurfaceMcpServer } from './server.js';
import { guardLines } from './stdioLines.js';

export interface StdioServerOptions {
  /** Folder of `mcp.db` (SQLite), where answered panels are remembered across restarts; null: memory only. */
  dataDir: string | null;
  limits?: TaskSurfaceLimitsInput;
  toolMode?: ToolMode;
  /** Where notes go (never stdout: that is the protocol's). Default: stderr. */
  log?: (line: string) => void;
  /** The protocol's input. Default: stdin. */
  stdin?: Readable;
}

/** Opens the store: SQLite under `dataDir`, or memory when none is given or the file cannot be opened. */
function openStore(options: StdioServerOptions, log: (line: string) => void): SessionLogStore {
  if (options.dataDir === null) return createMemoryStore();
  try {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    return createSqliteStore(join(options.dataDir, 'mcp.db'));
  } catch (error) {
    log(`task-surface-mcp: cannot open ${join(options.dataDir, 'mcp.db')} (${(error as Error).message}); answers are kept in memory only`);
    return createMemoryStore();
  }
}

/**
 * Serves the Task Surface MCP server on stdin/stdout until the client closes the stream. Resolves
 * with a `close` that stops it (the ledger and store are closed too).
 */
export async function startStdioServer(options: StdioServerOptions): Promise<{ close(): Promise<void> }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const appHtml = readPanelDocument();
  const store = openStore(options, log);
  const ledger = createPanelLedger({
    store,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.toolMode ? { toolMode: options.toolMode } : {}),
  });
  const server = createTaskSurfaceMcpServer({ appHtml, ledger, ...(options.toolMode ? { toolMode: options.toolMode } : {}) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
    await ledger.close();
    store.close();
  };
  // stdio has one client, the local user who started it: it is host code (no per-principal limits),
  // as `allowAnonymous` is on HTTP. Its input is still bounded line by line.
  const transport = new StdioServerTransport(guardLines(options.stdin ?? process.stdin, log));
  transport.onclose = () => void close();
  await server.connect(transport);
  return { close };
}
