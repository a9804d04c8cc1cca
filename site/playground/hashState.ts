/*
 * The playground's state in the URL's hash, so a link reproduces it: the model's JSON text
 * compressed (deflate-raw, then base64url) and the chrome language, as `#model=…&lang=…`.
 * Both directions are bounded: a link carries at most MAX_HASH_MODEL_CHARS characters of
 * compressed model, and a model read from a link inflates to at most MAX_MODEL_TEXT_BYTES bytes
 * (so a crafted link cannot make the page inflate without end). Past either bound the playground
 * says so and keeps what it had.
 */

/** The compressed model a link may carry, in characters (a long link is cut by many chat apps). */
export const MAX_HASH_MODEL_CHARS = 16 * 1024;
/** The model text a link may inflate to, in UTF-8 bytes: twice the parser's default 64 KiB limit, so an over-size model can still be shared to show its issue. */
export const MAX_MODEL_TEXT_BYTES = 128 * 1024;

export interface PlaygroundState {
  /** The model's JSON text as the person wrote it (it may be invalid: the link shows the issues). */
  text: string;
  /** The chrome language (a BCP 47 tag). */
  lang?: string;
}

export type DecodeResult = { ok: true; state: PlaygroundState } | { ok: false; error: string } | { ok: 'empty' };
export type EncodeResult = { ok: true; hash: string } | { ok: false; error: string };

const toBase64Url = (bytes: Uint8Array) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): Uint8Array | null => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
};

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array | null> {
  const writer = stream.writable.getWriter();
  void writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => undefined);
  void writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The hash for `state` (with its `#`), or why the model is too large to go in a link. */
export async function encodeState(state: PlaygroundState): Promise<EncodeResult> {
  const bytes = new TextEncoder().encode(state.text);
  if (bytes.length > MAX_MODEL_TEXT_BYTES) {
    return { ok: false, error: `the model is ${bytes.length} bytes; a link carries at most ${MAX_MODEL_TEXT_BYTES} bytes of model` };
  }
  const packed = toBase64Url((await pipe(bytes, new CompressionStream('deflate-raw'), Infinity))!);
  if (packed.length > MAX_HASH_MODEL_CHARS) {
    return {
      ok: false,
      error: `the model compresses to ${packed.length} characters; a link carries at most ${MAX_HASH_MODEL_CHARS}`,
    };
  }
  const params = new URLSearchParams({ model: packed });
  if (state.lang) params.set('lang', state.lang);
  return { ok: true, hash: `#${params.toString()}` };
}

/** The state a hash carries; `empty` when it carries no model; a clear error when it is bad or too large. */
export async function decodeState(hash: string): Promise<DecodeResult> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const packed = params.get('model');
  const lang = params.get('lang') ?? undefined;
  if (packed === null || packed === '') return { ok: 'empty' };
  if (packed.length > MAX_HASH_MODEL_CHARS) {
    return { ok: false, error: `the link's model is ${packed.length} characters; at most ${MAX_HASH_MODEL_CHARS} are read` };
  }
  const bytes = fromBase64Url(packed);
  if (bytes === null) return { ok: false, error: "the link's model is not base64url text" };
  let inflated: Uint8Array | null;
  try {
    inflated = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_MODEL_TEXT_BYTES);
  } catch {
    return { ok: false, error: "the link's model is not deflate-raw data (was the link cut short?)" };
  }
  if (inflated === null) return { ok: false, error: `the link's model inflates past ${MAX_MODEL_TEXT_BYTES} bytes; it was not read` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return { ok: false, error: "the link's model is not UTF-8 text" };
  }
  return { ok: true, state: { text, ...(lang && /^[A-Za-z0-9-]{1,35}$/.test(lang) ? { lang } : {}) } };
}
