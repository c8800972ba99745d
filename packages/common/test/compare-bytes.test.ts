import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes, compareKeys } from '../src/index.js';

const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);

describe('compareBytes', () => {
  it('orders as Buffer.compare (memcmp, shorter prefix first)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), fc.uint8Array({ maxLength: 12 }), (a, b) => {
        expect(sign(compareKeys(a, b))).toBe(Buffer.compare(Buffer.from(a), Buffer.from(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('compares sub-ranges without copying', () => {
    const a = new Uint8Array([9, 1, 2, 3, 9]);
    const b = new Uint8Array([1, 2, 3]);
    expect(compareBytes(a, 1, 4, b, 0, 3)).toBe(0);
    expect(compareBytes(a, 1, 3, b, 0, 3)).toBeLessThan(0);
    expect(compareBytes(a, 0, 1, b, 0, 1)).toBeGreaterThan(0);
  });
});
