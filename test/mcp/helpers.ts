import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { createMemoryStore } from '../../host/store/memory.js';
import { createMcpHttpHandler, type McpHttpOptions } from '../../mcp/http.js';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import type { TaskSurfaceModelV1 } from '../../protocol/index.js';
// @ts-expect-error -- a plain ES module script without declarations
import { buildMcpApp, panelIsStale } from '../../scripts/mcp-app.mjs';

/** Bodies and headers for requests written by hand: a ping, and a 2025-era initialize (which opens a session). */
export const RAW_REQUESTS = Object.freeze({
  HEADERS: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  PING: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  INITIALIZE: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hosted', version: '1.0.0' } },
  }),
});

/** A JSON-RPC refusal body (`-32000`) as the handler writes it. */
export const refusal = (message: string) => ({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/** A client that renders MCP Apps (what Claude, VS Code and other app hosts declare). */
export const APPS: ClientCapabilities = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
} as ClientCapabilities;

/** Builds the app document when it is missing or older than its sources (the tests read the real one). */
export async function ensurePanelBuilt(): Promise<void> {
  if ((panelIsStale as () => boolean)()) await (buildMcpApp as () => Promise<unknown>)();
}

/** A small valid model (two fields). */
export function smallModel(): TaskSurfaceModelV1 {
  return {
    version: 1,
    title: 'Pick a database',
    description: 'For the **reports** service.',
    sections: [{ id: 'facts', blocks: [{ kind: 'notice', tone: 'info', text: 'Both are supported.' }] }],
    fields: [
      {
        kind: 'choice',
        id: 'db',
        label: 'Database',
        options: [
          { id: 'pg', label: 'PostgreSQL' },
          { id: 'sqlite', label: 'SQLite' },
        ],
      },
      { kind: 'text', id: 'why', label: 'Why', required: true },
    ],
    submit: { label: 'Choose' },
  };
}

/** An SDK client over stdio to `npm run mcp`'s command (the bin through tsx), closed after the test. */
export async function stdioClient(t: TestContext, options: { capabilities?: ClientCapabilities; args?: string[] } = {}): Promise<Client> {
  const client = new Client({ name: 'test-host', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'mcp/bin.ts', ...(options.args ?? ['--memory'])],
    stderr: 'inherit',
  });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/**
 * The MCP handler on a fresh HTTP server at `/mcp` (port 0), closed after the test. `limits`: the
 * handler's options past the document and the ledger (4 sessions unless given; `{}` for its defaults).
 */
export async function httpServer(
  t: TestContext,
  ledger?: PanelLedger,
  limits: Omit<McpHttpOptions, 'appHtml' | 'ledger'> = { maxSessions: 4, maxSessionsPerPrincipal: 4 },
): Promise<{ url: URL; ledger: PanelLedger }> {
  await ensurePanelBuilt();
  const { readPanelDocument } = await import('../../mcp/document.js');
  const store = createMemoryStore();
  const shared = ledger ?? createPanelLedger({ store });
  // Without `authenticate` every request is host code (a local single-user server).
  const handler = createMcpHttpHandler({ appHtml: readPanelDocument(), ledger: shared, allowAnonymous: true, ...limits });
  const server: Server = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    if (!ledger) await shared.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), ledger: shared };
}

/** An SDK client over Streamable HTTP, closed after the test. */
export async function httpClient(
  t: TestContext,
  url: URL,
  capabilities: ClientCapabilities = {},
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'test-host', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  t.after(() => client.close());
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  return content?.[0]?.text ?? '';
}
