/** dbgen's 64-bit LCG constants (`config.h` RNG_A, RNG_C): Knuth's MMIX multiplier. */
export const RNG64_A = 6364136223846793005n;
export const RNG64_C = 1n;
const M = 2147483647n;
const PM_A = 16807n;

/**
 * dbgen's 64-bit stream (`rng64.c` `dss_random64`), used from SF 30 000 for o_custkey and
 * l_partkey, whose ranges outgrow 2^31. The state is a signed 64-bit integer advanced by
 * `state·A + C` (wrapping); a draw in [low, high] is `low + |state| mod (high − low + 1)`.
 *
 * dbgen still closes each row with the 31-bit `NthElement` on this state (`row_stop`), i.e.
 * `state = state·16807^k mod (2^31 − 1)` computed in wrapping signed 64-bit arithmetic with C's
 * truncating `%`; {@link rowSkip} reproduces that too. BigInt throughout: this path only runs at
 * scale factors where the output is terabytes, so simplicity beats speed here.
 */
export class Rng64Stream {
  #state: bigint;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) throw new TypeError(`seed must be an integer, got ${seed}`);
    this.#state = BigInt(seed);
  }

  get state(): bigint {
    return this.#state;
  }

  /** `dss_random64(low, high)`. */
  next(low: number, high: number): number {
    let lo = BigInt(low);
    let hi = BigInt(high);
    if (lo > hi) [lo, hi] = [hi, lo];
    this.#state = BigInt.asIntN(64, this.#state * RNG64_A + RNG64_C);
    let v = this.#state;
    if (v < 0n) v = BigInt.asIntN(64, -v);
    return Number(lo + (v % (hi - lo + 1n)));
  }

  /** dbgen `NthElement(n, &state)` applied to the 64-bit state (wrapping multiply, C `%`). */
  rowSkip(n: number): void {
    let k = BigInt(n);
    let mult = PM_A;
    let z = this.#state;
    while (k > 0n) {
      if (k & 1n) z = BigInt.asIntN(64, mult * z) % M; // BigInt % truncates like C
      k >>= 1n;
      mult = (mult * mult) % M;
    }
    this.#state = z;
  }
}
