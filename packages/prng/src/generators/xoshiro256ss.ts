import type { JumpableGenerator, RandomGenerator64 } from '../types.js';
import { boundedFinish, boundedSlow } from '../internal/bounded.js';
import { MASK64, toBig } from '../internal/u64.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';
import { SplitMix64 } from './splitmix64.js';

/** Jump polynomial of `xoshiro256starstar.c`: equivalent to 2^128 calls. */
const JUMP = [0x180ec6d33cfd0aban, 0xd5a61266f0c9392cn, 0xa9582618e03fc9aan, 0x39abdc4529b1661cn] as const;
const TWO32 = 4294967296;

/**
 * xoshiro256** 1.0 (Blackman & Vigna 2018): the all-purpose 64-bit generator, period 2^256 − 1.
 * The four 64-bit state words live in a `Uint32Array` as high/low pairs
 * (`s[2i]` = high word of s_i, `s[2i+1]` = low word) and are advanced with 32-bit operations.
 * `nextUint32()` returns the high word of the 64-bit output.
 *
 * A `seed` is expanded with four SplitMix64 outputs; `state` sets the four words (not all zero).
 */
export class Xoshiro256StarStar implements RandomGenerator64, JumpableGenerator {
  readonly name = 'xoshiro256**' as const;
  readonly #s = new Uint32Array(8);
  #outHi = 0;
  #outLo = 0;

  constructor(options: { seed?: bigint | number; state?: readonly bigint[] | readonly number[] } = {}) {
    let words: bigint[];
    if (options.state !== undefined) {
      words = stateWords(options.state, 4, this.name);
      if (words.some((w) => w > MASK64)) throw new RangeError('state words for xoshiro256** must be 64-bit');
      if (words.every((w) => w === 0n)) throw new RangeError('state for xoshiro256** must not be all zero');
    } else {
      const sm = new SplitMix64({
        seed: options.seed !== undefined ? toBigSeed(options.seed) : entropySeed(),
      });
      words = [sm.nextBigUint64(), sm.nextBigUint64(), sm.nextBigUint64(), sm.nextBigUint64()];
    }
    this.#setState(words);
  }

  #setState(words: readonly bigint[]): void {
    for (let i = 0; i < 4; i++) {
      this.#s[2 * i] = Number(words[i]! >> 32n);
      this.#s[2 * i + 1] = Number(words[i]! & 0xffffffffn);
    }
  }

  /** One step; the 64-bit output is left in #outHi/#outLo. */
  #step(): void {
    const s = this.#s;
    const s0h = s[0]!;
    const s0l = s[1]!;
    const s1h = s[2]!;
    const s1l = s[3]!;
    // x = s1 * 5
    const p = s1l * 5;
    const xl = p >>> 0;
    const xh = (Math.imul(s1h, 5) + Math.floor(p / TWO32)) >>> 0;
    // y = rotl(x, 7)
    const yh = ((xh << 7) | (xl >>> 25)) >>> 0;
    const yl = ((xl << 7) | (xh >>> 25)) >>> 0;
    // result = y * 9
    const q = yl * 9;
    this.#outLo = q >>> 0;
    this.#outHi = (Math.imul(yh, 9) + Math.floor(q / TWO32)) >>> 0;
    // t = s1 << 17
    const th = (s1h << 17) | (s1l >>> 15);
    const tl = s1l << 17;
    // s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
    const s2h = s[4]! ^ s0h;
    const s2l = s[5]! ^ s0l;
    const s3h = s[6]! ^ s1h;
    const s3l = s[7]! ^ s1l;
    s[2] = s1h ^ s2h;
    s[3] = s1l ^ s2l;
    s[0] = s0h ^ s3h;
    s[1] = s0l ^ s3l;
    s[4] = s2h ^ th;
    s[5] = s2l ^ tl;
    // rotl 45 = swap the halves, then rotl 13
    s[6] = (s3l << 13) | (s3h >>> 19);
    s[7] = (s3h << 13) | (s3l >>> 19);
  }

  nextUint32(): number {
    this.#step();
    return this.#outHi;
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

  nextBigUint64(): bigint {
    this.#step();
    return toBig(this.#outHi, this.#outLo);
  }

  jump(): void {
    const acc = [0n, 0n, 0n, 0n];
    for (const word of JUMP) {
      for (let b = 0n; b < 64n; b++) {
        if ((word >> b) & 1n) {
          const cur = this.state;
          for (let i = 0; i < 4; i++) acc[i] = acc[i]! ^ cur[i]!;
        }
        this.#step();
      }
    }
    this.#setState(acc);
  }

  /** The four 64-bit state words. */
  get state(): readonly [bigint, bigint, bigint, bigint] {
    const s = this.#s;
    return [toBig(s[0]!, s[1]!), toBig(s[2]!, s[3]!), toBig(s[4]!, s[5]!), toBig(s[6]!, s[7]!)];
  }
}
