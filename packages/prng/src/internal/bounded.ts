import { checkBound } from './validate.js';

const TWO32 = 4294967296;
const INV_TWO32 = 1 / TWO32;

/** What Lemire's method needs from a generator. */
export interface Uint32Source {
  nextUint32(): number;
}

/**
 * Returns a fresh `nextBelow` implementation: Lemire's nearly-divisionless method ("Fast Random
 * Integer Generation in an Interval", ACM TOMACS 2019). Each generator class installs its own
 * copy on its prototype so V8 keeps a separate, monomorphic feedback vector per class: one
 * shared method calling `this.nextUint32()` on several classes would go polymorphic and stop
 * inlining the generator step.
 *
 * x·n is a 64-bit product; its high word is the answer unless its low word falls among the first
 * (2^32 mod n) values, which are rejected, so the result is unbiased for every n in [1, 2^32].
 * Without BigInt: the low word is exactly `Math.imul(x, n) >>> 0`; the high word is
 * `(x·n − low) / 2^32` rounded, because the double product is off by at most 2^11 while the
 * distance to the next multiple of 2^32 is 2^32. The `%` for the threshold runs only on the rare
 * path where the low word is below n.
 */
export function lemireNextBelow(): (this: Uint32Source, n: number) => number {
  return function nextBelow(this: Uint32Source, n: number): number {
    if (n >>> 0 !== n || n === 0) {
      if (n !== TWO32) checkBound(n); // throws for anything but 2^32
    }
    let x = this.nextUint32();
    let low = Math.imul(x, n) >>> 0;
    if (low < n) {
      const threshold = (TWO32 - n) % n;
      while (low < threshold) {
        x = this.nextUint32();
        low = Math.imul(x, n) >>> 0;
      }
    }
    return ((x * n - low) * INV_TWO32 + 0.5) >>> 0;
  };
}
