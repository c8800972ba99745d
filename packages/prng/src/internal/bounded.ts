import { checkBound } from './validate.js';

const TWO32 = 4294967296;
const INV = 1 / TWO32;

/** What Lemire's method needs from a generator on its rare paths. */
export interface Uint32Source {
  nextUint32(): number;
}

/**
 * Lemire's nearly-divisionless bounded integer ("Fast Random Integer Generation in an Interval",
 * ACM TOMACS 2019). x·n is a 64-bit product; its high word is the answer unless its low word
 * falls among the first (2^32 mod n) values, which are rejected, so the result is unbiased for
 * every n in [1, 2^32].
 *
 * Each modern generator writes the common case inline in its own `nextBelow` (V8 keeps type
 * feedback per function, so a shared method calling `this.nextUint32()` on several generator
 * classes would go polymorphic, and measured 2–3× slower even as a shared helper):
 *
 * ```ts
 * nextBelow(n: number): number {
 *   if ((n >>> 0) !== n || n === 0) return boundedSlow(this, n); // bad n, or 2^32
 *   const x = this.nextUint32();
 *   const low = Math.imul(x, n) >>> 0;          // the product's exact low word
 *   if (low < n) return boundedFinish(this, x, n); // possible rejection: rare for small n
 *   return n <= SMALL_BOUND ? (x * n * INV_TWO32) >>> 0 : ((x * n - low) * INV_TWO32 + 0.5) >>> 0;
 * }
 * ```
 *
 * The low word is exactly `Math.imul(x, n) >>> 0`. For n ≤ 2^21 the product x·n < 2^53 is exact
 * in a double and truncating x·n / 2^32 gives the high word; above that the double product is off
 * by at most 2^11, and subtracting the exact low word before rounding removes the error. The
 * helpers below take the rare paths: a bad bound or 2^32, and a low word below n.
 */
export const SMALL_BOUND = 0x200000;
export const INV_TWO32: number = INV;

// The last bound's rejection threshold (2^32 mod n), shared by every generator: it depends on
// n alone, and callers usually draw many values below the same n.
let lastBound = 1;
let lastThreshold = 0;

function threshold(n: number): number {
  if (n !== lastBound) {
    lastThreshold = n > 2147483648 ? TWO32 - n : (TWO32 - n) % n;
    lastBound = n;
  }
  return lastThreshold;
}

/** Finishes Lemire's method from a first draw x whose low word fell below n. */
export function boundedFinish(gen: Uint32Source, x: number, n: number): number {
  let low = Math.imul(x, n) >>> 0;
  const t = threshold(n);
  while (low < t) {
    x = gen.nextUint32();
    low = Math.imul(x, n) >>> 0;
  }
  // Above 2^21 the double product is off by at most 2^11; the exact low word removes the error.
  return ((x * n - low) * INV + 0.5) >>> 0;
}

/** `nextBelow` for a bound that is invalid (throws, naming it) or exactly 2^32. */
export function boundedSlow(gen: Uint32Source, n: number): number {
  if (n !== TWO32) checkBound(n); // throws for anything but 2^32
  return gen.nextUint32(); // x·2^32 / 2^32 = x, and 2^32 mod 2^32 = 0 rejects nothing
}
