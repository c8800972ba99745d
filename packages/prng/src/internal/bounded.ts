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
 *   if ((n >>> 0) !== n || n === 0) return boundedSlow(this, n) >>> 0; // bad n, or 2^32
 *   const x = this.nextUint32();
 *   const low = Math.imul(x, n) >>> 0;          // the product's exact low word
 *   if (low < n) return boundedFinish(this, x, n) >>> 0; // possible rejection: rare for small n
 *   return n <= 0x200000                        // 2^21
 *     ? (x * (n * 2.3283064365386963e-10)) >>> 0 // 2^-32
 *     : ((x * n - low) * 2.3283064365386963e-10 + 0.5) >>> 0;
 * }
 * ```
 *
 * The low word is exactly `Math.imul(x, n) >>> 0`. For n ≤ 2^21 the product x·n < 2^53 is exact
 * in a double, and so is x · (n·2^-32): scaling by a power of two loses nothing, so truncating
 * gives the high word with one multiply by x. Above that the double product is off by at most
 * 2^11, and subtracting the exact low word before rounding removes the error.
 *
 * The constants are literals on purpose: the bundler emits module-level `const`s as `var`s, which
 * V8 cannot fold, so every call would reload them from the module context and check their type
 * (for n = 1000 that was more than half of what `nextBelow` adds to the draw). The helpers
 * below take the rare paths: a bad bound or 2^32, and a low word below n. Their results pass
 * through `>>> 0` (a no-op on them) so that V8 knows every return is a uint32 and keeps the
 * common path's result untagged once a rare path has run and been compiled in.
 */
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
