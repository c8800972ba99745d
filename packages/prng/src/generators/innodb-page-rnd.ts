import type { LegacyGenerator } from '../types.js';
import { MASK64 } from '../internal/u64.js';
import { checkBound, checkWordBits, stateWords, toBigSeed } from '../internal/validate.js';

/** Initial value of the file-static `page_rnd` in `page0cur.c` (= 7³·19·149873, ≡ 2 mod 3). */
export const PAGE_RND_START = 976722341;
/** Added to `page_rnd` on every call (= 3·29194859, ≡ 0 mod 3). */
export const PAGE_RND_STEP = 87584577;

/**
 * InnoDB's `page_rnd` (MySQL 5.0 / 5.1 built-in InnoDB, `page/page0cur.c`,
 * `page_cur_open_on_rnd_user_rec`): the generator behind MySQL bug #43660.
 *
 * Each call does `page_rnd += 87584577` (mod 2^w) and picks record `page_rnd % n_recs`. The start
 * value is 2 mod 3 and the step is 0 mod 3, so until the word wraps every value is 2 mod 3: a
 * 3-record page always yields its third record. With 32-bit words the first wrap comes at call
 * 38 and each wrap lowers the residue by one (2^32 ≡ 1 mod 3); with 64-bit words the first wrap
 * is about 2.1·10^11 calls away, so the bias is permanent in practice.
 *
 * `nextUint32()` is the word itself for w = 32 and its high half for w = 64.
 */
export class InnodbPageRnd implements LegacyGenerator {
  readonly name = 'innodb-page-rnd' as const;
  readonly wordBits: 32 | 64;
  // w = 32: the word lives in `word32`; w = 64: in `word64`.
  #word32 = 0;
  #word64 = 0n;

  constructor(
    options: {
      wordBits?: 32 | 64;
      seed?: bigint | number;
      state?: readonly bigint[] | readonly number[];
    } = {},
  ) {
    this.wordBits = checkWordBits(options.wordBits ?? 64);
    let start = BigInt(PAGE_RND_START);
    if (options.state !== undefined) start = stateWords(options.state, 1, this.name)[0]!;
    else if (options.seed !== undefined) start = toBigSeed(options.seed);
    if (this.wordBits === 32) this.#word32 = Number(start & 0xffffffffn);
    else this.#word64 = start & MASK64;
  }

  /** Advance like one call of the C code and return the new `page_rnd`. */
  nextWord(): bigint {
    if (this.wordBits === 32) {
      this.#word32 = (this.#word32 + PAGE_RND_STEP) >>> 0;
      return BigInt(this.#word32);
    }
    this.#word64 = (this.#word64 + BigInt(PAGE_RND_STEP)) & MASK64;
    return this.#word64;
  }

  nextUint32(): number {
    if (this.wordBits === 32) {
      this.#word32 = (this.#word32 + PAGE_RND_STEP) >>> 0;
      return this.#word32;
    }
    return Number(this.nextWord() >> 32n);
  }

  /** `page_rnd += step; return page_rnd % n` — the record index the C code picks among n. */
  nextBelow(n: number): number {
    checkBound(n);
    if (this.wordBits === 32) {
      this.#word32 = (this.#word32 + PAGE_RND_STEP) >>> 0;
      return this.#word32 % n;
    }
    return Number(this.nextWord() % BigInt(n));
  }

  /** The current value of `page_rnd` (the last word returned). */
  get state(): bigint {
    return this.wordBits === 32 ? BigInt(this.#word32) : this.#word64;
  }
}
