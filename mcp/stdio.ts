import { mkdirSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createMemoryStore } from '../host/store/memory.js';
import { createPostgresStore } from '../host/store/postgres/index.js';
import type { SessionLogStore } from '../host/store/types.js';
import type { TaskSurfaceLimitsInput, ToolMode } from '../protocol/index.js';
import { readPanelDocument } from './document.js';
import { createPanelLedger } from './ledger.js';
import { createTaskSurfaceMcpServer } from './server.js';
import { openSharedSqlite } from './sharedSqlite.js';
import { guardLines } from './stdioLines.js';

export interface StdioServerOptions {
  /**
   * Folder of `mcp.db` (SQLite), where answered panels are remembered across restarts; null: memory
   * only. Several processes may share one folder: each reads and answers every panel.
   */
  dataDir: string | null;
  /**
   * `postgres://…`: panels in PostgreSQL instead (schema `<databaseSchema>_mcp`, as `npm start`'s
   * `/mcp` keeps them), shared with every other process on it. `dataDir` is then unused.
   */
  databaseUrl?: string;
  /** The schema whose `_mcp` sibling holds the panels. Default `public` (so `public_mcp`). */
  databaseSchema?: string;
  limits?: TaskSurfaceLimitsInput;
  toolMode?: ToolMode;
  /** Where notes go (never stdout: that is the protocol's). Default: stderr. */
  log?: (line: string) => void;
  /** The protocol's input. Default: stdin. */
  stdin?: Readable;
}

interface Opened {
  store: SessionLogStore;
  exclusive?: <T>(run: () => Promise<T>) => Promise<T>;
  close(): Promise<void>;
}

/**
 * Opens the store: PostgreSQL at `databaseUrl`, SQLite under `dataDir` (shared with other processes
 * on that folder), or memory. A store that cannot be opened fails the start, saying what to do,
 * rather than keep answers in memory that a restart would forget without a word.
 */
async function openStore(options: StdioServerOptions): Promise<Opened> {
  if (options.databaseUrl) {
    const schema = `${options.databaseSchema ?? 'public'}_mcp`;
    try {
      const store = await createPostgresStore({ connectionString: options.databaseUrl, schema });
      return { store, close: () => store.close() };
    } catch (error) {
      throw new Error(`cannot open the panels' PostgreSQL store (schema ${schema}): ${(error as Error).message}`, { cause: error });
    }
  }
  if (options.dataDir === null) {
    const store = createMemoryStore();
    return { store, close: async () => store.close() };
  }
  const file = join(options.dataDir, 'mcp.db');
  try {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const { store, exclusive } = openSharedSqlite(file);
    return { store, exclusive, close: async () => store.close() };
  } catch (error) {
    throw new Error(
      `cannot open ${file}: ${(error as Error).message}. Give the server another folder (--data-dir <dir>), or pass --memory to keep answers only until it stops`,
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
  const opened = await openStore(options);
  const ledger = createPanelLedger({
    store: opened.store,
    ...(opened.exclusive ? { exclusive: opened.exclusive } : {}),
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
    await opened.close();
  };
  // stdio has one client, the local user who started it: it is host code (no per-principal limits),
  // as `allowAnonymous` is on HTTP. Its input is still bounded line by line.
  const transport = new StdioServerTransport(guardLines(options.stdin ?? process.stdin, log));
  transport.onclose = () => void close();
  await server.connect(transport);
  return { close };
}
