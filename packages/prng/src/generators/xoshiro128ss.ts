import type { JumpableGenerator } from '../types.js';
import { boundedFinish, boundedSlow } from '../internal/bounded.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';
import { SplitMix64 } from './splitmix64.js';

/** Jump polynomial of `xoshiro128starstar.c`: equivalent to 2^64 calls. */
const JUMP = [0x8764000b, 0xf542d2d3, 0x6fa035c3, 0x77f2db5b] as const;

/**
 * xoshiro128** 1.1 (Blackman & Vigna 2018): 128 bits of state in four int32 words, all-purpose
 * 32-bit output, period 2^128 − 1. Everything is int32 arithmetic (`Math.imul`, shifts), so
 * `nextUint32()` allocates nothing and touches no BigInt.
 *
 * A `seed` is expanded with SplitMix64: its first output gives s0 (low half) and s1 (high half),
 * its second gives s2 and s3. `state` sets the four words directly (not all zero).
 */
export class Xoshiro128StarStar implements JumpableGenerator {
  readonly name = 'xoshiro128**' as const;
  #s0 = 0;
  #s1 = 0;
  #s2 = 0;
  #s3 = 0;

  constructor(options: { seed?: bigint | number; state?: readonly bigint[] | readonly number[] } = {}) {
    if (options.state !== undefined) {
      const words = stateWords(options.state, 4, this.name);
      if (words.some((w) => w > 0xffffffffn))
        throw new RangeError('state words for xoshiro128** must be 32-bit');
      if (words.every((w) => w === 0n)) throw new RangeError('state for xoshiro128** must not be all zero');
      [this.#s0, this.#s1, this.#s2, this.#s3] = words.map((w) => Number(w) | 0) as [
        number,
        number,
        number,
        number,
      ];
    } else {
      const sm = new SplitMix64({
        seed: options.seed !== undefined ? toBigSeed(options.seed) : entropySeed(),
      });
      const a = sm.nextBigUint64();
      const b = sm.nextBigUint64();
      this.#s0 = Number(a & 0xffffffffn) | 0;
      this.#s1 = Number(a >> 32n) | 0;
      this.#s2 = Number(b & 0xffffffffn) | 0;
      this.#s3 = Number(b >> 32n) | 0;
    }
  }

  nextUint32(): number {
    const s1 = this.#s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    const s2 = this.#s2 ^ this.#s0;
    const s3 = this.#s3 ^ s1;
    this.#s1 = s1 ^ s2;
    this.#s0 ^= s3;
    this.#s2 = s2 ^ t;
    this.#s3 = (s3 << 11) | (s3 >>> 21);
    return result;
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

  jump(): void {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (const word of JUMP) {
      for (let b = 0; b < 32; b++) {
        if ((word >>> b) & 1) {
          a0 ^= this.#s0;
          a1 ^= this.#s1;
          a2 ^= this.#s2;
          a3 ^= this.#s3;
        }
        this.nextUint32();
      }
    }
    this.#s0 = a0;
    this.#s1 = a1;
    this.#s2 = a2;
    this.#s3 = a3;
  }

  /** The four state words as unsigned numbers. */
  get state(): readonly [number, number, number, number] {
    return [this.#s0 >>> 0, this.#s1 >>> 0, this.#s2 >>> 0, this.#s3 >>> 0];
  }
}
