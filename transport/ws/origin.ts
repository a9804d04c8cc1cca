import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/*
 * Which requests reach the server at all: a `Host` header in a strict `host[:port]` grammar naming
 * one the server serves (a DNS name pointed at it by someone else, e.g. DNS rebinding, is refused),
 * and for WebSocket upgrades an `Origin` the server allows (by default only its own origin, so a page
 * on another origin cannot drive a session with the visitor's network position).
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_GRAMMAR = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]{2,45}\\])(?::([0-9]{1,5}))?$`, 'i');

/** The `Host` header in canonical form (lower case) when it is `host[:port]` with a valid port, else null. */
export function canonicalHost(value: string | undefined): string | null {
  if (value === undefined || value.length > 300) return null;
  const match = HOST_GRAMMAR.exec(value);
  if (!match) return null;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  if (value.startsWith('[') && isIP(value.slice(1, value.indexOf(']'))) !== 6) return null;
  return value.toLowerCase();
}

/**
 * The `host[:port]` names a server listening on `address` answers to by itself: the bound address
 * (every interface's address for a wildcard bind) and `localhost` for loopback, each with the port,
 * and without it on port 80/443. A name such as a DNS name behind a proxy must be configured.
 */
export function servedHosts(address: { address: string; port: number } | string | null): Set<string> {
  const hosts = new Set<string>();
  if (address === null || typeof address === 'string') return hosts;
  const names = new Set<string>();
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const bound = wildcard
    ? Object.values(networkInterfaces())
        .flat()
        .map((i) => i?.address ?? '')
        .filter(Boolean)
    : [address.address];
  for (const ip of bound) {
    names.add(isIP(ip) === 6 ? `[${ip.replace(/%.*$/, '')}]` : ip);
    if (ip === '127.0.0.1' || ip === '::1' || ip.startsWith('127.')) names.add('localhost');
  }
  for (const name of names) {
    hosts.add(`${name}:${address.port}`.toLowerCase());
    if (address.port === 80 || address.port === 443) hosts.add(name.toLowerCase());
  }
  return hosts;
}

/** `allowedHosts` as the server checks it: `'*'` allows any well-formed Host. */
export type HostAllowList = readonly string[] | '*';

/** The request's canonical Host when it is well formed and served (or listed), else null. */
export function checkHost(request: IncomingMessage, served: ReadonlySet<string>, allowed: HostAllowList = []): string | null {
  const host = canonicalHost(request.headers.host);
  if (host === null) return null;
  if (allowed === '*' || served.has(host) || allowed.some((h) => h.toLowerCase() === host)) return host;
  return null;
}

/**
 * May a page of this `Origin` open the socket? Without `allowedOrigins`, only the server's own
 * origin (`http://` or `https://` plus the request's Host). A request without `Origin` is not from a
 * browser page (browsers always send it on WebSocket upgrades) and is allowed; `Origin: null`
 * (sandboxed frames, files) only when listed.
 */
export function originAllowed(origin: string | undefined, host: string, allowedOrigins?: readonly string[] | '*'): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins === '*') return true;
  const wanted = origin.toLowerCase();
  if (allowedOrigins) return allowedOrigins.some((o) => o.toLowerCase() === wanted);
  return wanted === `http://${host}` || wanted === `https://${host}`;
}

/** The request target's path, or null when it is not a URL (`GET //[`): answer 400, never throw. */
export function requestPath(request: IncomingMessage): string | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}
