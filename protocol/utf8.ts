/*
 * UTF-8 byte length without encoding a copy. JSON text is mostly ASCII: a native regex finds the
 * runs of non-ASCII characters and only those are walked (a charCodeAt loop over the whole text is
 * about ten times slower in V8).
 */

const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

/** UTF-8 byte length of a string (a lone surrogate counts as U+FFFD, three bytes, as TextEncoder has it). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  NON_ASCII_RUN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = NON_ASCII_RUN.exec(text)) !== null) {
    const run = match[0];
    for (let i = 0; i < run.length; i++) {
      const code = run.charCodeAt(i);
      if (code < 0x800) bytes += 1;
      else if (code >= 0xd800 && code <= 0xdbff && (run.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 2; // a surrogate pair: two units, four bytes
        i++;
      } else bytes += 2; // three bytes (a lone surrogate becomes U+FFFD, also three)
    }
  }
  return bytes;
}

/** UTF-8 bytes of `JSON.stringify(value)` for a value known to be plain JSON (no cycles). */
export function jsonUtf8Length(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? '');
}
