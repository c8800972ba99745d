import type { RandomGenerator } from '../types.js';
import { chiSquareSurvival, pearson, poissonPmf } from './stats.js';

/** One test's outcome. A generator passes when `alpha ≤ pValue ≤ 1 − alpha`. */
export interface TestResult {
  readonly test: string;
  readonly statistic: number;
  readonly degreesOfFreedom: number;
  readonly pValue: number;
  readonly passed: boolean;
  /** A short human-readable note (e.g. which records were reachable). */
  readonly detail: string;
}

/** Default significance: fail below 0.001 (too far from uniform) or above 0.999 (too regular). */
export const DEFAULT_ALPHA = 0.001;

function result(
  test: string,
  observed: ArrayLike<number>,
  expected: ArrayLike<number>,
  detail: string,
  alpha: number,
): TestResult {
  const statistic = pearson(observed, expected);
  const degreesOfFreedom = observed.length - 1;
  const pValue = chiSquareSurvival(statistic, degreesOfFreedom);
  return {
    test,
    statistic,
    degreesOfFreedom,
    pValue,
    passed: pValue >= alpha && pValue <= 1 - alpha,
    detail,
  };
}

function uniformExpectation(bins: number, total: number): Float64Array {
  return new Float64Array(bins).fill(total / bins);
}

export interface CommonOptions {
  samples?: number;
  alpha?: number;
}

/** Chi-square on the top 8 bits of `nextUint32()`: are all 256 byte values equally frequent? */
export function uniformityTest(gen: RandomGenerator, options: CommonOptions = {}): TestResult {
  const samples = options.samples ?? 100_000;
  const counts = new Float64Array(256);
  for (let i = 0; i < samples; i++) counts[gen.nextUint32() >>> 24]! += 1;
  return result(
    'uniformity',
    counts,
    uniformExpectation(256, samples),
    `${samples} draws, top byte`,
    options.alpha ?? DEFAULT_ALPHA,
  );
}

/**
 * Residue classes: `nextBelow(m)` counted per class. This is the test `page_rnd` cannot pass:
 * with m = 3 every pick is 2.
 */
export function residueTest(gen: RandomGenerator, modulus = 3, options: CommonOptions = {}): TestResult {
  const samples = options.samples ?? 30_000;
  const counts = new Float64Array(modulus);
  for (let i = 0; i < samples; i++) counts[gen.nextBelow(modulus)]! += 1;
  const seen = [...counts].map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  return result(
    `residue mod ${modulus}`,
    counts,
    uniformExpectation(modulus, samples),
    `classes seen: {${seen.join(',')}}`,
    options.alpha ?? DEFAULT_ALPHA,
  );
}

/** Serial test: non-overlapping pairs (`nextBelow(d)`, `nextBelow(d)`) over d² cells. */
export function serialTest(gen: RandomGenerator, d = 16, options: CommonOptions = {}): TestResult {
  const pairs = options.samples ?? 50_000;
  const counts = new Float64Array(d * d);
  for (let i = 0; i < pairs; i++) {
    const a = gen.nextBelow(d);
    counts[a * d + gen.nextBelow(d)]! += 1;
  }
  return result(
    `serial pairs d=${d}`,
    counts,
    uniformExpectation(d * d, pairs),
    `${pairs} pairs`,
    options.alpha ?? DEFAULT_ALPHA,
  );
}

/**
 * Gap test (Knuth TAOCP 3.3.2 D): the lengths of gaps between draws landing in [0, 1/4), with
 * P(gap = r) = p·(1 − p)^r for r < 16 and P(gap ≥ 16) = (1 − p)^16.
 */
export function gapTest(gen: RandomGenerator, options: CommonOptions = {}): TestResult {
  const gaps = options.samples ?? 10_000;
  const t = 16;
  const p = 0.25;
  const counts = new Float64Array(t + 1);
  let gap = 0;
  for (let found = 0; found < gaps; ) {
    if (gen.nextUint32() < 1073741824) {
      counts[Math.min(gap, t)]! += 1;
      gap = 0;
      found++;
    } else if (++gap > 10_000) {
      // A generator that never lands in the interval: count it as one overlong gap.
      counts[t]! += 1;
      gap = 0;
      found++;
    }
  }
  const expected = new Float64Array(t + 1);
  for (let r = 0; r < t; r++) expected[r] = gaps * p * (1 - p) ** r;
  expected[t] = gaps * (1 - p) ** t;
  return result('gap [0,1/4)', counts, expected, `${gaps} gaps`, options.alpha ?? DEFAULT_ALPHA);
}

