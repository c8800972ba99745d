import type { RandomGenerator } from '../types.js';
import { checkBound, stateWords, toBigSeed } from '../internal/validate.js';

/** The minimal-standard modulus 2^31 − 1 and multiplier 7^5 (Park & Miller, CACM 1988). */
export const PARK_MILLER_M = 2147483647;
export const PARK_MILLER_A = 16807;
// Schrage's decomposition M = A·Q + R, as dbgen's NextRand uses it.
const Q = 127773;
const R = 2836;

/**
 * The Park–Miller "minimal standard" LCG, `seed = 16807·seed mod (2^31 − 1)`, computed exactly as
 * TPC-H dbgen's `NextRand` (`rnd.c`) does with Schrage's method, so a TPC-H generator can follow
 * dbgen's per-column streams.
 *
 * Outputs are 31-bit values in [1, 2^31 − 2]. `nextUint32()` glues the high 16 bits of two
 * consecutive outputs; `nextBelow(n)` and `unifInt(low, high)` are dbgen's `UnifInt` arithmetic:
 * `low + trunc((seed / 2147483647.0) · (high − low + 1))` after advancing.
 */
export class ParkMiller implements RandomGenerator {
  readonly name = 'park-miller' as const;
  #seed: number;

  constructor(options: { seed?: bigint | number; state?: readonly bigint[] | readonly number[] } = {}) {
    let seed = 1n;
    if (options.state !== undefined) seed = stateWords(options.state, 1, this.name)[0]!;
    else if (options.seed !== undefined) seed = toBigSeed(options.seed);
    if (seed < 1n || seed >= BigInt(PARK_MILLER_M)) {
      throw new RangeError(`seed for park-miller must be in [1, 2^31 - 2], got ${seed}`);
    }
    this.#seed = Number(seed);
  }

  /** dbgen's `NextRand`: advance and return the new seed. */
  nextRaw(): number {
    const s = this.#seed;
    const hi = Math.floor(s / Q);
    let t = PARK_MILLER_A * (s - Q * hi) - R * hi;
    if (t < 0) t += PARK_MILLER_M;
    this.#seed = t;
    return t;
  }

  nextUint32(): number {
    const a = this.nextRaw() >>> 15;
    const b = this.nextRaw() >>> 15;
    return ((a << 16) | b) >>> 0;
  }

  nextBelow(n: number): number {
    checkBound(n);
    return Math.trunc((this.nextRaw() / PARK_MILLER_M) * n);
  }

  /** dbgen's `UnifInt(low, high)` on this stream (inclusive bounds). */
  unifInt(low: number, high: number): number {
    const range = high - low + 1;
    return low + Math.trunc((this.nextRaw() / PARK_MILLER_M) * range);
  }

  /** Skip `count` outputs in O(log count): seed · 16807^count mod M (dbgen's `NthElement`). */
  skip(count: number | bigint): void {
    let n = typeof count === 'bigint' ? count : BigInt(count);
    if (n < 0n) throw new RangeError(`skip(count): count must be non-negative, got ${n}`);
    const m = BigInt(PARK_MILLER_M);
    let mult = BigInt(PARK_MILLER_A);
    let seed = BigInt(this.#seed);
    while (n > 0n) {
      if (n & 1n) seed = (seed * mult) % m;
      mult = (mult * mult) % m;
      n >>= 1n;
    }
    this.#seed = Number(seed);
  }

  get seed(): number {
    return this.#seed;
  }

  set seed(value: number) {
    if (!Number.isInteger(value) || value < 1 || value >= PARK_MILLER_M) {
      throw new RangeError(`seed for park-miller must be in [1, 2^31 - 2], got ${value}`);
    }
    this.#seed = value;
  }
}
