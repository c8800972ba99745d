import type { Bound } from '../plan/bound.js';

/**
 * The scaled-integer fast path of INT, DECIMAL and DATE expressions.
 *
 * A DECIMAL's exact runtime value is a bigint holding value · 10^iscale (exec/types.ts). Most
 * values a query meets are far smaller than 2^53 units, where a double holds the same integer
 * exactly and `+ − ×` and comparisons on doubles give exactly the integer result as long as that
 * result is itself below 2^53. A {@link NumEv} computes an expression that way, allocating
 * nothing, and answers NaN whenever it cannot vouch for the result: the value is NULL, an operand
 * or an intermediate is not a safe integer, or a product would need rounding. The caller then
 * evaluates the expression's exact `ev()` (the bigint path), so nothing is ever rounded: the fast
 * path either gives the exact integer or steps aside.
 *
 * Why checking only the final result is enough for one `+`, `−` or `×` of two safe integers: the
 * exact result r has |r| < 2^106; IEEE rounding is monotonic and 2^53 is a double, so when
 * |r| ≥ 2^53 the rounded result is ≥ 2^53 too (not safe: NaN), and when |r| < 2^53 it is exactly
 * representable (the double is r itself). Rescaling by 10^k is a product of the same kind.
 */
export type NumEv = () => number;

/** 2^53 − 1. */
export const MAX_SAFE = 9007199254740991;

const POW10_NUM: number[] = [];
for (let i = 0, p = 1; i <= 15; i++, p *= 10) POW10_NUM.push(p);

/** 10^n as an exact double (n ≤ 15), or NaN beyond: a factor that large leaves the fast path. */
export function pow10Num(n: number): number {
  return POW10_NUM[n] ?? Number.NaN;
}

/** `x` when it is a safe integer, else NaN (NaN stays NaN). */
export function safeOrNaN(x: number): number {
  return x <= MAX_SAFE && x >= -MAX_SAFE ? x : Number.NaN;
}

/** An exact runtime integer (number or bigint) as a fast-path double, or NaN when not safe or null. */
export function numOfValue(v: unknown): number {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : Number.NaN;
  if (typeof v === 'bigint')
    return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : Number.NaN;
  return Number.NaN;
}

/**
 * The fast evaluator of an INT, DECIMAL or DATE bound (scaled at its own `iscale` for DECIMAL),
 * or undefined when it has none: a literal gets a constant, a column or an arithmetic node the
 * `num` it was bound with.
 */
export function numOf(b: Bound): NumEv | undefined {
  const k = b.t.kind;
  if (k !== 'int' && k !== 'dec' && k !== 'date' && k !== 'null') return undefined;
  if (b.num !== undefined) return b.num;
  if (b.lit !== undefined) {
    const x = numOfValue(b.lit.v);
    return () => x;
  }
  return undefined;
}

/**
 * `e` rescaled by the exact factor `f` (a power of ten): NaN when `e` is NaN or the product leaves
 * the safe range. A factor of 1 returns `e` itself.
 */
export function scaledBy(e: NumEv, f: number): NumEv | undefined {
  if (f === 1) return e;
  if (Number.isNaN(f)) return undefined;
  return () => safeOrNaN(e() * f);
}