/**
 * Runs-up test (Knuth TAOCP 3.3.2 G, the variant that discards the element after each run so
 * run lengths are independent): P(length = r) = 1/r! − 1/(r+1)!, lengths ≥ 6 pooled.
 */
export function runsTest(gen: RandomGenerator, options: CommonOptions = {}): TestResult {
  const runs = options.samples ?? 20_000;
  const counts = new Float64Array(6);
  for (let i = 0; i < runs; i++) {
    let prev = gen.nextUint32();
    let length = 1;
    for (;;) {
      const x = gen.nextUint32();
      if (x <= prev) break; // x is discarded: it ends the run and starts nothing
      prev = x;
      length++;
      if (length > 64) break;
    }
    counts[Math.min(length, 6) - 1]! += 1;
  }
  const fact = [1, 1, 2, 6, 24, 120, 720, 5040];
  const expected = new Float64Array(6);
  for (let r = 1; r <= 5; r++) expected[r - 1] = runs * (1 / fact[r]! - 1 / fact[r + 1]!);
  expected[5] = runs / fact[6]!;
  return result('runs up', counts, expected, `${runs} runs`, options.alpha ?? DEFAULT_ALPHA);
}

/**
 * Marsaglia's birthday spacings: 512 birthdays in a year of 2^24 days (the top 24 bits of
 * `nextUint32()`); the number of repeated spacings per year is Poisson with λ = m³/(4n) = 2.
 * 500 years, counts binned 0..5+.
 */
export function birthdayTest(gen: RandomGenerator, options: CommonOptions = {}): TestResult {
  const years = options.samples ?? 500;
  const m = 512;
  const lambda = (m * m * m) / (4 * 2 ** 24);
  const days = new Uint32Array(m);
  const spacings = new Uint32Array(m);
  const counts = new Float64Array(6);
  for (let y = 0; y < years; y++) {
    for (let i = 0; i < m; i++) days[i] = gen.nextUint32() >>> 8;
    days.sort();
    spacings[0] = days[0]!;
    for (let i = 1; i < m; i++) spacings[i] = days[i]! - days[i - 1]!;
    spacings.sort();
    let repeats = 0;
    for (let i = 1; i < m; i++) if (spacings[i] === spacings[i - 1]) repeats++;
    counts[Math.min(repeats, 5)]! += 1;
  }
  const expected = new Float64Array(6);
  let tail = 1;
  for (let k = 0; k < 5; k++) {
    const p = poissonPmf(k, lambda);
    expected[k] = years * p;
    tail -= p;
  }
  expected[5] = years * tail;
  return result(
    'birthday spacings',
    counts,
    expected,
    `${years} years of ${m} birthdays`,
    options.alpha ?? DEFAULT_ALPHA,
  );
}

/** The outcome of {@link diveTest}: which of the n records a random dive can ever pick. */
export interface DiveResult extends TestResult {
  readonly records: number;
  readonly counts: readonly number[];
  readonly reachable: readonly number[];
}

/**
 * The "random dive" test: `picks` dives each choose a record among `records` with
 * `nextBelow(records)`, as `page_cur_open_on_rnd_user_rec` does. Reports the counts, the
 * reachable records, and a chi-square p-value against uniform picks.
 */
export function diveTest(gen: RandomGenerator, records: number, options: CommonOptions = {}): DiveResult {
  const picks = options.samples ?? 3_000;
  const counts = new Float64Array(records);
  for (let i = 0; i < picks; i++) counts[gen.nextBelow(records)]! += 1;
  const reachable = [...counts].map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  const base = result(
    `dive among ${records}`,
    counts,
    uniformExpectation(records, picks),
    `records picked: {${reachable.join(',')}} of ${records}`,
    options.alpha ?? DEFAULT_ALPHA,
  );
  return { ...base, records, counts: [...counts], reachable };
}
