import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { numberLength } from '../../protocol/modelSize.js';

// Table cells are measured as JSON writes them; numbers are counted without formatting when exact.
const written = (value: number) => JSON.stringify(value).length;

describe('numberLength', () => {
  it('counts integers, halves to sixteenths and every other finite number as JSON writes them', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      9,
      10,
      0.5,
      -0.5,
      0.0625,
      0.03125,
      109.25,
      1e10 + 0.5,
      99_999_999_999.9375,
      1e11,
      2 ** 53,
      1e21,
      1e-7,
      5e-324,
      0.1,
      1 / 3,
      -99_999_999_999.0625,
    ];
    for (const value of values) assert.equal(numberLength(value), written(value), String(value));
  });

  it('agrees with JSON.stringify on generated binary fractions and doubles', () => {
    const dyadic = fc.tuple(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.integer({ min: 0, max: 6 })).map(([m, k]) => m / 2 ** k);
    fc.assert(
      fc.property(fc.oneof(dyadic, fc.double({ noNaN: true, noDefaultInfinity: true })), (value) => numberLength(value) === written(value)),
      { numRuns: 5000 },
    );
  });
});
