import type { RandomGenerator } from '../types.js';
import { boundedFinish, boundedSlow } from '../internal/bounded.js';
import { MASK64, hiOf, loOf, toBig } from '../internal/u64.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';

// 6364136223846793005 = 0x5851f42d4c957f2d, the multiplier of pcg-c-basic. `nextUint32` writes
// its halves as literals: the bundler turns module-level constants into `var`s, which V8 reloads
// and type-checks on every call, where a literal folds into the instruction.
const MUL = 0x5851f42d4c957f2dn;

/**
 * PCG32 (O'Neill 2014, `pcg_basic.c`): a 64-bit LCG with the XSH-RR output permutation (xorshift
 * high, random rotate), 32-bit output, period 2^64 per stream and 2^63 streams. `seed` and
 * `stream` are `initstate` and `initseq` of `pcg32_srandom_r` exactly; `state` sets
 * `[state, inc]` raw (inc must be odd).
 *
 * The state lives in four int32 fields (state and inc, high and low halves) and `nextUint32()`
 * touches no BigInt: the low half of the new state is `Math.imul` plus an int32 add, and the high
 * half of `old_lo · MUL_LO + inc_lo` (carry included) comes from a double product corrected by
 * that exact low half; see `nextUint32`.
 */
export class Pcg32 implements RandomGenerator {
  readonly name = 'pcg32' as const;
  #sh = 0;
  #sl = 0;
  #ih = 0;
  #il = 0;

  constructor(
    options: { seed?: bigint | number; stream?: bigint; state?: readonly bigint[] | readonly number[] } = {},
  ) {
    let state: bigint;
    let inc: bigint;
    if (options.state !== undefined) {
      [state, inc] = stateWords(options.state, 2, this.name) as [bigint, bigint];
      if ((inc & 1n) === 0n) throw new RangeError('state[1] (inc) for pcg32 must be odd');
      state &= MASK64;
      inc &= MASK64;
    } else {
      const initstate = options.seed !== undefined ? toBigSeed(options.seed) : entropySeed();
      if (options.stream !== undefined && typeof options.stream !== 'bigint') {
        throw new TypeError(`stream must be a bigint, got ${String(options.stream)}`);
      }
      const initseq =
        options.stream !== undefined ? toBigSeed(options.stream, 'stream') : 0xda3e39cb94b95bdbn;
      // pcg32_srandom_r: state = 0; inc = initseq << 1 | 1; step; state += initstate; step.
      inc = ((initseq << 1n) | 1n) & MASK64;
      state = inc; // 0 · MUL + inc
      state = (((state + initstate) & MASK64) * MUL + inc) & MASK64;
    }
    // Each field is written once, as an int32 (a small integer to V8), and keeps that shape.
    this.#sh = hiOf(state) | 0;
    this.#sl = loOf(state) | 0;
    this.#ih = hiOf(inc) | 0;
    this.#il = loOf(inc) | 0;
  }

  nextUint32(): number {
    const oh = this.#sh;
    const ol = this.#sl;
    const il = this.#il;
    // state = old · MUL + inc (mod 2^64) in 32-bit halves, MUL = 0x5851f42d:4c957f2d.
    // Low half: exact in int32 arithmetic.
    const sl = (Math.imul(ol, 0x4c957f2d) + il) | 0;
    // High half of ol · MUL_LO + il (< 2^63 + 2^32), the carry from the low add included: the
    // double sum is within 2^11 of the exact value, subtracting its exact low half (sl) leaves a
    // multiple of 2^32 within 2^12, and rounding the quotient recovers it. No branch on the carry
    // (which is random, so a branch would mispredict half the time).
    const hi = ((ol >>> 0) * 0x4c957f2d + (il >>> 0) - (sl >>> 0)) * 2.3283064365386963e-10 + 0.5;
    this.#sl = sl;
    // Cross products only matter mod 2^32, which is exactly what Math.imul returns.
    this.#sh = ((hi | 0) + Math.imul(oh, 0x4c957f2d) + Math.imul(ol, 0x5851f42d) + this.#ih) | 0;
    // output = rotr32(((old >> 18) ^ old) >> 27, old >> 59)
    const xh = oh ^ (oh >>> 18);
    const xl = ol ^ ((ol >>> 18) | (oh << 14));
    const xorshifted = (xl >>> 27) | (xh << 5);
    const rot = oh >>> 27;
    // JS masks shift counts to 5 bits, so rot = 0 gives x | x; V8 turns this shape into one ror.
    return ((xorshifted >>> rot) | (xorshifted << (32 - rot))) >>> 0;
  }

  /** An index in [0, n), unbiased (Lemire; the common case inline, see `internal/bounded.ts`). */
  nextBelow(n: number): number {
    if (n >>> 0 !== n || n === 0) return boundedSlow(this, n) >>> 0;
    const x = this.nextUint32();
    const low = Math.imul(x, n) >>> 0;
    if (low < n) return boundedFinish(this, x, n) >>> 0;
    return n <= 0x200000
      ? (x * (n * 2.3283064365386963e-10)) >>> 0
      : ((x * n - low) * 2.3283064365386963e-10 + 0.5) >>> 0;
  }

  /** `[state, inc]`. */
  get state(): readonly [bigint, bigint] {
    return [toBig(this.#sh >>> 0, this.#sl >>> 0), toBig(this.#ih >>> 0, this.#il >>> 0)];
  }
}
