/*
 * The PROXY protocol (HAProxy's, versions 1 and 2; Node only): a balancer that passes TCP along
 * writes one header naming the client's address before the client's bytes, so that the server behind
 * it counts people, not the balancer. `listenProxied` takes such connections on a port of their own,
 * from trusted peers only, and hands each to an HTTP server with the client's address attached;
 * `clientAddress(socket)` reads it (the socket's own peer address when none was given).
 * https://www.haproxy.org/download/2.9/doc/proxy-protocol.txt
 */
import type { Server as HttpServer } from 'node:http';
import { createServer, isIP, type Server, type Socket } from 'node:net';

/** Version 2's fixed signature, the first 12 bytes of its header. */
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** Version 1's longest header (the spec's 107 bytes, CRLF included). */
const V1_MAX = 107;
/** The longest version 2 header read (its addresses and a few TLVs); a longer one is refused. */
const V2_MAX = 16 + 512;

const addresses = new WeakMap<Socket, string>();

/** The client's address of a connection: the one its PROXY header named, else its peer address. */
export function clientAddress(socket: Socket): string | null {
  return addresses.get(socket) ?? socket.remoteAddress ?? null;
}

/** What a header's first bytes say: read on, refused (why), or the client's address (null: LOCAL/UNKNOWN) and the header's length. */
export type ProxyHeader = { need: 'more' } | { refused: string } | { address: string | null; length: number };

/** Parses the PROXY header at the start of `data` (strictly: anything off the grammar is refused). */
export function parseProxyHeader(data: Buffer): ProxyHeader {
  if (data.length >= 1 && data[0] === 0x0d) return parseV2(data);
  const prefix = 'PROXY ';
  const head = data.subarray(0, prefix.length).toString('latin1');
  if (!prefix.startsWith(head)) return { refused: 'the connection does not start with a PROXY header' };
  const end = data.indexOf('\r\n');
  if (end === -1) return data.length >= V1_MAX ? { refused: 'the PROXY v1 header is over 107 bytes' } : { need: 'more' };
  const line = data.subarray(0, end).toString('latin1');
  if (line === 'PROXY UNKNOWN' || line.startsWith('PROXY UNKNOWN ')) return { address: null, length: end + 2 };
  const match = /^PROXY (TCP4|TCP6) (\S+) (\S+) (\d{1,5}) (\d{1,5})$/.exec(line);
  if (!match) return { refused: 'the PROXY v1 header is malformed' };
  const [, family, source, destination, sourcePort, destinationPort] = match as unknown as string[];
  const version = family === 'TCP4' ? 4 : 6;
  if (isIP(source!) !== version || isIP(destination!) !== version) return { refused: `the PROXY v1 header's addresses are not ${family}` };
  if (Number(sourcePort) > 65535 || Number(destinationPort) > 65535) return { refused: "the PROXY v1 header's ports are out of range" };
  return { address: source!, length: end + 2 };
}

function parseV2(data: Buffer): ProxyHeader {
  const known = Math.min(data.length, V2_SIGNATURE.length);
  if (!data.subarray(0, known).equals(V2_SIGNATURE.subarray(0, known)))
    return { refused: 'the connection does not start with a PROXY header' };
  if (data.length < 16) return { need: 'more' };
  const versionCommand = data[12]!;
  if (versionCommand >> 4 !== 2) return { refused: 'the PROXY v2 header has an unknown version' };
  const command = versionCommand & 0x0f;
  const length = 16 + data.readUInt16BE(14);
  if (length > V2_MAX) return { refused: `the PROXY v2 header is over ${V2_MAX} bytes` };
  if (data.length < length) return { need: 'more' };
  if (command === 0) return { address: null, length }; // LOCAL: the proxy's own connection (a health check)
  if (command !== 1) return { refused: 'the PROXY v2 header has an unknown command' };
  const family = data[13]! >> 4;
  if (family === 1 && length >= 16 + 12) return { address: [...data.subarray(16, 20)].join('.'), length };
  if (family === 2 && length >= 16 + 36) {
    const words = [];
    for (let i = 0; i < 8; i++) words.push(data.readUInt16BE(16 + i * 2).toString(16));
    return { address: words.join(':'), length };
  }
  if (family === 0 || family === 3) return { address: null, length }; // UNSPEC, UNIX: no IP to count
  return { refused: "the PROXY v2 header's address block is malformed" };
}

/** The version 1 header a balancer writes for `client` (what `listenProxied` reads). */
export function proxyHeaderV1(client: Socket): string {
  const source = client.remoteAddress;
  const destination = client.localAddress;
  const family = source !== undefined ? isIP(source) : 0;
  if (!source || !destination || family === 0 || isIP(destination) !== family) return 'PROXY UNKNOWN\r\n';
  return `PROXY TCP${family} ${source} ${destination} ${client.remotePort ?? 0} ${client.localPort ?? 0}\r\n`;
}

export interface ProxiedOptions {
  port?: number;
  host?: string;
  /** Whether a peer may send a PROXY header at all (its balancer); anyone else is closed at once. Default: loopback only. */
  trusted?(peerAddress: string): boolean;
  /** A header must arrive whole within this. Default 5,000 ms. */
  headerTimeoutMs?: number;
  /** Where refused connections are told of (why). Default: nowhere. */
  onRefused?(reason: string): void;
}

const LOOPBACK = (address: string) => address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

/**
 * A TCP listener whose every connection must start with a PROXY header (v1 or v2) from a trusted
 * peer: the header is read and removed, and the connection goes to `http` as its own, with
 * `clientAddress(socket)` the client's address. Anything else is closed without a word.
 */
export async function listenProxied(http: HttpServer, options: ProxiedOptions = {}): Promise<Server> {
  const trusted = options.trusted ?? LOOPBACK;
  const timeoutMs = options.headerTimeoutMs ?? 5_000;
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    const refuse = (reason: string) => {
      options.onRefused?.(reason);
      socket.destroy();
    };
    if (!trusted(socket.remoteAddress ?? '')) return refuse(`${socket.remoteAddress} is not a trusted proxy`);
    let held = Buffer.alloc(0);
    const timer = setTimeout(() => refuse(`no PROXY header within ${timeoutMs} ms`), timeoutMs);
    timer.unref();
    const onData = (chunk: Buffer) => {
      held = Buffer.concat([held, chunk]);
      const header = parseProxyHeader(held);
      if ('need' in header) return;
      clearTimeout(timer);
      socket.off('data', onData);
      if ('refused' in header) return refuse(header.refused);
      socket.pause();
      if (header.address !== null) addresses.set(socket, header.address);
      const rest = held.subarray(header.length);
      if (rest.length > 0) socket.unshift(rest);
      http.emit('connection', socket);
      socket.resume();
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  return server;
}
