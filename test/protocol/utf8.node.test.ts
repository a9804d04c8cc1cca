import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonStringBytes, jsonUtf8Length, utf8Length } from '../../protocol/utf8.js';

const encoded = (text: string) => new TextEncoder().encode(text).length;
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', '\ud800', '\udc00x', '\ud83d\ude00', 'a\u0000\u0008\u001f"\\\u007f\u0080\u07ff\u0800\uffff'),
);

describe('byte counting', () => {
  it('counts UTF-8 bytes exactly as TextEncoder does, lone surrogates included', () => {
    fc.assert(
      fc.property(anyString, (text) => assert.equal(utf8Length(text), encoded(text))),
      { numRuns: 500 },
    );
  });

  it('counts a JSON string literal exactly as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(anyString, (text) => assert.equal(jsonStringBytes(text), encoded(JSON.stringify(text)))),
      { numRuns: 500 },
    );
  });

  it('measures any JSON value as its serialised UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => assert.equal(jsonUtf8Length(value), encoded(JSON.stringify(value)))),
      { numRuns: 200 },
    );
  });
});
