import { checkBound } from './validate.js';

const TWO32 = 4294967296;
const INV_TWO32 = 1 / TWO32;

/** What Lemire's method needs from a generator on its rare rejection path. */
export interface Uint32Source {
  nextUint32(): number;
}

/** Returns n if it is a valid bound in [1, 2^32]; throws a TypeError/RangeError naming it otherwise. */
export function checkedBound(n: number): number {
  if (n >>> 0 !== n || n === 0) {
    if (n !== TWO32) checkBound(n); // throws for anything but 2^32
  }
  return n;
}

/**
 * Lemire's nearly-divisionless bounded integer ("Fast Random Integer Generation in an Interval",
 * ACM TOMACS 2019), finishing from a first draw `x` that the caller made. Each generator calls
 * this from its own `nextBelow` as `boundedFrom(this, this.nextUint32(), checkedBound(n))`, so
 * the hot call to `nextUint32()` sits in the generator's own method and stays monomorphic; this
 * shared function only calls back on the rare rejection path.
 *
 * x·n is a 64-bit product; its high word is the answer unless its low word falls among the first
 * (2^32 mod n) values, which are rejected, so the result is unbiased for every n in [1, 2^32].
 * Without BigInt: the low word is exactly `Math.imul(x, n) >>> 0`; the high word is
 * `(x·n − low) / 2^32` rounded, because the double product is off by at most 2^11 while the
 * distance to the next multiple of 2^32 is 2^32 (for n ≤ 2^21 the product is exact). The
 * threshold 2^32 mod n is 2^32 − n when n > 2^31 and otherwise needs a `%`, which runs only when
 * the low word is below n and the bound differs from the previous call's.
 */
// The last bound's rejection threshold (2^32 mod n), shared by every generator: it depends on
// n alone, and callers usually draw many values below the same n.
let lastBound = 1;
let lastThreshold = 0;

export function boundedFrom(gen: Uint32Source, x: number, n: number): number {
  let m = x * n;
  let low = Math.imul(x, n) >>> 0;
  if (low < n) {
    if (n !== lastBound) {
      lastThreshold = n > 2147483648 ? TWO32 - n : (TWO32 - n) % n;
      lastBound = n;
    }
    while (low < lastThreshold) {
      x = gen.nextUint32();
      m = x * n;
      low = Math.imul(x, n) >>> 0;
    }
  }
  // Exact product (n <= 2^21): truncating m / 2^32 is the high word. Otherwise round away the
  // double's error using the exact low word.
  return m <= 9007199254740992 ? (m * INV_TWO32) >>> 0 : ((m - low) * INV_TWO32 + 0.5) >>> 0;
}
