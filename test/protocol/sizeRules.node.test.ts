import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, parseTaskSurfaceModel } from '../../protocol/index.js';
import { normalizedModelBytes } from '../../protocol/modelSize.js';
import { jsonStringBytes, jsonUtf8Length, utf8Length } from '../../protocol/utf8.js';
import { issuesOf, minimal, modelOf } from './fixtures/parsing.js';

/* The byte limit as a model meets it: counted exactly as the normalised model's JSON, to the byte. */

const encoded = (text: string) => new TextEncoder().encode(text).length;
const bytesOf = (model: unknown) => encoded(JSON.stringify(model));

describe('model bytes', () => {
  it('counts lone surrogates in a title as the six-byte escapes JSON writes, at the limit and one under', () => {
    for (const title of ['Pick \udfff', 'Pick \udc00\udc00', 'Pick \ud800']) {
      const model = { ...minimal(), title };
      const bytes = bytesOf(modelOf(model));
      assert.equal(parseTaskSurfaceModel(model, { ...DEFAULT_LIMITS, modelBytes: bytes }).ok, true, JSON.stringify(title));
      assert.deepEqual(issuesOf(model, { ...DEFAULT_LIMITS, modelBytes: bytes - 1 }), [
        { path: [], code: 'model-too-large', message: `the normalised model is ${bytes} bytes of JSON; the limit is ${bytes - 1}` },
      ]);
    }
  });

  it('measures a normalised model with table cells on its own when not given their sum', () => {
    const table = {
      kind: 'table',
      columns: [
        { id: 'name', label: 'Name' },
        { id: 'n', label: 'N' },
      ],
      rows: [{ name: 'Ada', n: 1.5 }, { name: 'Grace "G" Hopper', n: -2 }, { n: 0 }, { name: 'é', n: null }],
    };
    const model = modelOf({ ...minimal(), sections: [{ id: 's', blocks: [table] }] });
    assert.equal(normalizedModelBytes(model), bytesOf(model));
  });
});

describe('string bytes', () => {
  it('counts lone surrogates as JSON escapes and as UTF-8 replacement characters', () => {
    for (const text of ['\udfff', '\udc00\udc00', '\ud800', 'a\udbff\udfffz']) {
      assert.equal(jsonStringBytes(text), bytesOf(text), JSON.stringify(text));
      assert.equal(utf8Length(text), encoded(text), JSON.stringify(text));
    }
    assert.deepEqual(
      ['\udfff', '\udc00\udc00'].map((text) => [jsonStringBytes(text), utf8Length(text)]),
      [
        [8, 3],
        [14, 6],
      ],
    );
  });

  it('measures a value JSON writes nothing for as no bytes', () => {
    assert.equal(jsonUtf8Length(undefined), 0);
  });
});
