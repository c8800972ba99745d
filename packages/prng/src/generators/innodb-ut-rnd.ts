import type { LegacyGenerator } from '../types.js';
import { MASK64 } from '../internal/u64.js';
import { checkBound, checkWordBits, stateWords, toBigSeed } from '../internal/validate.js';

// Constants of `include/ut0rnd.ic` (identical in 5.0, 5.1, 5.5 and 5.6).
export const UT_RND1 = 151117737;
export const UT_RND2 = 119785373;
export const UT_RND3 = 85689495;
export const UT_SUM_RND2 = 98781234;
export const UT_SUM_RND3 = 126792457;
export const UT_SUM_RND4 = 63498502;
export const UT_XOR_RND1 = 187678878;
export const UT_XOR_RND2 = 143537923;
/** Initial value of `ut_rnd_ulint_counter` (`ut/ut0rnd.c`); never reseeded by the server. */
export const UT_RND_COUNTER_START = 65654363;

const B = {
  RND1: BigInt(UT_RND1),
  RND2: BigInt(UT_RND2),
  RND3: BigInt(UT_RND3),
  SUM2: BigInt(UT_SUM_RND2),
  SUM3: BigInt(UT_SUM_RND3),
  SUM4: BigInt(UT_SUM_RND4),
  XOR1: BigInt(UT_XOR_RND1),
  XOR2: BigInt(UT_XOR_RND2),
};

/** `ut_rnd_gen_next_ulint` for 32-bit words: three odd multiplies, two xors, two 20-bit rotations. */
function scramble32(r: number): number {
  r = (Math.imul(UT_RND2, r) + UT_SUM_RND3) >>> 0;
  r = (r ^ UT_XOR_RND1) >>> 0;
  r = ((r << 20) | (r >>> 12)) >>> 0; // (r << 20) + (r >> (32 - 20)): a rotate, the + never carries
  r = (Math.imul(UT_RND3, r) + UT_SUM_RND4) >>> 0;
  r = (r ^ UT_XOR_RND2) >>> 0;
  r = ((r << 20) | (r >>> 12)) >>> 0;
  return (Math.imul(UT_RND1, r) + UT_SUM_RND2) >>> 0;
}

/** The same scramble for 64-bit words. */
function scramble64(r: bigint): bigint {
  r = (B.RND2 * r + B.SUM3) & MASK64;
  r ^= B.XOR1;
  r = ((r << 20n) | (r >> 44n)) & MASK64;
  r = (B.RND3 * r + B.SUM4) & MASK64;
  r ^= B.XOR2;
  r = ((r << 20n) | (r >> 44n)) & MASK64;
  return (B.RND1 * r + B.SUM2) & MASK64;
}

/**
 * InnoDB's `ut_rnd_gen_ulint()` (`include/ut0rnd.ic`): a full-period LCG counter
 * (`counter = 151117737·counter + 119785373`) passed through `ut_rnd_gen_next_ulint`'s scramble.
 * Used for spin delays and, in 5.6, for persistent-statistics dives. It is NOT the generator of
 * bug #43660 (that is `page_rnd`): its residues mod 3 are close to uniform.
 *
 * `nextBelow(n)` is `ut_rnd_interval(0, n - 1)`: no call at all when n = 1, else `rnd % n`; with
 * `intervalVariant: '5.5'` it is the 5.5/5.6 form `rnd % (n - 1)`, which never returns n − 1.
 */
export class InnodbUtRnd implements LegacyGenerator {
  readonly name = 'innodb-ut-rnd' as const;
  readonly wordBits: 32 | 64;
  readonly intervalVariant: '5.1' | '5.5';
  #counter32 = 0;
  #counter64 = 0n;

  constructor(
    options: {
      wordBits?: 32 | 64;
      seed?: bigint | number;
      state?: readonly bigint[] | readonly number[];
      intervalVariant?: '5.1' | '5.5';
    } = {},
  ) {
    this.wordBits = checkWordBits(options.wordBits ?? 64);
    const variant = options.intervalVariant ?? '5.1';
    if (variant !== '5.1' && variant !== '5.5') {
      throw new RangeError(`intervalVariant must be '5.1' or '5.5', got ${String(variant)}`);
    }
    this.intervalVariant = variant;
    let start = BigInt(UT_RND_COUNTER_START);
    if (options.state !== undefined) start = stateWords(options.state, 1, this.name)[0]!;
    else if (options.seed !== undefined) start = toBigSeed(options.seed);
    if (this.wordBits === 32) this.#counter32 = Number(start & 0xffffffffn);
    else this.#counter64 = start & MASK64;
  }

  nextWord(): bigint {
    if (this.wordBits === 32) return BigInt(this.#next32());
    this.#counter64 = (B.RND1 * this.#counter64 + B.RND2) & MASK64;
    return scramble64(this.#counter64);
  }

  #next32(): number {
    this.#counter32 = (Math.imul(UT_RND1, this.#counter32) + UT_RND2) >>> 0;
    return scramble32(this.#counter32);
  }

  nextUint32(): number {
    if (this.wordBits === 32) return this.#next32();
    return Number(this.nextWord() >> 32n);
  }

  nextBelow(n: number): number {
    checkBound(n);
    if (n === 1) return 0; // ut_rnd_interval(low, high) with low == high: no generator call
    const modulus = this.intervalVariant === '5.1' ? n : n - 1;
    if (this.wordBits === 32) return this.#next32() % modulus;
    return Number(this.nextWord() % BigInt(modulus));
  }

  /** `ut_rnd_gen_ibool()`: `((x >> 20) + (x >> 15)) & 1` of the next word. */
  nextBool(): boolean {
    const x = this.nextWord();
    return (((x >> 20n) + (x >> 15n)) & 1n) === 1n;
  }

  /** The current value of `ut_rnd_ulint_counter`. */
  get state(): bigint {
    return this.wordBits === 32 ? BigInt(this.#counter32) : this.#counter64;
  }
}
