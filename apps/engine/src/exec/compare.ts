import { coerce, parseDate } from './convert.js';
import { DEFAULT_COLLATION, weightText } from '../storage/collation.js';
import { type SqlType, T_DATE, T_DBL, T_INT, T_STR, dateTimeType, decType, timeType } from './types.js';

/**
 * How MySQL compares two values of given types (Item_func::agg_arg_charsets_for_comparison and
 * Arg_comparator::set_cmp_func): strings as strings (binary collation here), integers as integers,
 * integers and decimals exactly as decimals, a DATE with a string as dates, everything else as
 * doubles (a string against a number compares as two doubles).
 */
export function comparisonType(a: SqlType, b: SqlType): SqlType {
  const ka = a.kind;
  const kb = b.kind;
  if (ka === 'null') return b.kind === 'null' ? T_INT : b;
  if (kb === 'null') return a;
  if (ka === 'str' && kb === 'str') return stringComparison(a, b);
  // DATETIME with DATETIME, DATE, TIME, a string or a number: as DATETIMEs; TIME with TIME or a
  // string: as TIMEs (the other side converted once when it is a constant)
  if (ka === 'datetime' || kb === 'datetime') {
    const o = ka === 'datetime' ? kb : ka;
    if (o !== 'dbl')
      return dateTimeType(
        Math.max(a.kind === 'datetime' ? a.scale : 0, b.kind === 'datetime' ? b.scale : 0, 6),
      );
  }
  if ((ka === 'time' && (kb === 'time' || kb === 'str')) || (kb === 'time' && ka === 'str'))
    return timeType(6);
  if ((ka === 'time' && kb === 'date') || (ka === 'date' && kb === 'time')) return dateTimeType(6);
  if (ka === 'date' && kb === 'date') return T_DATE;
  // DATE with a string: as DATETIMEs, as MariaDB (a time in the string counts)
  if ((ka === 'date' && kb === 'str') || (kb === 'date' && ka === 'str')) return dateTimeType(6);
  if (ka === 'int' && kb === 'int') return T_INT;
  if ((ka === 'int' || ka === 'dec') && (kb === 'int' || kb === 'dec')) {
    const s = Math.max(ka === 'dec' ? a.iscale : 0, kb === 'dec' ? b.iscale : 0);
    return decType(65, s, s);
  }
  return T_DBL;
}

/**
 * The collation two strings compare by (MySQL's coercibility, simplified): a binary string or a
 * bytes-compared column wins; then a column's (or an explicit COLLATE's) collation over a
 * literal's; then either's; then utf8mb4_general_ci.
 */
export function stringComparison(a: SqlType, b: SqlType): SqlType {
  let c: SqlType['collation'];
  if (a.collation === 'bytes' || b.collation === 'bytes') c = 'bytes';
  else if (a.collation !== undefined && a.weak !== true) c = a.collation;
  else if (b.collation !== undefined && b.weak !== true) c = b.collation;
  else c = a.collation ?? b.collation ?? DEFAULT_COLLATION;
  return c === 'bytes' ? T_STR : { ...T_STR, collation: c };
}

/**
 * Converts a value of type `from` to the comparison type `to` (identity when they agree). Strings
 * compared under a collation become their weight strings (storage/collation.ts), which compare,
 * hash and group as the collation compares the strings.
 */
export function converter(from: SqlType, to: SqlType): ((v: unknown) => unknown) | null {
  if (to.kind === 'str' && to.collation !== undefined && to.collation !== 'bytes') {
    const coll = to.collation;
    if (from.kind === 'str') return (v) => weightText(v as string, coll);
    if (from.kind === 'null') return null;
    return (v) => {
      const s = coerce(v, from, T_STR);
      return s === null ? null : weightText(s as string, coll);
    };
  }
  if (from.kind === to.kind && (to.kind !== 'dec' || from.iscale === to.iscale)) return null;
  if (from.kind === 'null') return null;
  if (to.kind === 'date' && from.kind === 'str') return (v) => parseDate(v as string);
  return (v) => coerce(v, from, to);
}

/** Three-way comparison of two non-null values of one comparison type. */
export function cmpValues(a: unknown, b: unknown): number {
  // numbers, bigints (mixed too) and strings all order with < and >
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** A hashable key of a non-null value of a comparison type (equal values, equal keys). */
export function hashKey(v: unknown): string | number {
  if (typeof v === 'number') return v === 0 ? 0 : v;
  if (typeof v === 'bigint')
    return Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : `n${v}`;
  return `s${v as string}`;
}
