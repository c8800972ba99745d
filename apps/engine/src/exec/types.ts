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
 * | `datetime` | DATETIME, TIMESTAMP | microseconds since 1970-01-01 00:00:00 of the wall clock (storage/temporal.ts); `scale` is the fractional digits |
 * | `time` | TIME | signed microseconds; `scale` is the fractional digits |
 * | `null` | the NULL literal | `null` |
 *
 * Every kind may also hold `null`. A DECIMAL keeps two scales: `scale` is MySQL's result scale
 * (what a client sees, e.g. `1/3` → 4), `iscale` the digits actually kept, which for a division
 * are whole 9-digit words as in MySQL's `decimal_div` (strings/decimal.c), so `1/3*3` is
 * `1.0000` as in MySQL.
 */
import type { Collation } from '../storage/collation.js';

export type Kind = 'int' | 'dec' | 'dbl' | 'str' | 'date' | 'datetime' | 'time' | 'null';

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
  /** A `datetime` that is a TIMESTAMP column's (sent to clients as TIMESTAMP). */
  readonly timestamp?: boolean;
  /**
   * A string's collation (storage/collation.ts), or `bytes`: compared by its bytes (a binary string,
   * or a text column of a table made through the storage API, which has none). Absent: an
   * expression's, taken from what it is compared with, else the connection's.
   */
  readonly collation?: Collation | 'bytes';
  /** The collation is only the connection's (a literal): a column's wins over it in a comparison. */
  readonly weak?: boolean;
  /**
   * A DOUBLE that is a FLOAT column's (or MIN/MAX of one): its values are single-precision and
   * are shown with the six significant digits single precision keeps.
   */
  readonly float?: boolean;
  /** An integer that is a truth value (T_BOOL). */
  readonly bool?: boolean;
  /** A binary string written as 0x… : read as a number, it is its bytes' unsigned integer. */
  readonly hex?: boolean;
  /** A binary string (BINARY, VARBINARY, BLOB, UNHEX): its value holds one byte per character. */
  readonly binary?: boolean;
  /**
   * A string function of NULLs alone (`UPPER(NULL)`): binary as NULL is, but beside other strings
   * their character set wins (MySQL's ignorable derivation).
   */
  readonly ignorable?: boolean;
  /**
   * An ENUM or SET column's members (session/enum-set.ts): its value is the text, read as a number
   * (position, or bit mask with `set`) where MySQL reads one.
   */
  readonly members?: readonly string[];
  readonly set?: boolean;
  /** A string that is a JSON document (a JSON function's result, a JSON column): JSON_OBJECT and JSON_ARRAY embed it as JSON. */
  readonly json?: boolean;
}

export const T_INT: SqlType = { kind: 'int', scale: 0, iscale: 0, prec: 20 };
/** A truth value (a comparison, AND / OR / NOT, IS …, LIKE, TRUE): an integer JSON writes as true / false. */
export const T_BOOL: SqlType = { ...T_INT, bool: true };
export const T_UINT: SqlType = { kind: 'int', scale: 0, iscale: 0, prec: 20, unsigned: true };
export const T_DBL: SqlType = { kind: 'dbl', scale: 31, iscale: 0, prec: 22 };
export const T_FLOAT: SqlType = { ...T_DBL, prec: 12, float: true };
export const T_STR: SqlType = { kind: 'str', scale: 0, iscale: 0, prec: 0 };
/** A binary string (BINARY, VARBINARY, BLOB, UNHEX): one byte per character, compared by bytes. */
export const T_BIN: SqlType = { kind: 'str', scale: 0, iscale: 0, prec: 0, collation: 'bytes', binary: true };
/** A 0x… literal (MariaDB's hex hybrid): a binary string, or a number where one is read. */
export const T_HEX: SqlType = { ...T_BIN, hex: true };
export const T_DATE: SqlType = { kind: 'date', scale: 0, iscale: 0, prec: 10 };
export const T_DATETIME: SqlType = { kind: 'datetime', scale: 0, iscale: 0, prec: 19 };
export const T_TIME: SqlType = { kind: 'time', scale: 0, iscale: 0, prec: 10 };
export const T_NULL: SqlType = { kind: 'null', scale: 0, iscale: 0, prec: 0 };

/** A DATETIME with `fsp` fractional digits (0–6). */
export function dateTimeType(fsp: number, timestamp = false): SqlType {
  return {
    kind: 'datetime',
    scale: fsp,
    iscale: fsp,
    prec: fsp > 0 ? 20 + fsp : 19,
    ...(timestamp ? { timestamp } : {}),
  };
}

/** A TIME with `fsp` fractional digits (0–6). */
export function timeType(fsp: number): SqlType {
  return { kind: 'time', scale: fsp, iscale: fsp, prec: fsp > 0 ? 11 + fsp : 10 };
}

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
  const k0 = real[0]!.kind;
  if (real.every((t) => t.kind === k0) && k0 !== 'dec' && k0 !== 'datetime' && k0 !== 'time') {
    // binary and text strings together are binary
    if (k0 !== 'str') return real[0]!;
    const texts = real.filter((t) => t.ignorable !== true);
    if (texts.length === 0) return real[0]!;
    return texts.find((t) => t.binary === true) ?? texts[0]!;
  }
  if (real.some((t) => t.kind === 'str')) return T_STR;
  if (real.some((t) => t.kind === 'date' || t.kind === 'datetime' || t.kind === 'time')) {
    // DATE with DATETIME is DATETIME; other mixes are strings (MySQL's type aggregation)
    const fsp = Math.max(...real.map((t) => (t.kind === 'datetime' || t.kind === 'time' ? t.scale : 0)));
    if (real.every((t) => t.kind === 'date')) return T_DATE;
    if (real.every((t) => t.kind === 'date' || t.kind === 'datetime')) return dateTimeType(fsp);
    if (real.every((t) => t.kind === 'time')) return timeType(fsp);
    return T_STR;
  }
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
