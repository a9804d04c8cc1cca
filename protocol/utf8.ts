/** UTF-8 byte length of a string, counted without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: two UTF-16 units, four bytes
      i++;
    } else bytes += 2; // three bytes (a lone surrogate becomes U+FFFD, also three)
  }
  return bytes;
}

/** UTF-8 bytes of `JSON.stringify(value)` for a value known to be plain JSON (no cycles). */
export function jsonUtf8Length(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? '');
}
