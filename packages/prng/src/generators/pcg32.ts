import type { RandomGenerator } from '../types.js';
import { Uint32Generator } from '../internal/bounded.js';
import { MASK64, hiOf, loOf, toBig } from '../internal/u64.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';

// 6364136223846793005 = 0x5851f42d4c957f2d, the multiplier of pcg-c-basic.
const MUL_HI = 0x5851f42d;
const MUL_LO = 0x4c957f2d;
const TWO32 = 4294967296;

/**
 * PCG32 (O'Neill 2014, `pcg_basic.c`): a 64-bit LCG with the XSH-RR output permutation (xorshift
 * high, random rotate), 32-bit output, period 2^64 per stream and 2^63 streams. `seed` and
 * `stream` are `initstate` and `initseq` of `pcg32_srandom_r` exactly; `state` sets
 * `[state, inc]` raw (inc must be odd).
 *
 * The 64-bit multiply is done in 32-bit halves (16-bit limbs for the low product) so
 * `nextUint32()` needs no BigInt.
 */
export class Pcg32 extends Uint32Generator implements RandomGenerator {
  readonly name = 'pcg32' as const;
  #sh = 0;
  #sl = 0;
  #ih = 0;
  #il = 0;

  constructor(options: { seed?: bigint | number; stream?: bigint; state?: readonly bigint[] | readonly number[] } = {}) {
    super();
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
    // state = old * MUL + inc (mod 2^64)
    const a0 = ol & 0xffff;
    const a1 = ol >>> 16;
    const mid = a0 * (MUL_LO >>> 16) + a1 * (MUL_LO & 0xffff);
    const low = a0 * (MUL_LO & 0xffff) + (mid % 65536) * 65536;
    const hiOfLow = a1 * (MUL_LO >>> 16) + Math.floor(mid / 65536) + Math.floor(low / TWO32);
    const pl = (low >>> 0) + this.#il;
    this.#sl = pl >>> 0;
    this.#sh = (hiOfLow + Math.imul(oh, MUL_LO) + Math.imul(ol, MUL_HI) + this.#ih + (pl >= TWO32 ? 1 : 0)) >>> 0;
    // output = rotr32(((old >> 18) ^ old) >> 27, old >> 59)
    const xh = oh ^ (oh >>> 18);
    const xl = ol ^ ((ol >>> 18) | (oh << 14));
    const xorshifted = ((xl >>> 27) | (xh << 5)) >>> 0;
    const rot = oh >>> 27;
    return ((xorshifted >>> rot) | (xorshifted << (-rot & 31))) >>> 0;
  }

  /** `[state, inc]`. */
  get state(): readonly [bigint, bigint] {
    return [toBig(this.#sh, this.#sl), toBig(this.#ih, this.#il)];
  }
}
