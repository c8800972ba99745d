import type { GeneratorName, RandomGenerator } from '../types.js';
import { checkBound } from './validate.js';

const TWO32 = 4294967296;
const INV_TWO32 = 1 / TWO32;

/**
 * Base of the modern generators: subclasses supply `nextUint32()`; `nextBelow(n)` is Lemire's
 * nearly-divisionless method ("Fast Random Integer Generation in an Interval", ACM TOMACS 2019).
 *
 * Take x·n as a 64-bit product: its high word is the answer unless its low word falls among the
 * first (2^32 mod n) values, which are rejected, so the result is unbiased for every n in
 * [1, 2^32]. The product is formed in doubles without BigInt: in one step while n ≤ 2^21
 * (x·n < 2^53 is exact), from 16-bit halves above that. The `%` that computes the rejection
 * threshold runs only on the rare path where the low word is below n.
 */
export abstract class Uint32Generator implements RandomGenerator {
  abstract readonly name: GeneratorName;
  abstract nextUint32(): number;

  nextBelow(n: number): number {
    checkBound(n);
    if (n <= 0x200000) {
      let m = this.nextUint32() * n;
      let low = m >>> 0;
      if (low < n) {
        const threshold = (TWO32 - n) % n;
        while (low < threshold) {
          m = this.nextUint32() * n;
          low = m >>> 0;
        }
      }
      return Math.floor(m * INV_TWO32);
    }
    for (;;) {
      const x = this.nextUint32();
      const a = (x >>> 16) * n; // < 2^48
      const b = (x & 0xffff) * n; // < 2^48
      const aHigh = Math.floor(a / 65536);
      const c = (a - aHigh * 65536) * 65536 + b; // < 2^49, exact
      const cHigh = Math.floor(c * INV_TWO32);
      const low = c - cHigh * TWO32;
      if (low >= n || low >= (TWO32 - n) % n) return aHigh + cHigh;
    }
  }
}
