import { obj, tagOf } from '../sql/ast.js';
import { toDateTime, toDouble, toText, toTime } from '../exec/convert.js';
import {
  addMicros,
  civilFromDays,
  dateTimeParts,
  dateTimeText,
  daysFromCivil,
  daysInMonth,
  inDateTimeRange,
  joinDay,
  type Micros,
  parseDateTime,
  parseTimeLoose,
  splitDay,
  TIME_MAX,
  US_PER_DAY,
  US_PER_SECOND,
} from '../storage/temporal.js';
import { calcWeek, weekMode } from '../exec/time-format.js';
import { type SqlType, T_DATE, T_DBL, T_INT, T_STR, dateTimeType, timeType } from '../exec/types.js';
import { type BindCtx, bindExpr, castEv, mk, unsupported } from './bind-expr.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * Date and time arithmetic of the binder: EXTRACT and its shorthands (YEAR(), HOUR(), …), and
 * `± INTERVAL n unit` / DATE_ADD / DATE_SUB / TIMESTAMPADD. The result type is MySQL's: a DATE
 * with a unit of days or more stays a DATE, with a smaller unit it becomes a DATETIME; a DATETIME
 * stays a DATETIME (with the fractional digits of its operand or of a fractional unit); a TIME
 * stays a TIME; a string is read as a DATETIME and the result is a string again. A result before
 * the year 1 or after 9999 is NULL.
 */

/** A value as a DATETIME with microseconds (a string or number read as MySQL reads one). */
export function dateTimeEv(b: Bound): Ev {
  return castEv(b, dateTimeType(6));
}

/**
 * A value as a TIME (microseconds), or as the time of day of a DATETIME. A string that is neither
 * is read by its leading number with warning 1292, as MySQL's TIME functions read it.
 */
export function timeEv(b: Bound, warn?: (code: number, message: string) => void): Ev {
  if (b.t.kind === 'time') return b.ev;
  const ev = b.ev;
  const k = b.t.kind;
  if (k === 'str')
    return () => {
      const x = ev();
      if (x === null) return null;
      const r = parseTimeLoose(x as string);
      if (r.truncated) warn?.(1292, `Truncated incorrect time value: '${x as string}'`);
      if (r.invalid === true) warn?.(1292, `Incorrect time value: '${x as string}'`);
      return r.v;
    };
  return () => {
    const x = ev();
    return x === null ? null : toTime(x, k, 6, b.t);
  };
}

/**
 * The fractional digits a value brings to a temporal result: a DATETIME's or TIME's own, a
 * string constant's (the digits after its seconds: 2 for '10:20:30.25'), 6 for other strings, a
 * DECIMAL's scale (at most 6), none for integers.
 */
export function fracDigits(b: Bound): number {
  switch (b.t.kind) {
    case 'datetime':
    case 'time':
      return b.t.scale;
    case 'dec':
      return Math.min(b.t.scale, 6);
    case 'dbl':
      return 6;
    case 'str': {
      const v = b.lit?.v;
      if (typeof v !== 'string') return 6;
      const m = /:\d{1,2}\.(\d+)\s*$/.exec(v) ?? /^\s*\d+\.(\d+)\s*$/.exec(v);
      return m === null ? 0 : Math.min(6, m[1]!.length);
    }
    default:
      return 0;
  }
}

export function dateField(
  field: string,
  e: Bound,
  text: string,
  n: unknown,
  warn?: (code: number, message: string) => void,
): Bound {
  const f = field.toUpperCase();
  if (f === 'HOUR' || f === 'MINUTE' || f === 'SECOND' || f === 'MICROSECOND') {
    // of a TIME (hours may pass 23), or of the time of a date and time
    const tv = timeEv(e, warn);
    const get: (us: number) => number =
      f === 'HOUR'
        ? (us) => Math.floor(us / 3_600_000_000)
        : f === 'MINUTE'
          ? (us) => Math.floor(us / 60_000_000) % 60
          : f === 'SECOND'
            ? (us) => Math.floor(us / US_PER_SECOND) % 60
            : (us) => us % US_PER_SECOND;
    return mk(
      T_INT,
      () => {
        const x = tv() as number | null;
        return x === null ? null : get(Math.abs(x));
      },
      [e],
      text,
    );
  }
  const dv = dateTimeEv(e);
  let get: (v: Micros) => number;
  switch (f) {
    case 'YEAR':
      get = (v) => dateTimeParts(v).year;
      break;
    case 'MONTH':
      get = (v) => dateTimeParts(v).month;
      break;
    case 'DAY':
    case 'DAYOFMONTH':
      get = (v) => dateTimeParts(v).day;
      break;
    case 'QUARTER':
      get = (v) => Math.floor((dateTimeParts(v).month - 1) / 3) + 1;
      break;
    case 'WEEK':
      get = (v) => {
        const p = dateTimeParts(v);
        return calcWeek(p.year, p.month, p.day, weekMode(0))[0];
      };
      break;
    default:
      throw unsupported(`EXTRACT(${field})`, n);
  }
  return mk(
    T_INT,
    () => {
      const x = dv() as Micros | null;
      return x === null ? null : get(x);
    },
    [e],
    text,
  );
}

