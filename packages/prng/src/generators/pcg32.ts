import type { RandomGenerator } from '../types.js';
import { boundedFrom, checkedBound } from '../internal/bounded.js';
import { MASK64, hiOf, loOf, mulhi32, toBig } from '../internal/u64.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';

// 6364136223846793005 = 0x5851f42d4c957f2d, the multiplier of pcg-c-basic.
const MUL_HI = 0x5851f42d;
const MUL_LO = 0x4c957f2d;

/**
 * PCG32 (O'Neill 2014, `pcg_basic.c`): a 64-bit LCG with the XSH-RR output permutation (xorshift
 * high, random rotate), 32-bit output, period 2^64 per stream and 2^63 streams. `seed` and
 * `stream` are `initstate` and `initseq` of `pcg32_srandom_r` exactly; `state` sets
 * `[state, inc]` raw (inc must be odd).
 *
 * The 64-bit multiply is done in 32-bit halves (`Math.imul` for the low words, `mulhi32` for
 * the carry into the high word) so `nextUint32()` needs no BigInt.
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
    this.#sh = hiOf(state);
    this.#sl = loOf(state);
    this.#ih = hiOf(inc);
    this.#il = loOf(inc);
  }

  nextUint32(): number {
    const oh = this.#sh;
    const ol = this.#sl;
    // state = old * MUL + inc (mod 2^64), in 32-bit halves.
    const low = (Math.imul(ol, MUL_LO) >>> 0) + this.#il; // < 2^33
    const carry = low > 0xffffffff ? 1 : 0;
    this.#sl = low >>> 0;
    this.#sh = (mulhi32(ol, MUL_LO) + Math.imul(oh, MUL_LO) + Math.imul(ol, MUL_HI) + this.#ih + carry) >>> 0;
    // output = rotr32(((old >> 18) ^ old) >> 27, old >> 59)
    const xh = oh ^ (oh >>> 18);
    const xl = ol ^ ((ol >>> 18) | (oh << 14));
    const xorshifted = (xl >>> 27) | (xh << 5);
    const rot = oh >>> 27;
    return ((xorshifted >>> rot) | (xorshifted << (-rot & 31))) >>> 0;
  }
  /** An index in [0, n), unbiased (Lemire). */
  nextBelow(n: number): number {
    const bound = checkedBound(n);
    return boundedFrom(this, this.nextUint32(), bound);
  }

  /** `[state, inc]`. */
  get state(): readonly [bigint, bigint] {
    return [toBig(this.#sh, this.#sl), toBig(this.#ih, this.#il)];
  }
}
