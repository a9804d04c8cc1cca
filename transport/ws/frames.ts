/*
 * Cheap, non-recursive looks at a client frame's text, made before any schema runs: how deeply it
 * nests, and its request id. Both walk the characters once with a counter, never a call stack, so
 * no frame can overflow the stack here (the recursive JSON schemas only ever see shallow input).
 */

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/** Default deepest nesting of arrays and objects a frame may have (the frame object itself is 1). */
export const MAX_FRAME_DEPTH = 64;

/** True when `text` opens more than `maxDepth` arrays/objects inside each other (strings skipped). */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i, text.length);
      if (i < 0) return false; // unterminated: JSON.parse reports it
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote that closes the string opening at `start`, or -1 before `end`. */
function stringEnd(text: string, start: number, end: number): number {
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/** How far `peekRequestId` reads: ids are short and clients write them first. */
export const ID_PEEK_CHARS = 4096;

/**
 * The top-level `"id"` of a frame when it is a string of 1–128 characters within the first
 * `ID_PEEK_CHARS` characters, else null. Used to address an error answer to a frame that is never
 * parsed (too large, too deep, over a limit).
 */
export function peekRequestId(text: string): string | null {
  const end = Math.min(text.length, ID_PEEK_CHARS);
  let i = skipSpace(text, 0, end);
  if (text.charCodeAt(i) !== OPEN_OBJECT) return null;
  let depth = 1;
  let state: 'key' | 'colon' | 'value' | 'other' = 'key';
  let key = '';
  for (i++; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = stringEnd(text, i, end);
      if (close < 0) return null;
      if (depth === 1 && state === 'key') {
        key = decode(text.slice(i, close + 1)) ?? '';
        state = 'colon';
      } else if (depth === 1 && state === 'value') {
        if (key === 'id') {
          const id = decode(text.slice(i, close + 1));
          return id !== null && id.length >= 1 && id.length <= 128 ? id : null;
        }
        state = 'other';
      }
      i = close;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 1 && state === 'value' && key === 'id') return null;
      depth++;
      if (depth === 2 && state === 'value') state = 'other';
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (--depth === 0) return null;
    } else if (depth === 1 && c === 58 /* : */ && state === 'colon') {
      state = 'value';
    } else if (depth === 1 && c === 44 /* , */) {
      state = 'key';
    } else if (depth === 1 && state === 'value' && !isSpace(c)) {
      if (key === 'id') return null; // a number, true, null…: not a request id
      state = 'other';
    }
  }
  return null;
}

function decode(quoted: string): string | null {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function skipSpace(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return i;
}
