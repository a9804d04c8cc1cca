// Under `npm start -- --workers N` the balancer deals one client address's connections over every
// worker, so a per-address cap a worker keeps in its own memory would hold N times over. Identity
// minting is shared through PostgreSQL (demo/mintRate.ts); the caps a worker can only count itself
// (sockets, `/mcp` sessions and `/mcp` requests a second of one address) are divided: each worker holds its share,
// ceil(limit / N), and its refusals say so.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { MCP_REQUEST_RATES } from '../mcp/index.js';

/** The library's per-address caps the workers divide (`createWebSocketServer`, `createMcpHttpHandler` defaults). */
export const ADDRESS_CAPS = Object.freeze({ sockets: 64, mcpSessions: 64, mcpRate: MCP_REQUEST_RATES.perAddress });

/** One worker's share of a cap one address has across `workers` workers: ceil(limit / workers). */
export function workerShare(limit: number, workers: number): number {
  return Math.ceil(limit / workers);
}

/**
 * A refusal of a divided cap, reworded to name this worker's share and the cluster's total (a
 * sentence it does not know is left as it is):
 * `this address already holds 22 MCP sessions on this worker (at most 22: this worker's share of the 64 one address may hold across 3 workers)`.
 */
export function sayShare(text: string, workers: number): string {
  if (workers <= 1) return text;
  const of = (cap: number) => `this worker's share of the ${cap} one address may hold across ${workers} workers`;
  return text
    .replace(
      /this address already holds (\d+) MCP sessions \(at most (\d+)\)/,
      (_, held: string, most: string) =>
        `this address already holds ${held} MCP sessions on this worker (at most ${most}: ${of(ADDRESS_CAPS.mcpSessions)})`,
    )
    .replace(
      /this address may send (\d+) a second \(bursts of (\d+)\)/,
      (_, rate: string, burst: string) =>
        `this address may send ${rate} a second (bursts of ${burst}) to this worker: its share of the ${ADDRESS_CAPS.mcpRate.perSecond} a second (bursts of ${ADDRESS_CAPS.mcpRate.burst}) one address may send across ${workers} workers`,
    )
    .replace(
      /this address already holds (\d+) connections \(at most (\d+)\)/,
      (_, held: string, most: string) =>
        `this address already holds ${held} sockets on this worker (at most ${most}: ${of(ADDRESS_CAPS.sockets)})`,
    );
}

/** `/mcp`'s 429 answers on `response` (one JSON chunk each) say the worker's share (`sayShare`). */
export function sayShareOnResponse(response: ServerResponse, workers: number): void {
  if (workers <= 1) return;
  const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean;
  response.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(
      response.statusCode === 429 && chunk instanceof Uint8Array
        ? Buffer.from(sayShare(Buffer.from(chunk).toString('utf8'), workers))
        : chunk,
      ...rest,
    )) as ServerResponse['write'];
}

/** An upgrade refused 429 on `socket` (one written answer with its Content-Length) says the worker's share. */
export function sayShareOnUpgrade(socket: Duplex, workers: number): void {
  if (workers <= 1) return;
  const end = socket.end.bind(socket) as (chunk?: unknown, ...rest: unknown[]) => Duplex;
  socket.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'string' || !chunk.startsWith('HTTP/1.1 429 ')) return end(chunk, ...rest);
    const split = chunk.indexOf('\r\n\r\n');
    const body = sayShare(chunk.slice(split + 4), workers);
    const head = chunk.slice(0, split).replace(/\r\nContent-Length: \d+/i, `\r\nContent-Length: ${Buffer.byteLength(body)}`);
    return end(`${head}\r\n\r\n${body}`, ...rest);
  }) as Duplex['end'];
}
