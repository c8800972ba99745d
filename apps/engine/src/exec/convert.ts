import { SqlError } from '../sql/errors.js';
import { decFromDouble, decText, expandExp, parseDec, pow10, rescale } from './decimal.js';
import {
  addMicros,
  dateTimeFromNumber,
  dateTimeNumber,
  dateTimeText,
  joinDay,
  type Micros,
  parseDateTime,
  parseTimeLoose,
  truncateMicros,
  splitDay,
  temporalDigits,
  timeFromNumber,
  timeNumber,
  timeText,
} from '../storage/temporal.js';
import type { Kind, SqlType } from './types.js';

/**
 * Conversions between runtime values of the kinds in types.ts, as MySQL converts implicitly:
 * a string used as a number is read up to its first non-numeric character ('12abc' → 12,
 * 'abc' → 0), a DATE used as a number is YYYYMMDD.
 */

const MS_PER_DAY = 86_400_000;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** An integer as number when safe, else bigint. */
export function normInt(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

export function inInt64(v: bigint): boolean {
  return v >= INT64_MIN && v <= INT64_MAX;
}

export const UINT64_MAX = 18446744073709551615n;

export function inUint64(v: bigint): boolean {
  return v >= 0n && v <= UINT64_MAX;
}

/** The numeric prefix of a string, as MySQL reads it in a numeric context. */
export function numericPrefix(s: string): string {
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(s);
  return m === null ? '0' : m[0].trim();
}

export function dayText(days: number): string {
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * 'YYYY-MM-DD' (also 'YYYY-M-D', 'YYYYMMDD') → days, or null. A time part is not kept, but one
 * whose hour, minute or second is out of range makes the whole value invalid, as MariaDB reads
 * the text as a DATETIME first ('2024-01-01 25:00:00' is no date).
 */
export function parseDate(s: string): number | null {
  let m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](.*))?$/.exec(s);
  if (m === null) m = /^\s*(\d{4})(\d{2})(\d{2})\s*$/.exec(s);
  if (m === null) return null;
  const time = m[4] === undefined ? null : /^\s*(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?/.exec(m[4]);
  if (time !== null && (Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 59))
    return null;
  return dateFromParts(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function dateFromParts(y: number, mo: number, d: number): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  // Date.UTC maps years 0–99 to 1900+; set the full year explicitly
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  return Math.round(dt.getTime() / MS_PER_DAY);
}

function dateNumber(days: number): number {
  const d = new Date(days * MS_PER_DAY);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Above this decimal exponent, and below its negative, a double's text takes the 'e' form (DBL_DIG). */
const MAX_DECPT_FOR_F_FORMAT = 15;

/**
 * MariaDB's text of a double (`my_gcvt` with a field wide enough for every digit): the shortest
 * digits that read back, written plainly (`0.0000001`, `100000000000000`) while the decimal
 * point falls at most 15 places past the first digit and at most 14 zeros before it, else as
 * `1.2345678901234568e17` / `1e-16` (no '+', no leading zeros in the exponent); −0 as `0`.
 */
export function dblText(x: number): string {
  // MySQL has no text for an infinity or NaN: a value that became one is out of range
  if (!Number.isFinite(x))
    throw new SqlError('ER_DATA_OUT_OF_RANGE', `DOUBLE value is out of range in '${String(x)}'`);
  if (x === 0) return '0';
  const e = x.toExponential(); // shortest round-trip digits: "-d.ddde±n"
  const neg = e.charCodeAt(0) === 45;
  const at = e.indexOf('e');
  const digits = e.slice(neg ? 1 : 0, at).replace('.', '');
  const len = digits.length;
  // the value is 0.DIGITS × 10^decpt
  const decpt = Number(e.slice(at + 1)) + 1;
  const sign = neg ? '-' : '';
  if (decpt >= 1 - MAX_DECPT_FOR_F_FORMAT && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt)) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= len) return `${sign}${digits}${'0'.repeat(decpt - len)}`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const mantissa = len > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}e${decpt - 1}`;
}

/** MariaDB's text of a FLOAT value: its six significant digits (FLT_DIG), written as a double's. */
export function floatText(x: number): string {
  return dblText(Number.isFinite(x) ? Number(x.toPrecision(6)) : x);
}

export function toDouble(v: unknown, k: Kind, t?: SqlType): number | null {
  if (v === null) return null;
  switch (k) {
    case 'int':
    case 'dbl':
      return Number(v);
    case 'dec':
      return Number(decText(v as bigint, t?.iscale ?? 0, t?.iscale ?? 0));
    case 'str': {
      if (t?.hex === true) return Number(hexNumber(v as string));
      // past the largest double, MariaDB's string-to-double conversion gives ±DBL_MAX
      const x = Number(numericPrefix(v as string));
      return x === Infinity ? Number.MAX_VALUE : x === -Infinity ? -Number.MAX_VALUE : x;
    }
    case 'date':
      return dateNumber(v as number);
    case 'datetime':
      return dateTimeNumber(v as Micros);
    case 'time':
      return timeNumber(v as number);
    default:
      return null;
  }
}

/** To a decimal at scale `to`. */
export function toDecimal(v: unknown, k: Kind, t: SqlType | undefined, to: number): bigint | null {
  if (v === null) return null;
  switch (k) {
    case 'int':
      return BigInt(v as number | bigint) * pow10(to);
    case 'dec':
      return rescale(v as bigint, t?.iscale ?? 0, to);
    case 'dbl':
      return decFromDouble(v as number, to);
    case 'str': {
      if (t?.hex === true) return hexNumber(v as string) * pow10(to);
      const p = parseDec(expandExp(numericPrefix(v as string)));
      return p === undefined ? 0n : rescale(p[0], p[1], to);
    }
    case 'date':
      return BigInt(dateNumber(v as number)) * pow10(to);
    case 'datetime':
    case 'time': {
      // exactly: the integer part, then the microseconds as six decimals
      const [whole, micro] = temporalDigits(v as Micros, k === 'time');
      return rescale(BigInt(whole) * 1_000_000n + BigInt(micro), 6, to);
    }
    default:
      return null;
  }
}

/** To an integer, rounding half away from zero (MySQL's CAST(… AS SIGNED) of a decimal or double). */
export function toInteger(v: unknown, k: Kind, t?: SqlType): number | bigint | null {
  if (v === null) return null;
  switch (k) {
    case 'int':
      return v as number | bigint;
    case 'dec': {
      // beyond 64 bits MySQL saturates (with a warning)
      const r = rescale(v as bigint, t?.iscale ?? 0, 0);
      return normInt(r > INT64_MAX ? INT64_MAX : r < INT64_MIN ? INT64_MIN : r);
    }
    case 'dbl': {
      const x = v as number;
      const r = x < 0 ? -Math.round(-x) : Math.round(x);
      if (Number.isSafeInteger(r)) return r;
      if (!Number.isFinite(r)) return null;
      let b = BigInt(r);
      if (b > INT64_MAX) b = INT64_MAX;
      if (b < INT64_MIN) b = INT64_MIN;
      return normInt(b);
    }
    case 'str': {
      // a 0x… literal past 2^63 − 1 reads as a BIGINT's two's complement, as MariaDB's val_int
      if (t?.hex === true) return normInt(BigInt.asIntN(64, hexNumber(v as string)));
      const m = /^\s*([+-]?\d+)/.exec(v as string);
      if (m === null) return 0;
      let b = BigInt(m[1]!);
      if (b > INT64_MAX) b = INT64_MAX;
      if (b < INT64_MIN) b = INT64_MIN;
      return normInt(b);
    }
    case 'date':
      return dateNumber(v as number);
    case 'datetime':
    case 'time':
      // the number form without its fraction (MariaDB truncates it)
      return temporalDigits(v as Micros, k === 'time')[0];
    default:
      return null;
  }
}

export function toText(v: unknown, k: Kind, t?: SqlType): string | null {
  if (v === null) return null;
  switch (k) {
    case 'int':
      return String(v);
    case 'dec':
      return decText(v as bigint, t?.iscale ?? 0, t?.scale ?? 0);
    case 'dbl':
      return t?.float === true ? floatText(v as number) : dblText(v as number);
    case 'str':
      return v as string;
    case 'date':
      return dayText(v as number);
    case 'datetime':
      return dateTimeText(v as Micros, t?.scale ?? 0);
    case 'time':
      return timeText(v as number, t?.scale ?? 0);
    default:
      return null;
  }
}

export function toDate(v: unknown, k: Kind): number | null {
  if (v === null) return null;
  switch (k) {
    case 'date':
      return v as number;
    case 'datetime':
      return splitDay(v as Micros)[0];
    case 'time':
      return splitDay(addMicros(joinDay(timeBaseDay, 0), v as number))[0];
    case 'str': {
      const d = parseDate(v as string);
      if (d !== null) return d;
      const dt = parseDateTime(v as string);
      return dt === null ? null : splitDay(dt)[0];
    }
    case 'int':
    case 'dec':
    case 'dbl': {
      const n = Number(k === 'dec' ? toDouble(v, k) : v);
      if (n >= 10_000_000_000) {
        const dt = dateTimeFromNumber(n);
        return dt === null ? null : splitDay(dt)[0];
      }
      const w = Math.floor(n);
      const y = Math.floor(w / 10000);
      return dateFromParts(
        w < 1_000_000 ? (y < 70 ? 2000 + y : 1900 + y) : y,
        Math.floor(w / 100) % 100,
        w % 100,
      );
    }
    default:
      return null;
  }
}

/**
 * The day a TIME falls on when it becomes a DATETIME or a DATE: the running statement's
 * CURRENT_DATE, as MariaDB's, set by the session as each statement starts (statements run one at
 * a time on a thread).
 */
let timeBaseDay = 0;

export function setTimeBaseDay(day: number): void {
  timeBaseDay = day;
}

/**
 * To a DATETIME (microseconds) cut to `fsp` digits; null when the value is no valid one. `t` is
 * the value's type when it is a DECIMAL (its scale).
 */
export function toDateTime(
  v: unknown,
  k: Kind,
  fsp = 6,
  today: number = timeBaseDay,
  t?: SqlType,
): Micros | null {
  if (v === null) return null;
  let r: Micros | null;
  switch (k) {
    case 'datetime':
      r = v as Micros;
      break;
    case 'date':
      r = joinDay(v as number, 0);
      break;
    case 'time':
      // a TIME as a DATETIME is that time of the current day (MySQL's CURRENT_DATE + time)
      r = addMicros(joinDay(today, 0), v as number);
      break;
    case 'str':
      r = parseDateTime(v as string);
      break;
    case 'int':
    case 'dec':
    case 'dbl':
      r = dateTimeFromNumber(toDouble(v, k, t) as number);
      break;
    default:
      r = null;
  }
  return r === null ? null : truncateMicros(r, fsp);
}

/** To a TIME (microseconds) cut to `fsp` digits; null when the value is no valid one (`t` as above). */
export function toTime(v: unknown, k: Kind, fsp = 6, t?: SqlType): number | null {
  if (v === null) return null;
  let r: number | null;
  switch (k) {
    case 'time':
      r = v as number;
      break;
    case 'datetime':
      r = splitDay(v as Micros)[1];
      break;
    case 'date':
      r = 0;
      break;
    case 'str':
      r = parseTimeLoose(v as string).v;
      break;
    case 'int':
    case 'dec':
    case 'dbl':
      r = timeFromNumber(toDouble(v, k, t) as number);
      break;
    default:
      r = null;
  }
  return r === null ? null : (truncateMicros(r, fsp, true) as number);
}

/** A value of type `from` as type `to` (used to coerce CASE branches, UNION columns, inserts). */
export function coerce(v: unknown, from: SqlType, to: SqlType): unknown {
  if (v === null) return null;
  switch (to.kind) {
    case 'int':
      return toInteger(v, from.kind, from);
    case 'dec':
      return toDecimal(v, from.kind, from, to.iscale);
    case 'dbl':
      return toDouble(v, from.kind, from);
    case 'str': {
      // text and binary strings: UTF-8 bytes one per character, and back
      const text = toText(v, from.kind, from) as string;
      if (to.binary === true && from.binary !== true) return Buffer.from(text, 'utf8').toString('latin1');
      if (to.binary !== true && from.binary === true) return Buffer.from(text, 'latin1').toString('utf8');
      return text;
    }
    case 'date':
      return toDate(v, from.kind);
    case 'datetime':
      return toDateTime(v, from.kind, to.scale, timeBaseDay, from);
    case 'time':
      return toTime(v, from.kind, to.scale, from);
    default:
      return v;
  }
}

/** A 0x… literal's bytes as MariaDB reads them as a number: the unsigned value of the last 8. */
export function hexNumber(bytes: string): bigint {
  let n = 0n;
  for (let i = Math.max(0, bytes.length - 8); i < bytes.length; i++)
    n = (n << 8n) | BigInt(bytes.charCodeAt(i));
  return n;
}
