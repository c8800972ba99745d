import type { RandomGenerator } from './types.js';

const TWO32 = 4294967296;

/**
 * A uniform integer in [min, max] (inclusive), unbiased. Ranges up to 2^32 take one
 * `nextBelow`; wider ones (up to 2^53) combine two draws with rejection.
 */
export function uniformInt(gen: RandomGenerator, min: number, max: number): number {
  if (!Number.isSafeInteger(min))
    throw new TypeError(`uniformInt: min must be a safe integer, got ${String(min)}`);
  if (!Number.isSafeInteger(max))
    throw new TypeError(`uniformInt: max must be a safe integer, got ${String(max)}`);
  if (max < min) throw new RangeError(`uniformInt: max (${max}) must be >= min (${min})`);
  const span = max - min + 1;
  if (span <= TWO32) return min + gen.nextBelow(span);
  if (!Number.isSafeInteger(span))
    throw new RangeError(`uniformInt: the range ${min}..${max} is wider than 2^53`);
  // 53 random bits, rejecting the top partial block so every value is equally likely.
  const limit = Math.floor(2 ** 53 / span) * span;
  for (;;) {
    const x = (gen.nextUint32() >>> 11) * TWO32 + gen.nextUint32();
    if (x < limit) return min + (x % span);
  }
}

/** A float in [0, 1) with 53 random bits (high 27 bits of one draw, high 26 of the next). */
export function nextFloat53(gen: RandomGenerator): number {
  const a = gen.nextUint32() >>> 5;
  const b = gen.nextUint32() >>> 6;
  return (a * 67108864 + b) / 9007199254740992;
}

/** Fisher–Yates shuffle of `array` in place; returns the same array. */
export function shuffle<T>(gen: RandomGenerator, array: T[]): T[] {
  for (let i = array.length - 1; i > 0; i--) {
    const j = gen.nextBelow(i + 1);
    const tmp = array[i] as T;
    array[i] = array[j] as T;
    array[j] = tmp;
  }
  return array;
}

/**
 * `k` distinct integers from [0, n), in the order drawn. Uses Floyd's algorithm (k draws, a
 * set of size k) when k is small against n, a partial Fisher–Yates over [0, n) otherwise.
 */
export function sampleWithoutReplacement(gen: RandomGenerator, n: number, k: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`sampleWithoutReplacement: n must be a non-negative integer, got ${n}`);
  if (!Number.isSafeInteger(k) || k < 0 || k > n) {
    throw new RangeError(`sampleWithoutReplacement: k must be an integer in [0, n=${n}], got ${k}`);
  }
  if (k * 4 >= n) {
    const all = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = i + gen.nextBelow(n - i);
      const tmp = all[i]!;
      all[i] = all[j]!;
      all[j] = tmp;
    }
    return all.slice(0, k);
  }
  const chosen = new Set<number>();
  const out: number[] = [];
  for (let j = n - k; j < n; j++) {
    const t = uniformInt(gen, 0, j);
    const pick = chosen.has(t) ? j : t;
    chosen.add(pick);
    out.push(pick);
  }
  return out;
}

/**
 * Zipf-distributed integers in [1, n] with P(k) ∝ k^(−s), by Hörmann and Derflinger's
 * rejection-inversion ("Rejection-inversion to generate variates from monotone discrete
 * distributions", 1996): O(1) per draw and no table, so n can be large.
 */
export class ZipfSampler {
  readonly n: number;
  readonly s: number;
  readonly #hX1: number;
  readonly #hN: number;
  readonly #shortcut: number;

  constructor(n: number, s: number) {
    if (!Number.isSafeInteger(n) || n < 1)
      throw new RangeError(`ZipfSampler: n must be an integer >= 1, got ${n}`);
    if (!(s > 0) || !Number.isFinite(s))
      throw new RangeError(`ZipfSampler: s must be a finite number > 0, got ${s}`);
    this.n = n;
    this.s = s;
    this.#hX1 = this.#hIntegral(1.5) - 1;
    this.#hN = this.#hIntegral(n + 0.5);
    this.#shortcut = 2 - this.#hIntegralInverse(this.#hIntegral(2.5) - this.#h(2));
  }

  sample(gen: RandomGenerator): number {
    for (;;) {
      const u = this.#hN + nextFloat53(gen) * (this.#hX1 - this.#hN);
      const x = this.#hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.n) k = this.n;
      if (k - x <= this.#shortcut || u >= this.#hIntegral(k + 0.5) - this.#h(k)) return k;
    }
  }

  #h(x: number): number {
    return Math.exp(-this.s * Math.log(x));
  }

  // H(x) = ((x^(1−s)) − 1)/(1 − s), written to stay accurate as s → 1.
  #hIntegral(x: number): number {
    const logX = Math.log(x);
    return expm1OverX((1 - this.s) * logX) * logX;
  }

  #hIntegralInverse(x: number): number {
    let t = x * (1 - this.s);
    if (t < -1) t = -1;
    return Math.exp(log1pOverX(t) * x);
  }
}

function expm1OverX(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + (x / 2) * (1 + (x / 3) * (1 + x / 4));
}

function log1pOverX(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - x / 4));
}