/** A value's fields as EXTRACT reads them: a TIME's whole days moved out of its hours, its sign kept. */
interface ExtractSource {
  neg: boolean;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
}

/**
 * The largest number EXTRACT reads as a day-time interval (hhhhmmss); a larger one is a
 * YYYYMMDDhhmmss date and time (MariaDB's Sec6::to_datetime_or_to_interval_hhmmssff).
 */
const INTERVAL_AS_NUMBER_MAX = 999999995959;

/** A string that begins as a time does ('30:10:00', '-07:08', '1 10:00:00'), not as a date. */
const TIME_FIRST = /^\s*-?\d+(?:\s+\d+)?:/;

/**
 * EXTRACT's reading of its operand (MariaDB's Extract_source): a TIME, a string written as a time
 * ('30:10:00') and a number up to 12 digits (hhhhmmss: 20240305 is 2024:03:05) as a day-time
 * interval (30:10:00 is day 1, hour 6) carrying its sign; other strings and numbers as a DATETIME,
 * a DATE or DATETIME as itself. A string that is neither is NULL.
 */
function extractSource(e: Bound, warn?: (code: number, message: string) => void): () => ExtractSource | null {
  const bad = (x: unknown): null => {
    warn?.(1292, `Incorrect interval value: '${String(x)}'`);
    return null;
  };
  const k = e.t.kind;
  const fromTime = (us: number): ExtractSource => {
    const a = Math.abs(us);
    const secs = Math.floor(a / US_PER_SECOND);
    const hours = Math.floor(secs / 3600);
    return {
      neg: us < 0,
      year: 0,
      month: 0,
      day: Math.floor(hours / 24),
      hour: hours % 24,
      minute: Math.floor(secs / 60) % 60,
      second: secs % 60,
      micro: a - secs * US_PER_SECOND,
    };
  };
  const fromDateTime = (v: Micros): ExtractSource => ({ neg: false, ...dateTimeParts(v) });
  if (k === 'time') {
    const ev = e.ev;
    return () => {
      const x = ev() as number | null;
      return x === null ? null : fromTime(x);
    };
  }
  const dv = dateTimeEv(e);
  if (k === 'str') {
    const ev = e.ev;
    return () => {
      const x = ev() as string | null;
      if (x === null) return null;
      if (TIME_FIRST.test(x)) {
        const t = parseTimeLoose(x);
        return t.invalid === true || t.v === null ? bad(x) : fromTime(t.v as number);
      }
      const d = parseDateTime(x);
      return d === null ? bad(x) : fromDateTime(d);
    };
  }
  if (k === 'int' || k === 'dec' || k === 'dbl') {
    const ev = e.ev;
    return () => {
      const x = ev();
      if (x === null) return null;
      const v = toDouble(x, k, e.t) as number;
      const a = Math.abs(v);
      const whole = Math.trunc(a);
      if (whole > INTERVAL_AS_NUMBER_MAX) {
        const d = dv() as Micros | null;
        return d === null ? null : fromDateTime(d);
      }
      const minute = Math.floor(whole / 100) % 100;
      const second = whole % 100;
      if (minute > 59 || second > 59) return bad(toText(x, k, e.t));
      const us = (Math.floor(whole / 10000) * 3600 + minute * 60 + second) * US_PER_SECOND;
      const t = us + Math.round((a - whole) * US_PER_SECOND);
      return fromTime(v < 0 ? -t : t);
    };
  }
  return () => {
    const v = dv() as Micros | null;
    return v === null ? null : fromDateTime(v);
  };
}

