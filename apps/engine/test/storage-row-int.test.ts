// The row format's big-endian integers (src/storage/row.ts): readInt must give back exactly what
// writeInt wrote for every width a column uses (4 for INT and DATE, 1–8 for DECIMAL, 8 for
// BIGINT), and for a stored value beyond a safe integer a result that is not a safe integer
// either (the codec then reads it with readBigInt). The oracle is readBigInt, a BigInt reading.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBigInt, readInt, writeBigInt, writeInt } from '../src/storage/row.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

describe('row integers', () => {
  it('readInt inverts writeInt at every width, negative values too', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (w, x) => {
          // a value the width holds, in the safe range
          const lim = 2n ** BigInt(8 * w - 1);
          let v = ((x % lim) + lim) % (2n * lim);
          v = v >= lim ? v - 2n * lim : v;
          if (v > MAX_SAFE) v = MAX_SAFE;
          if (v < -MAX_SAFE) v = -MAX_SAFE;
          const b = new Uint8Array(w + 2);
          writeInt(b, 1, Number(v), w);
          expect(readBigInt(b, 1, w)).toBe(v);
          expect(readInt(b, 1, w)).toBe(Number(v));
        },
      ),
      { numRuns: 3000, seed: 20261201 },
    );
  });

  it('a stored value beyond 2^53 reads as no safe integer', () => {
    for (const w of [7, 8]) {
      const lim = 2n ** BigInt(8 * w - 1);
      for (const v of [MAX_SAFE + 1n, MAX_SAFE + 2n, -MAX_SAFE - 1n, -MAX_SAFE - 2n, lim - 1n, -lim]) {
        const b = new Uint8Array(w);
        writeBigInt(b, 0, v, w);
        expect(readBigInt(b, 0, w)).toBe(v);
        expect(Number.isSafeInteger(readInt(b, 0, w))).toBe(false);
      }
    }
  });
});
