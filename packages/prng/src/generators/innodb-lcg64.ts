import type { LegacyGenerator, RandomGenerator64 } from '../types.js';
import { MASK64 } from '../internal/u64.js';
import { checkBound, checkWordBits, stateWords, toBigSeed } from '../internal/validate.js';
import { timeMicros } from '../internal/seed.js';

/** Multiplier of `page_cur_lcg_prng` (= 3^5·5·7·129749). */
export const LCG64_A = 1103515245n;
/** Increment of `page_cur_lcg_prng` (= 3·5·823). */
export const LCG64_C = 12345n;

/**
 * The fix for bug #43660: `page_cur_lcg_prng()` of MySQL 5.1 (`page/page0cur.c`) and InnoDB
 * Plugin 1.0.4+, `X = 1103515245·X + 12345 mod 2^64`, seeded lazily from the time in
 * microseconds; the record picked among n is `X % n` on the full 64-bit value.
 *
 * Hull–Dobell holds, so the period is 2^64, but the low k bits have period 2^k: on a page of
 * n = 2^k records the picks cycle. `wordBits: 32` models the 5.1 built-in seeding, where the
 * microsecond count was computed in a 32-bit `ulint` and wrapped before widening.
 */
export class InnodbLcg64 implements LegacyGenerator, RandomGenerator64 {
  readonly name = 'innodb-lcg64' as const;
  readonly wordBits: 32 | 64;
  #x: bigint;

  constructor(
    options: {
      wordBits?: 32 | 64;
      seed?: bigint | number;
      state?: readonly bigint[] | readonly number[];
    } = {},
  ) {
    this.wordBits = checkWordBits(options.wordBits ?? 64);
    let x0: bigint;
    if (options.state !== undefined) x0 = stateWords(options.state, 1, this.name)[0]!;
    else if (options.seed !== undefined) x0 = toBigSeed(options.seed);
    else x0 = timeMicros();
    this.#x = this.wordBits === 32 ? x0 & 0xffffffffn : x0 & MASK64;
  }

  /** One LCG step; returns the new X (the C function returns the updated state). */
  nextWord(): bigint {
    this.#x = (LCG64_A * this.#x + LCG64_C) & MASK64;
    return this.#x;
  }

  nextBigUint64(): bigint {
    return this.nextWord();
  }

  nextUint32(): number {
    return Number(this.nextWord() >> 32n);
  }

  /** `(ulint)(page_cur_lcg_prng() % n_recs)`. */
  nextBelow(n: number): number {
    checkBound(n);
    return Number(this.nextWord() % BigInt(n));
  }

  get state(): bigint {
    return this.#x;
  }
}