/** EXTRACT's units read from the day-time fields, each signed by the value (MariaDB's Item_extract). */
const EXTRACTED: Record<string, (p: ExtractSource) => number> = {
  YEAR: (p) => p.year,
  QUARTER: (p) => Math.floor((p.month + 2) / 3),
  MONTH: (p) => p.month,
  DAY: (p) => p.day,
  HOUR: (p) => p.hour,
  MINUTE: (p) => p.minute,
  SECOND: (p) => p.second,
  MICROSECOND: (p) => p.micro,
  YEAR_MONTH: (p) => p.year * 100 + p.month,
  DAY_HOUR: (p) => p.day * 100 + p.hour,
  DAY_MINUTE: (p) => (p.day * 100 + p.hour) * 100 + p.minute,
  DAY_SECOND: (p) => ((p.day * 100 + p.hour) * 100 + p.minute) * 100 + p.second,
  DAY_MICROSECOND: (p) => (((p.day * 100 + p.hour) * 100 + p.minute) * 100 + p.second) * 1e6 + p.micro,
  HOUR_MINUTE: (p) => p.hour * 100 + p.minute,
  HOUR_SECOND: (p) => (p.hour * 100 + p.minute) * 100 + p.second,
  HOUR_MICROSECOND: (p) => ((p.hour * 100 + p.minute) * 100 + p.second) * 1e6 + p.micro,
  MINUTE_SECOND: (p) => p.minute * 100 + p.second,
  MINUTE_MICROSECOND: (p) => (p.minute * 100 + p.second) * 1e6 + p.micro,
  SECOND_MICROSECOND: (p) => p.second * 1e6 + p.micro,
};

/**
 * `EXTRACT(unit FROM e)`: every unit but WEEK from {@link extractSource}'s fields, the day-time
 * ones signed (`EXTRACT(HOUR FROM TIME '-30:00:00')` is -6; a time's year and month are 0);
 * WEEK as WEEK() reads it.
 */
export function extractField(
  field: string,
  e: Bound,
  text: string,
  n: unknown,
  warn?: (code: number, message: string) => void,
): Bound {
  const f = field.toUpperCase();
  const get = EXTRACTED[f];
  if (get === undefined) return dateField(f, e, text, n, warn);
  const src = extractSource(e, warn);
  return mk(
    T_INT,
    () => {
      const p = src();
      if (p === null) return null;
      const v = get(p);
      return p.neg && v !== 0 ? -v : v;
    },
    [e],
    text,
  );
}

/**
 * The two-part interval units: how many numbers the amount's text holds, whether it counts months
 * (YEAR_MONTH) or microseconds, and each number's size in that base.
 */
const COMPOUND_UNITS: Record<string, { months: boolean; sizes: readonly number[] }> = {
  YEAR_MONTH: { months: true, sizes: [12, 1] },
  DAY_HOUR: { months: false, sizes: [US_PER_DAY, 3600 * US_PER_SECOND] },
  DAY_MINUTE: { months: false, sizes: [US_PER_DAY, 3600 * US_PER_SECOND, 60 * US_PER_SECOND] },
  DAY_SECOND: { months: false, sizes: [US_PER_DAY, 3600 * US_PER_SECOND, 60 * US_PER_SECOND, US_PER_SECOND] },
  DAY_MICROSECOND: {
    months: false,
    sizes: [US_PER_DAY, 3600 * US_PER_SECOND, 60 * US_PER_SECOND, US_PER_SECOND, 1],
  },
  HOUR_MINUTE: { months: false, sizes: [3600 * US_PER_SECOND, 60 * US_PER_SECOND] },
  HOUR_SECOND: { months: false, sizes: [3600 * US_PER_SECOND, 60 * US_PER_SECOND, US_PER_SECOND] },
  HOUR_MICROSECOND: { months: false, sizes: [3600 * US_PER_SECOND, 60 * US_PER_SECOND, US_PER_SECOND, 1] },
  MINUTE_SECOND: { months: false, sizes: [60 * US_PER_SECOND, US_PER_SECOND] },
  MINUTE_MICROSECOND: { months: false, sizes: [60 * US_PER_SECOND, US_PER_SECOND, 1] },
  SECOND_MICROSECOND: { months: false, sizes: [US_PER_SECOND, 1] },
};

/** Whether `unit` is a two-part unit (HOUR_MINUTE, YEAR_MONTH, …). */
export function isCompoundUnit(unit: string): boolean {
  return COMPOUND_UNITS[unit.toUpperCase()] !== undefined;
}

/**
 * A two-part unit's amount ('1:30' HOUR_MINUTE, '1-2' YEAR_MONTH, '1 2:03:04.5' DAY_MICROSECOND)
 * as months or microseconds, read as MySQL's get_interval_value: a leading `-` negates the whole,
 * any run of non-digits separates the numbers, fewer numbers than the unit has fill it from the
 * right ('5' HOUR_MINUTE is 5 minutes), a microsecond part of fewer than six digits is a
 * fraction ('3.5' SECOND_MICROSECOND is 3.5 seconds); more numbers than the unit has is NULL.
 */
