/**
 * SQL types of bound expressions and how their values are held at runtime:
 *
 * | kind | MySQL types | runtime value |
 * |---|---|---|
 * | `int` | TINYINT … BIGINT, boolean results | `number` when a safe integer, `bigint` beyond 2^53 (`unsigned`: 0 … 2^64 − 1) |
 * | `dec` | DECIMAL(p,s) | `bigint`: the value · 10^`iscale` (exact) |
 * | `dbl` | DOUBLE, FLOAT, REAL | `number` |
 * | `str` | CHAR, VARCHAR, TEXT | `string` |
 * | `date` | DATE | `number`: days since 1970-01-01 |
 * | `null` | the NULL literal | `null` |
 *
 * Every kind may also hold `null`. A DECIMAL keeps two scales: `scale` is MySQL's result scale
 * (what a client sees, e.g. `1/3` → 4), `iscale` the digits actually kept, which for a division
 * are whole 9-digit words as in MySQL's `decimal_div` (strings/decimal.c), so `1/3*3` is
 * `1.0000` as in MySQL.
 */
export type Kind = 'int' | 'dec' | 'dbl' | 'str' | 'date' | 'null';

export interface SqlType {
  readonly kind: Kind;
  /** Result scale (DECIMAL digits after the point shown; DOUBLE: 31 = not fixed). */
  readonly scale: number;
  /** DECIMAL: digits kept at runtime (≥ scale). */
  readonly iscale: number;
  /** DECIMAL precision / display width (informative). */
  readonly prec: number;
  /** For columns: the stored CHAR/VARCHAR length. */
  readonly len?: number;
  /** An integer that is BIGINT UNSIGNED (0 … 2^64 − 1): bit operators, CAST AS UNSIGNED, unsigned columns. */
  readonly unsigned?: boolean;
}

export const T_INT: SqlType = { kind: 'int', scale: 0, iscale: 0, prec: 20 };
export const T_UINT: SqlType = { kind: 'int', scale: 0, iscale: 0, prec: 20, unsigned: true };
export const T_DBL: SqlType = { kind: 'dbl', scale: 31, iscale: 0, prec: 22 };
export const T_STR: SqlType = { kind: 'str', scale: 0, iscale: 0, prec: 0 };
export const T_DATE: SqlType = { kind: 'date', scale: 0, iscale: 0, prec: 10 };
export const T_NULL: SqlType = { kind: 'null', scale: 0, iscale: 0, prec: 0 };

/** MySQL's DECIMAL limits: precision 65, scale 30. */
export const MAX_PREC = 65;
export const MAX_SCALE = 30;

export function decType(prec: number, scale: number, iscale: number = scale): SqlType {
  return {
    kind: 'dec',
    scale: Math.min(scale, MAX_SCALE),
    iscale: Math.min(Math.max(iscale, scale), MAX_SCALE),
    prec: Math.min(prec, MAX_PREC),
  };
}

export function isNumeric(t: SqlType): boolean {
  return t.kind === 'int' || t.kind === 'dec' || t.kind === 'dbl';
}

/** The type a CASE/COALESCE/UNION column takes over its branches (MySQL's type aggregation). */
export function unify(types: readonly SqlType[]): SqlType {
  const real = types.filter((t) => t.kind !== 'null');
  if (real.length === 0) return T_NULL;
  if (real.every((t) => t.kind === real[0]!.kind) && real[0]!.kind !== 'dec') return real[0]!;
  if (real.some((t) => t.kind === 'str')) return T_STR;
  if (real.some((t) => t.kind === 'date')) return real.every((t) => t.kind === 'date') ? T_DATE : T_STR;
  if (real.some((t) => t.kind === 'dbl')) return T_DBL;
  // int and dec: a decimal wide enough for every branch
  let scale = 0;
  let iscale = 0;
  let intDigits = 0;
  for (const t of real) {
    scale = Math.max(scale, t.scale);
    iscale = Math.max(iscale, t.kind === 'dec' ? t.iscale : 0);
    intDigits = Math.max(intDigits, t.prec - t.scale);
  }
  return decType(intDigits + scale, scale, iscale);
}
