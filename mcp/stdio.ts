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

/**
 * Opens the store: SQLite under `dataDir`, or memory when none is given. A file that cannot be
 * opened (another process holds it: a SQLite store belongs to one process) fails the start, saying
 * what to do, rather than keep answers in memory that a restart would forget without a word.
 */
function openStore(options: StdioServerOptions): SessionLogStore {
  if (options.dataDir === null) return createMemoryStore();
  const file = join(options.dataDir, 'mcp.db');
  try {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    return createSqliteStore(file);
  } catch (error) {
    throw new Error(
      `cannot open ${file}: ${(error as Error).message}. Give each server process its own folder (--data-dir <dir>), or pass --memory to keep answers only until it stops`,
      { cause: error },
    );
  }
}

/**
 * Serves the Task Surface MCP server on stdin/stdout until the client closes the stream. Resolves
 * with a `close` that stops it (the ledger and store are closed too).
 */
export async function startStdioServer(options: StdioServerOptions): Promise<{ close(): Promise<void> }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const appHtml = readPanelDocument();
  const store = openStore(options);
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
