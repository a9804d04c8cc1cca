/*
 * Byte counting without encoding a copy. JSON text is mostly ASCII: a native regex finds the runs
 * of characters that cost more than one byte and only those are walked (a charCodeAt loop over
 * the whole text is about ten times slower in V8).
 */

/* eslint-disable no-control-regex -- JSON escapes control characters: these patterns must name them. */

/** Runs of non-ASCII units. */
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;
/** Runs of units JSON.stringify writes as more than one byte: escapes and non-ASCII. */
const JSON_WIDE_RUN = /["\\\x00-\x1f\x80-\uffff]+/g;

/**
 * Bytes beyond one per UTF-16 unit. With `escaping`, as JSON.stringify writes a string's content:
 * short escapes (`\n`, `\"`) take two bytes, other control characters and lone surrogates a
 * six-byte `\uXXXX`. Without, as UTF-8 encodes text (a lone surrogate becomes U+FFFD).
 */
function extraBytes(text: string, escaping: boolean): number {
  const pattern = escaping ? JSON_WIDE_RUN : NON_ASCII_RUN;
  pattern.lastIndex = 0;
  let extra = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    const run = match[0];
    for (let i = 0; i < run.length; i++) {
      const code = run.charCodeAt(i);
      if (code < 0x20) extra += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 1 : 5;
      else if (code < 0x80)
        extra += 1; // `"` or `\`, escaped with a backslash
      else if (code < 0x800) extra += 1;
      else if (code < 0xd800 || code > 0xdfff) extra += 2;
      else if (code <= 0xdbff && (run.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        extra += 2;
        i++;
      } // four bytes for two units
      else extra += escaping ? 5 : 2;
    }
  }
  return extra;
}

/** UTF-8 byte length of a string. */
export function utf8Length(text: string): number {
  return text.length + extraBytes(text, false);
}

/** Whether a string has a unit that JSON.stringify writes as more than one byte. */
const JSON_WIDE = /["\\\x00-\x1f\x80-\uffff]/;

/** UTF-8 bytes of a string written as a JSON string literal, quotes included. */
export function jsonStringBytes(text: string): number {
  // Most strings of a model are plain ASCII: one test, no match objects.
  return JSON_WIDE.test(text) ? text.length + 2 + extraBytes(text, true) : text.length + 2;
}

/** UTF-8 bytes of `JSON.stringify(value)` for a value known to be plain JSON (no cycles). */
export function jsonUtf8Length(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? '');
}
