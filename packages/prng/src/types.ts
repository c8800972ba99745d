/** Every generator's name, as accepted by {@link createGenerator}. */
export type GeneratorName =
  | 'innodb-page-rnd'
  | 'innodb-ut-rnd'
  | 'innodb-lcg64'
  | 'splitmix64'
  | 'xoshiro128**'
  | 'xoshiro256**'
  | 'pcg32'
  | 'park-miller';

/**
 * The one interface every generator implements.
 *
 * `nextUint32()` returns 32 uniform bits as a number in [0, 2^32). For a 64-bit generator these
 * are the HIGH 32 bits of its next output (the low bits of an LCG are its weakest).
 *
 * `nextBelow(n)` returns an index in [0, n). Modern generators use Lemire's multiply-shift with
 * rejection (unbiased for every n up to 2^32); the legacy InnoDB generators reproduce exactly
 * the arithmetic of the C code they model, bias and all, because reproducing that bias is the
 * point.
 */
export interface RandomGenerator {
  readonly name: GeneratorName;
  nextUint32(): number;
  nextBelow(n: number): number;
}

/** A generator whose native word is 64 bits wide. `nextBigUint64()` is for tests and tools, not hot paths. */
export interface RandomGenerator64 extends RandomGenerator {
  nextBigUint64(): bigint;
}

/** A generator that models C code: `nextWord()` is the raw unsigned word the C code produced. */
export interface LegacyGenerator extends RandomGenerator {
  /** Word width of the modelled `ulint`: 32 (32-bit builds, Win64) or 64 (LP64 Unix). */
  readonly wordBits: 32 | 64;
  nextWord(): bigint;
}

/** A generator with a jump function: `jump()` advances the state as if by 2^64 (xoshiro128**) or 2^128 (xoshiro256**) calls, for non-overlapping parallel streams. */
export interface JumpableGenerator extends RandomGenerator {
  jump(): void;
}

export interface GeneratorOptions {
  /** A seed; for xoshiro it is expanded through SplitMix64, for pcg32 it is `initstate`. */
  seed?: bigint | number;
  /** pcg32's stream selector (`initseq` of `pcg32_srandom_r`). */
  stream?: bigint;
  /** The raw state words (xoshiro: 4 words; others: 1). Overrides `seed`. */
  state?: readonly bigint[] | readonly number[];
  /** Width of the C `ulint` for the InnoDB generators. Default 64. */
  wordBits?: 32 | 64;
  /**
   * `innodb-ut-rnd` only: which `ut_rnd_interval` to model. `'5.1'` (default) is
   * `low + rnd % (high - low + 1)`; `'5.5'` is the later `low + rnd % (high - low)`, which never
   * returns `high`.
   */
  intervalVariant?: '5.1' | '5.5';
}
