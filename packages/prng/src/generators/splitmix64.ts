import type { RandomGenerator64 } from '../types.js';
import { boundedFinish, boundedSlow } from '../internal/bounded.js';
import { add64, mul64, toBig, hiOf, loOf } from '../internal/u64.js';
import { stateWords, toBigSeed } from '../internal/validate.js';
import { entropySeed } from '../internal/seed.js';

// Golden-ratio increment 0x9e3779b97f4a7c15 and the two mix multipliers, as high/low words.
const GAMMA_HI = 0x9e3779b9;
const GAMMA_LO = 0x7f4a7c15;
const M1_HI = 0xbf58476d;
const M1_LO = 0x1ce4e5b9;
const M2_HI = 0x94d049bb;
const M2_LO = 0x133111eb;

/**
 * SplitMix64 (Steele, Lea, Flood 2014; Vigna's `splitmix64.c`): a Weyl sequence with increment
 * 0x9e3779b97f4a7c15 passed through a variant of MurmurHash3's 64-bit finalizer. Used here as a
 * generator and to expand seeds for the xoshiro family, as its authors recommend.
 */
export class SplitMix64 implements RandomGenerator64 {
  readonly name = 'splitmix64' as const;
  // s[0] = high word of the state, s[1] = low word; t is scratch for the mixing steps.
  readonly #s = new Uint32Array(2);
  readonly #t = new Uint32Array(2);

  constructor(options: { seed?: bigint | number; state?: readonly bigint[] | readonly number[] } = {}) {
    let x: bigint;
    if (options.state !== undefined) x = stateWords(options.state, 1, this.name)[0]!;
    else x = options.seed !== undefined ? toBigSeed(options.seed) : entropySeed();
    this.#s[0] = hiOf(x);
    this.#s[1] = loOf(x);
  }

  /** Advances and leaves the 64-bit output in t[0] (high) and t[1] (low). */
  #step(): void {
    const s = this.#s;
    const t = this.#t;
    add64(s[0]!, s[1]!, GAMMA_HI, GAMMA_LO, s);
    let h = s[0]!;
    let l = s[1]!;
    // z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
    l = (l ^ ((l >>> 30) | (h << 2))) >>> 0;
    h = (h ^ (h >>> 30)) >>> 0;
    mul64(h, l, M1_HI, M1_LO, t);
    h = t[0]!;
    l = t[1]!;
    // z = (z ^ (z >> 27)) * 0x94d049bb133111eb
    l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
    h = (h ^ (h >>> 27)) >>> 0;
    mul64(h, l, M2_HI, M2_LO, t);
    h = t[0]!;
    l = t[1]!;
    // z ^ (z >> 31)
    t[1] = l ^ ((l >>> 31) | (h << 1));
    t[0] = h ^ (h >>> 31);
  }

  nextUint32(): number {
    this.#step();
    return this.#t[0]!;
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
    return toBig(this.#t[0]!, this.#t[1]!);
  }

  get state(): bigint {
    return toBig(this.#s[0]!, this.#s[1]!);
  }
}
