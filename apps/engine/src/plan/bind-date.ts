import { obj, tagOf } from '../sql/ast.js';
import { toDateTime, toText, toTime } from '../exec/convert.js';
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
import { type SqlType, T_DATE, T_INT, T_STR, dateTimeType, timeType } from '../exec/types.js';
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
    default:
      return undefined;
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
    unit === 'DAY' || unit === 'WEEK' || unit === 'MONTH' || unit === 'QUARTER' || unit === 'YEAR';
  const fraction = unit === 'MICROSECOND' || (unit === 'SECOND' && amount.kind !== 'int') ? 6 : 0;
  switch (t.kind) {
    case 'date':
      return dayUnit ? T_DATE : dateTimeType(fraction);
    case 'datetime':
      return dateTimeType(Math.max(t.scale, fraction));
    case 'time':
      return timeType(Math.max(t.scale, fraction));
    case 'null':
      return dayUnit ? T_DATE : dateTimeType(fraction);
    default:
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
  const a = castEv(amount, amount.t.kind === 'int' ? T_INT : { kind: 'dbl', scale: 31, iscale: 0, prec: 22 });
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
      return dateTimeText(r, splitDay(r)[1] % US_PER_SECOND === 0 ? 0 : 6);
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

export function dateArithDays(date: Bound, n: Bound, sign: number, text: string): Bound {
  return shifted(date, n, 'DAY', sign, text, undefined);
}
