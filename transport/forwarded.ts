/*
 * The client's address behind an HTTP balancer that sets `X-Forwarded-For` (a cloud's application
 * load balancer, nginx's `proxy_pass`; Node only). The header is anyone's to write, so it counts only
 * on a connection from a proxy the server was told to trust (`trustedProxies`: addresses and CIDRs),
 * and then only its right-most address that is not itself a trusted proxy: the one the nearest
 * trusted proxy saw connect. A header from any other peer is ignored, never parsed.
 */
import type { IncomingMessage, Server } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import { clientAddress } from './proxyProtocol.js';

/** Whether an address is one of the trusted proxies. */
export type TrustedProxies = (address: string) => boolean;

/** Reads `['10.0.0.0/8', '127.0.0.1', 'fd00::/8']`; an entry that is neither an address nor a CIDR throws, naming it. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.trim().split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || !/^\d{0,3}$/.test(bits ?? '') || !(prefix >= 0 && prefix <= max)) {
      throw new Error(`trustedProxies: "${entry}" is not an IP address or a CIDR (e.g. 10.0.0.0/8, 203.0.113.7, fd00::/8)`);
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** An IPv4 address in IPv6 form (`::ffff:10.0.0.1`, as a dual-stack socket reports it) as IPv4. */
function unmapped(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/**
 * What a per-address limit counts a client by: an IPv4 address as itself (an IPv4-mapped one as
 * IPv4), an IPv6 address by its /64 (`2001:db8:1:2::/64`), which one subscriber or host is given
 * whole: counted one by one, a single machine could take a new address for every request.
 */
export function addressKey(address: string): string {
  const plain = unmapped(address.split('%')[0]!);
  if (isIP(plain) !== 6) return plain;
  // An IPv4 tail (`64:ff9b::192.0.2.1`) is the last 32 bits: two words, never in the /64.
  const words = (part: string) => (part === '' ? [] : part.split(':').flatMap((word) => (word.includes('.') ? ['0', '0'] : [word])));
  const [head = '', tail] = plain.split('::');
  const first = words(head);
  const all = tail === undefined ? first : [...first, ...Array<string>(8 - first.length - words(tail).length).fill('0'), ...words(tail)];
  return `${all
    .slice(0, 4)
    .map((word) => parseInt(word, 16).toString(16))
    .join(':')}::/64`;
}

/** A hop of the header as an address: `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:443` or `2001:db8::1`; null otherwise. */
function hopAddress(hop: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  const candidate = bracketed ? bracketed[1]! : isIP(hop) ? hop : hop.replace(/:\d+$/, '');
  return isIP(candidate) ? unmapped(candidate) : null;
}

const viaProxy = new WeakMap<Socket, TrustedProxies>();

/**
 * Trusts `X-Forwarded-For` on `server`'s connections whose peer (or the address a PROXY header named)
 * is a trusted proxy; `requestAddress(request)` then reads it. Returns `isProxy(socket)`, for
 * counting connections: a proxy's are many people's.
 */
export function trustForwardedFor(server: Server, trusted: TrustedProxies): (socket: Socket) => boolean {
  server.prependListener('connection', (socket: Socket) => {
    if (trusted(clientAddress(socket) ?? '')) viaProxy.set(socket, trusted);
  });
  return (socket) => viaProxy.has(socket);
}

/**
 * The client's address of a request: behind a trusted proxy, `X-Forwarded-For`'s right-most address
 * that is not a trusted proxy (the left-most when all are; the proxy's own when the header is
 * missing or malformed there); otherwise the connection's (`clientAddress`: a PROXY header's, or the peer's).
 */
export function requestAddress(request: IncomingMessage): string | null {
  const peer = clientAddress(request.socket);
  const trusted = viaProxy.get(request.socket);
  if (trusted === undefined || peer === null) return peer;
  const header = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((hop) => hop.trim());
  let nearest = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]!);
    if (hop === null) return nearest;
    if (!trusted(hop)) return hop;
    nearest = hop;
  }
  return nearest;
}
