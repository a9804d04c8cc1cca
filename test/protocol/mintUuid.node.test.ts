import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mintUuid } from '../../protocol/mint.js';

/*
 * Ids are random UUIDs v4. A page served over plain http (a LAN demo) has no `crypto.randomUUID`,
 * only `getRandomValues`: it must still mint well-formed v4 ids.
 */

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Runs `body` with `crypto`'s own `name` set to `value`, then takes it away again. */
function withCrypto(name: 'randomUUID' | 'getRandomValues', value: unknown, body: () => void): void {
  Object.defineProperty(globalThis.crypto, name, { value, configurable: true, writable: true });
  try {
    body();
  } finally {
    delete (globalThis.crypto as unknown as Record<string, unknown>)[name];
  }
  assert.equal(Object.hasOwn(globalThis.crypto, name), false);
}

describe('mintUuid', () => {
  it('uses crypto.randomUUID where the page has it', () => {
    withCrypto(
      'randomUUID',
      () => 'from-randomUUID',
      () => assert.equal(mintUuid(), 'from-randomUUID'),
    );
  });

  it('without crypto.randomUUID, writes 16 random bytes as a v4 UUID', () => {
    withCrypto('randomUUID', undefined, () => {
      const bytes = (array: Uint8Array) => {
        array.forEach((_, i) => (array[i] = i === 15 ? 0xff : i));
        return array;
      };
      withCrypto('getRandomValues', bytes, () => assert.equal(mintUuid(), '00010203-0405-4607-8809-0a0b0c0d0eff'));
    });
  });

  it('without crypto.randomUUID, mints distinct well-formed ids', () => {
    withCrypto('randomUUID', undefined, () => {
      const ids = Array.from({ length: 200 }, () => mintUuid());
      for (const id of ids) assert.match(id, V4);
      assert.equal(new Set(ids).size, ids.length);
    });
  });
});