export function compoundAmount(text: string, unit: string): number | null {
  const spec = COMPOUND_UNITS[unit]!;
  const count = spec.sizes.length;
  const n = text.length;
  let i = 0;
  while (i < n && /\s/.test(text[i]!)) i++;
  const neg = text[i] === '-';
  const digit = (j: number): boolean => j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57;
  while (i < n && !digit(i)) i++;
  let values: number[] = [];
  let lastDigits = 0;
  for (let f = 0; f < count; f++) {
    const start = i;
    let v = 0;
    while (digit(i)) v = v * 10 + (text.charCodeAt(i++) - 48);
    lastDigits = i - start;
    values.push(v);
    while (i < n && !digit(i)) i++;
    if (i === n && f !== count - 1) {
      values = [...new Array<number>(count - values.length).fill(0), ...values];
      break;
    }
  }
  if (i !== n) return null;
  if (unit.endsWith('_MICROSECOND') && lastDigits > 0 && lastDigits !== 6)
    values[count - 1] =
      lastDigits < 6
        ? values[count - 1]! * 10 ** (6 - lastDigits)
        : Math.trunc(values[count - 1]! / 10 ** (lastDigits - 6));
  let total = 0;
  for (let f = 0; f < count; f++) total += values[f]! * spec.sizes[f]!;
  return neg ? -total : total;
}

export function intervalOf(iv: unknown, ctx: BindCtx): { amount: Bound; unit: string } {
  const o = obj(iv);
  const unit = String(tagOf(o.leading_field)[0] || o.leading_field || 'Day').toUpperCase();
  return { amount: bindExpr(o.value, ctx), unit };
}

/** A unit as [months per unit, microseconds per unit]; undefined for one the engine lacks. */
function unitSize(unit: string): [number, number] | undefined {
  switch (unit) {
    case 'MICROSECOND':
      return [0, 1];
    case 'SECOND':
      return [0, US_PER_SECOND];
    case 'MINUTE':
      return [0, 60 * US_PER_SECOND];
    case 'HOUR':
      return [0, 3600 * US_PER_SECOND];
    case 'DAY':
      return [0, US_PER_DAY];
    case 'WEEK':
      return [0, 7 * US_PER_DAY];
    case 'MONTH':
      return [1, 0];
    case 'QUARTER':
      return [3, 0];
    case 'YEAR':
      return [12, 0];
    default: {
      // a two-part unit's amount is counted in months or microseconds (compoundAmount)
      const c = COMPOUND_UNITS[unit];
      return c === undefined ? undefined : c.months ? [1, 0] : [0, 1];
    }
  }
}

/** MySQL's month arithmetic on a DATETIME: the day is clamped to the last of the target month. */
function addMonthsTo(v: Micros, months: number): Micros | null {
  const [day, us] = splitDay(v);
  const [y, m, d] = civilFromDays(day);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  if (ny < 1 || ny > 9999) return null;
  return joinDay(daysFromCivil(ny, nm, Math.min(d, daysInMonth(ny, nm))), us);
}

/** MySQL's month arithmetic on a DATE (days): the day is clamped to the last of the target month. */
export function addMonths(days: number, months: number): number | null {
  const r = addMonthsTo(joinDay(days, 0), months);
  return r === null ? null : splitDay(r)[0];
}

/**
 * `date ± INTERVAL amount unit` as a closure over DATETIME microseconds: `k` units of the amount's
 * value, fractional SECOND amounts to the microsecond.
 */
export function shiftBy(
  unit: string,
  n: unknown,
): (v: Micros, amount: number, sign: number) => Micros | null {
  const size = unitSize(unit);
  if (size === undefined) throw unsupported(`INTERVAL … ${unit}`, n);
  const [months, micros] = size;
  return (v, amount, sign) => {
    const r =
      months !== 0
        ? addMonthsTo(v, Math.trunc(amount) * months * sign)
        : addMicros(v, Math.round(amount * micros) * sign);
    return r === null || !inDateTimeRange(r) ? null : r;
  };
}

/** The result type of `operand ± INTERVAL … unit` (see the module comment). */
function shiftType(t: SqlType, unit: string, amount: SqlType): SqlType {
  const dayUnit =
    unit === 'DAY' ||
    unit === 'WEEK' ||
    unit === 'MONTH' ||
    unit === 'QUARTER' ||
    unit === 'YEAR' ||
    unit === 'YEAR_MONTH';
  const fraction = unit.endsWith('MICROSECOND') || (unit === 'SECOND' && amount.kind !== 'int') ? 6 : 0;
  switch (t.kind) {
    case 'date':
      return dayUnit ? T_DATE : dateTimeType(fraction);
    case 'datetime':
      return dateTimeType(Math.max(t.scale, fraction));
    case 'time':
      return timeType(Math.max(t.scale, fraction));
    default:
      // a string, a number or NULL: the result is text (MariaDB types DATE_ADD(NULL, …) as a string)
      return T_STR;
  }
}

