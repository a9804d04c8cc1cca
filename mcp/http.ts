import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { createTaskSurfaceMcpServer, type TaskSurfaceMcpServerOptions } from './server.js';

/*
 * Streamable HTTP for a Node `http` server. A 2026-07-28 client is served per request (the SDK's
 * `createMcpHandler`); a 2025 client gets a session (`Mcp-Session-Id`), because that era states its
 * capabilities (MCP Apps, elicitation) once at initialize and sends server requests back on the
 * session: without one, every call would look like a client that shows nothing. Sessions are
 * bounded in number and expire when idle. Host and Origin are the caller's to check first.
 */

export interface McpHttpOptions extends TaskSurfaceMcpServerOptions {
  /** 2025-era sessions held at once; the least recently used is closed to make room. Default 64. */
  maxSessions?: number;
  /** A 2025-era session unused this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Largest request body accepted. Default 4 MiB. */
  maxBodyBytes?: number;
}

export interface McpHttpHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Closes every session and in-flight exchange (the ledger is the caller's). */
  close(): Promise<void>;
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  usedAt: number;
}

/** An HTTP handler serving the Task Surface MCP server (mount it at `/mcp`). */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const maxSessions = options.maxSessions ?? 64;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const modern = createMcpHandler(() => createTaskSurfaceMcpServer(options), { legacy: 'reject' });
  const sessions = new Map<string, LegacySession>();

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    void session?.transport.close();
  };
  const sweep = setInterval(
    () => {
      for (const [id, s] of sessions) if (Date.now() - s.usedAt > idleMs) closeSession(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  const legacy = async (request: Request, body: unknown): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) return jsonError(404, -32001, 'Session not found: start a new one with initialize');
      // Most recently used last: the map's order is the order in which sessions are closed to make room.
      session.usedAt = Date.now();
      sessions.delete(id);
      sessions.set(id, session);
      const response = await session.transport.handleRequest(request, { parsedBody: body });
      if (request.method === 'DELETE') sessions.delete(id);
      return response;
    }
    if (request.method !== 'POST') return jsonError(400, -32000, 'Bad request: a Mcp-Session-Id header is required');
    while (sessions.size >= maxSessions) closeSession(sessions.keys().next().value!);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, { transport, usedAt: Date.now() }),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await createTaskSurfaceMcpServer(options).connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };

  return {
    async handle(incoming, outgoing) {
      const body = await readBody(incoming, maxBody);
      if (body === null) return write(outgoing, jsonError(413, -32000, `Request body larger than ${maxBody} bytes`));
      const request = toWebRequest(incoming, body);
      let parsed: unknown;
      if (body.length > 0) {
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return write(outgoing, jsonError(400, -32700, 'Parse error: the body is not JSON'));
        }
      }
      const response = (await isLegacyRequest(request, parsed)) ? await legacy(request, parsed) : await modern.fetch(request);
      await write(outgoing, response);
    },
    async close() {
      clearInterval(sweep);
      for (const id of [...sessions.keys()]) closeSession(id);
      await modern.close();
    },
  };
}

function jsonError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The whole body, or null when it is larger than `max` (reading stops there). */
async function readBody(request: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function toWebRequest(request: IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  const method = request.method ?? 'GET';
  return new Request(url, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: new Uint8Array(body) }) });
}

/** Writes a web Response, streaming its body (SSE) until it ends or the client goes away. */
async function write(outgoing: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  outgoing.writeHead(response.status, headers);
  if (!response.body) return void outgoing.end();
  const reader = response.body.getReader();
  outgoing.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      outgoing.write(value);
    }
  } catch {
    // The client went away mid-stream: nothing more to write.
  }
  outgoing.end();
}
