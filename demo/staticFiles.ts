import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Built names that carry a content hash (esbuild's `[name]-[hash]`): cached for a year. */
export const HASHED_NAME = /-[A-Z0-9]{8}\.(?:js|css)(?:\.map)?$/;

/** What a hashed file may be cached as: its name changes whenever its content does. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (the pages, the stable `task-surface.js`): revalidated on every use (ETag). */
export const REVALIDATE = 'no-cache';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};
/** Text types, always sent compressed when the client accepts it (even a small page: one rule). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.map', '.svg', '.json', '.md']);

export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the highest q-value of
 * brotli and gzip, brotli on a tie; `identity` when neither is acceptable (or no header came).
 * `*` stands for any coding not named; `q=0` refuses one.
 */
export function chooseContentCoding(header: string | undefined): ContentCoding {
  const quality = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    quality.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0);
  }
  const of = (coding: string) => quality.get(coding) ?? quality.get('*') ?? 0;
  const br = of('br');
  const gz = of('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : 'identity';
}

interface Cached {
  mtimeMs: number;
  size: number;
  body: Buffer;
  /** Of the identity body; each coding's ETag adds its name, as strong ETags differ by coding. */
  tag: string;
  coded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Serves built files compressed by `Accept-Encoding` (with `Vary`), each with an ETag, hashed names
 * cached as immutable and the rest revalidated. Each file is read and compressed once per change
 * (size and mtime) and kept in memory: the cache holds at most the build's own files, a few MB.
 */
export function createStaticFiles() {
  const cache = new Map<string, Cached>();

  async function load(path: string): Promise<Cached> {
    const info = await stat(path);
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    const body = await readFile(path);
    const entry: Cached = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      body,
      coded: {},
      tag: createHash('sha256').update(body).digest('base64url').slice(0, 27),
    };
    cache.set(path, entry);
    return entry;
  }

  function encoded(entry: Cached, coding: 'br' | 'gzip'): Promise<Buffer> {
    entry.coded[coding] ??=
      coding === 'br'
        ? brotli(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length } })
        : gzipAsync(entry.body, { level: 9 });
    return entry.coded[coding];
  }

  /** Answers `request` with the file at `path` (which the caller resolved and checked). */
  return async function serve(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const entry = await load(path);
    const ext = extname(path);
    const compressible = COMPRESSIBLE.has(ext);
    const coding = compressible ? chooseContentCoding(request.headers['accept-encoding']) : 'identity';
    const body = coding === 'identity' ? entry.body : await encoded(entry, coding);
    const etag = `"${entry.tag}${coding === 'identity' ? '' : `-${coding}`}"`;
    response.setHeader('Cache-Control', HASHED_NAME.test(basename(path)) ? IMMUTABLE : REVALIDATE);
    response.setHeader('ETag', etag);
    if (compressible) response.setHeader('Vary', 'Accept-Encoding');
    if (matches(request.headers['if-none-match'], etag)) {
      response.writeHead(304);
      response.end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Content-Length': body.length,
      ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}

/** `If-None-Match` (a list of tags, or `*`) against the tag of what would be sent (weak comparison). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