export function dateArith(date: Bound, iv: unknown, sign: number, ctx: BindCtx, text: string): Bound {
  const { amount, unit } = intervalOf(iv, ctx);
  return shifted(date, amount, unit, sign, text, iv);
}

/** `date ± amount unit` with its MySQL result type. */
export function shifted(
  date: Bound,
  amount: Bound,
  unit: string,
  sign: number,
  text: string,
  n: unknown,
): Bound {
  const shift = shiftBy(unit, n);
  const t = shiftType(date.t, unit, amount.t);
  // SECOND takes a fraction (microseconds); every other unit counts whole units, a fractional
  // amount rounded as an integer conversion rounds it (INTERVAL 1.5 DAY is 2 days), a string's
  // read by its leading integer; a two-part unit's amount is its text
  const a =
    COMPOUND_UNITS[unit] !== undefined
      ? compoundEv(amount, unit)
      : castEv(amount, unit === 'SECOND' && amount.t.kind !== 'int' ? T_DBL : T_INT);
  const k = date.t.kind;
  let ev: Ev;
  if (t.kind === 'time') {
    const tv = date.ev;
    ev = () => {
      const x = tv() as number | null;
      const q = a();
      if (x === null || q === null) return null;
      const r = shift(x, Number(q), sign) as number | null;
      return r === null || Math.abs(r) > TIME_MAX ? null : r;
    };
  } else if (t.kind === 'str') {
    // a string (or number) operand: read as a DATETIME, the result written back as text — a date
    // alone when it was one and the unit is of days or more
    const dv = date.ev;
    const dayUnit = unitSize(unit)![1] % US_PER_DAY === 0;
    const digits = textDigits(date, amount, unit);
    ev = () => {
      const x = dv();
      const q = a();
      if (x === null || q === null) return null;
      const s = k === 'dec' ? (toText(x, k, date.t) as string) : String(x);
      const v = parseDateTime(s) ?? toDateTime(x, k, 6, 0, date.t);
      if (v === null) return null;
      const r = shift(v, Number(q), sign);
      if (r === null) return null;
      const dateOnly = dayUnit && !/\d[T ]\s*\d/.test(s.trim()) && splitDay(v)[1] === 0;
      if (dateOnly) return dateTimeText(r, 0).slice(0, 10);
      return dateTimeText(r, digits ?? (splitDay(r)[1] % US_PER_SECOND === 0 ? 0 : 6));
    };
  } else {
    const dv = dateTimeEv(date);
    const toDays = t.kind === 'date';
    ev = () => {
      const x = dv() as Micros | null;
      const q = a();
      if (x === null || q === null) return null;
      const r = shift(x, Number(q), sign);
      if (r === null) return null;
      return toDays ? splitDay(r)[0] : r;
    };
  }
  return mk(t, ev, [date, amount], text);
}

/**
 * The fractional digits of `date ± INTERVAL amount unit` written as text, as MariaDB fixes them:
 * the most of the date's (a literal's digits after its seconds, an integer's none, a DECIMAL's
 * scale) and, for SECOND, the amount's (an integer's none, a DECIMAL's scale); MICROSECOND six.
 * Undefined where either side's digits are not fixed (a column's text, a DOUBLE, a string
 * amount): then six when there is a fraction, none otherwise.
 */
function textDigits(date: Bound, amount: Bound, unit: string): number | undefined {
  if (unit.endsWith('MICROSECOND')) return 6;
  const fixed = (b: Bound): number | undefined =>
    b.t.kind === 'int' ? 0 : b.t.kind === 'dec' ? Math.min(b.t.scale, 6) : undefined;
  const d = date.t.kind === 'str' && typeof date.lit?.v === 'string' ? fracDigits(date) : fixed(date);
  const q = unit === 'SECOND' ? fixed(amount) : 0;
  return d === undefined || q === undefined ? undefined : Math.max(d, q);
}

/** A two-part unit's amount, read from its text, in months or microseconds. */
function compoundEv(amount: Bound, unit: string): Ev {
  const text = castEv(amount, T_STR);
  return () => {
    const x = text() as string | null;
    return x === null ? null : compoundAmount(x, unit);
  };
}

export function dateArithDays(date: Bound, n: Bound, sign: number, text: string): Bound {
  return shifted(date, n, 'DAY', sign, text, undefined);
}
