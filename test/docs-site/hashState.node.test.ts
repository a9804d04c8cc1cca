// The playground's link: what it carries round-trips, and both bounds hold with a clear error.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { decodeState, encodeState, MAX_HASH_MODEL_CHARS, MAX_MODEL_TEXT_BYTES } from '../../site/playground/hashState.js';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

describe('the playground link (site/playground/hashState.ts)', () => {
  it('round-trips a model text (invalid JSON included) and the language', async () => {
    for (const text of ['{"version":1,"title":"Pick one 选一个"}', '{ not json', '']) {
      const encoded = await encodeState({ text, lang: 'ar' });
      assert.equal(encoded.ok, true);
      if (encoded.ok !== true) return;
      const decoded = await decodeState(encoded.hash);
      assert.deepEqual(decoded, { ok: true, state: { text, lang: 'ar' } });
    }
    assert.deepEqual(await decodeState('#lang=de'), { ok: 'empty' }, 'a hash without a model carries none');
  });

  it('refuses to put a model in a link past the bound, saying how large it is', async () => {
    // Random text does not compress: about 1.4 characters of link per byte.
    const text = Array.from(randomBytes(MAX_HASH_MODEL_CHARS), (b) => String.fromCharCode(33 + (b % 90))).join('');
    const encoded = await encodeState({ text });
    assert.equal(encoded.ok, false);
    assert.match(encoded.ok === false ? encoded.error : '', /compresses to \d+ characters; a link carries at most 16384/);
    const huge = await encodeState({ text: 'x'.repeat(MAX_MODEL_TEXT_BYTES + 1) });
    assert.match(huge.ok === false ? huge.error : '', /at most 131072 bytes/);
  });

  it('refuses a link that inflates past the bound (a zip bomb) or is too long, cut or not UTF-8', async () => {
    const bomb = b64url(deflateRawSync(Buffer.alloc(MAX_MODEL_TEXT_BYTES + 1, 32)));
    assert.ok(bomb.length < MAX_HASH_MODEL_CHARS);
    assert.deepEqual(await decodeState(`#model=${bomb}`), {
      ok: false,
      error: "the link's model inflates past 131072 bytes; it was not read",
    });
    const long = await decodeState(`#model=${'A'.repeat(MAX_HASH_MODEL_CHARS + 1)}`);
    assert.match(long.ok === false ? long.error : '', /at most 16384 are read/);
    assert.match((await decodeState('#model=abc$')).ok === false ? 'bad' : '', /bad/);
    const good = await encodeState({ text: '{"version":1}' });
    const cut = good.ok === true ? good.hash.slice(0, -3) : '';
    const decoded = await decodeState(cut);
    assert.equal(decoded.ok === true && decoded.state.text === '{"version":1}', false, 'a cut link never reads as the whole model');
    const latin1 = b64url(deflateRawSync(Buffer.from([0xff, 0xfe, 0x41])));
    assert.deepEqual(await decodeState(`#model=${latin1}`), { ok: false, error: "the link's model is not UTF-8 text" });
  });

  it('keeps only a well-formed language tag', async () => {
    const good = await encodeState({ text: '{}' });
    const hash = good.ok === true ? good.hash : '';
    assert.deepEqual(await decodeState(`${hash}&lang=${encodeURIComponent('<script>')}`), { ok: true, state: { text: '{}' } });
  });
});
