import type { ColumnType, FieldValue } from '../storage/types.js';
import { weightBytes } from '../storage/collation.js';
import { unsignedKey } from '../storage/row-key.js';
import { SqlError } from '../sql/errors.js';
import { coerce } from '../exec/convert.js';
import { DATETIME_MAX, DATETIME_MIN, type Micros, TIME_MAX } from '../storage/temporal.js';
import { toUtc } from '../exec/time-zone.js';
import { type SqlType, dateTimeType, T_STR, timeType } from '../exec/types.js';

/**
 * SQL values as stored fields of the newer column types, with MySQL's strict-mode errors:
 * DATETIME and TIMESTAMP (rounded to the column's fractional digits; TIMESTAMP converted from the
 * session's time zone to UTC and kept within 1970-01-01 00:00:01 … 2038-01-19 03:14:07 UTC), TIME
 * (within ±838:59:59.999999) and YEAR (1901 … 2155, or 0; two digits read as MySQL reads them).
 */

/** TIMESTAMP's range in UTC microseconds. */
const TIMESTAMP_MIN = 1_000_000;
const TIMESTAMP_MAX = 2_147_483_647_999_999;

export function temporalField(
  column: string,
  ty: Extract<ColumnType, { fsp: number }>,
  v: unknown,
  t: SqlType,
  rowNo: number,
  timeZone: string,
): FieldValue {
  const bad = (): SqlError =>
    new SqlError(
      'ER_TRUNCATED_WRONG_VALUE',
      `Incorrect ${ty.kind === 'time' ? 'time' : 'datetime'} value: '${String(coerce(v, t, T_STR))}' for column \`${column}\` at row ${rowNo}`,
    );
  if (ty.kind === 'time') {
    const x = coerce(v, t, timeType(ty.fsp)) as number | null;
    if (x === null || Math.abs(x) > TIME_MAX) throw bad();
    return x;
  }
  const x = coerce(v, t, dateTimeType(ty.fsp)) as Micros | null;
  if (x === null || x < DATETIME_MIN || x > DATETIME_MAX) throw bad();
  if (ty.kind === 'datetime') return x;
  const utc = toUtc(Number(x), timeZone);
  if (utc < TIMESTAMP_MIN || utc > TIMESTAMP_MAX) throw bad();
  return utc;
}

/** A YEAR: 1901 … 2155 or 0; 1–69 mean 2001–2069 and 70–99 1970–1999 (a string '0' … '69' too). */
export function yearValue(x: number | bigint, t: SqlType, range: () => SqlError): number {
  const n = Number(x);
  if (n === 0) return t.kind === 'str' ? 2000 : 0;
  if (n >= 1 && n <= 69) return 2000 + n;
  if (n >= 70 && n <= 99) return 1900 + n;
  if (n < 1901 || n > 2155) throw range();
  return n;
}

/**
 * A stored field as its value in the primary key the storage looks rows up by (`Table.get`,
 * `update`, `delete` take key values): collated text as its weight string, BIGINT UNSIGNED
 * shifted by 2^63 (storage/row-key.ts), anything else as it is.
 */
export function keyFieldValue(f: FieldValue, t: ColumnType): FieldValue {
  if (f === null) return null;
  if ((t.kind === 'char' || t.kind === 'varchar') && t.collation !== undefined) {
    const s = typeof f === 'string' ? f : new TextDecoder().decode(f as Uint8Array);
    return weightBytes(s, t.collation);
  }
  if (t.kind === 'bigint' && t.unsigned === true) return unsignedKey(f as number | bigint);
  return f;
}
