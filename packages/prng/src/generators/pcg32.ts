import type { RandomGenerator } from '../types.js';
import { boundedFinish, boundedSlow, INV_TWO32, SMALL_BOUND } from '../internal/bounded.js';
import { MASK64, hiOf, loOf, toBig } from '../internal/u64.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';

// 6364136223846793005 = 0x5851f42d4c957f2d, the multiplier of pcg-c-basic.
const MUL_HI = 0x5851f42d;
const MUL_LO = 0x4c957f2d;
const MUL_LO_0 = MUL_LO & 0xffff;
const MUL_LO_1 = MUL_LO >>> 16;

/**
 * PCG32 (O'Neill 2014, `pcg_basic.c`): a 64-bit LCG with the XSH-RR output permutation (xorshift
 * high, random rotate), 32-bit output, period 2^64 per stream and 2^63 streams. `seed` and
 * `stream` are `initstate` and `initseq` of `pcg32_srandom_r` exactly; `state` sets
 * `[state, inc]` raw (inc must be odd).
 *
 * The 64-bit multiply is done in int32 halves (`Math.imul` for the low words, 16-bit limbs for
 * the carry into the high word) so `nextUint32()` needs no BigInt and no double arithmetic.
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
    if (options.state !== undefined) {
      const [state, inc] = stateWords(options.state, 2, this.name) as [bigint, bigint];
      if ((inc & 1n) === 0n) throw new RangeError('state[1] (inc) for pcg32 must be odd');
      this.#set(state & MASK64, inc & MASK64);
      return;
    }
    const initstate = options.seed !== undefined ? toBigSeed(options.seed) : entropySeed();
    if (options.stream !== undefined && typeof options.stream !== 'bigint') {
      throw new TypeError(`stream must be a bigint, got ${String(options.stream)}`);
    }
    const initseq = options.stream !== undefined ? toBigSeed(options.stream, 'stream') : 0xda3e39cb94b95bdbn;
    // pcg32_srandom_r: state = 0; inc = initseq << 1 | 1; step; state += initstate; step.
    this.#set(0n, ((initseq << 1n) | 1n) & MASK64);
    this.nextUint32();
    this.#set((this.state[0] + initstate) & MASK64, this.state[1]);
    this.nextUint32();
  }

  #set(state: bigint, inc: bigint): void {
    this.#sh = hiOf(state) | 0;
    this.#sl = loOf(state) | 0;
    this.#ih = hiOf(inc) | 0;
    this.#il = loOf(inc) | 0;
  }

  nextUint32(): number {
    const oh = this.#sh;
    const ol = this.#sl;
    // state = old * MUL + inc (mod 2^64), in int32 halves: every operation below stays in
    // int32/uint32 range, which V8 keeps in registers (doubles above 2^32 would not be).
    // High word of ol * MUL_LO from 16-bit limbs (each partial product < 2^32):
    const a0 = ol & 0xffff;
    const a1 = ol >>> 16;
    const t = Math.imul(a0, MUL_LO_0) >>> 0;
    const w1 = (Math.imul(a1, MUL_LO_0) >>> 0) + (t >>> 16); // < 2^32
    const w2 = (Math.imul(a0, MUL_LO_1) >>> 0) + (w1 & 0xffff); // < 2^32
    const mulHigh = Math.imul(a1, MUL_LO_1) + (w1 >>> 16) + (w2 >>> 16);
    const mulLow = Math.imul(ol, MUL_LO);
    const sl = (mulLow + this.#il) | 0;
    const carry = sl >>> 0 < mulLow >>> 0 ? 1 : 0; // unsigned overflow of the low-word add
    this.#sl = sl;
    this.#sh = (mulHigh + Math.imul(oh, MUL_LO) + Math.imul(ol, MUL_HI) + this.#ih + carry) | 0;
    // output = rotr32(((old >> 18) ^ old) >> 27, old >> 59)
    const xh = oh ^ (oh >>> 18);
    const xl = ol ^ ((ol >>> 18) | (oh << 14));
    const xorshifted = (xl >>> 27) | (xh << 5);
    const rot = oh >>> 27;
    return ((xorshifted >>> rot) | (xorshifted << (-rot & 31))) >>> 0;
  }

  /** An index in [0, n), unbiased (Lemire; the common case inline, see `internal/bounded.ts`). */
  nextBelow(n: number): number {
    if (n >>> 0 !== n || n === 0) return boundedSlow(this, n);
    const x = this.nextUint32();
    const low = Math.imul(x, n) >>> 0;
    if (low < n) return boundedFinish(this, x, n);
    return n <= SMALL_BOUND ? (x * n * INV_TWO32) >>> 0 : ((x * n - low) * INV_TWO32 + 0.5) >>> 0;
  }

  /** `[state, inc]`. */
  get state(): readonly [bigint, bigint] {
    return [toBig(this.#sh >>> 0, this.#sl >>> 0), toBig(this.#ih >>> 0, this.#il >>> 0)];
  }
}
