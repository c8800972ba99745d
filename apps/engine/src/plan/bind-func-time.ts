import { identText, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { rescale } from '../exec/decimal.js';
import { toDateTime, toText } from '../exec/convert.js';
import {
  civilFromDays,
  dateTimeFromParts,
  dateTimeText,
  dateTimeParts,
  daysFromCivil,
  daysInMonth,
  diffMicros,
  joinDay,
  type Micros,
  parseTimeLoose,
  truncateMicros,
  splitDay,
  TIME_MAX,
  US_PER_DAY,
  timeText,
  US_PER_SECOND,
} from '../storage/temporal.js';
import {
  calcWeek,
  DAY_NAMES,
  formatDate,
  formatKind,
  MONTH_NAMES,
  parseWithFormat,
  weekday,
  weekMode,
} from '../exec/time-format.js';
import { toLocal, toUtc } from '../exec/time-zone.js';
import { type SqlType, T_DATE, T_DBL, T_INT, T_STR, dateTimeType, decType, timeType } from '../exec/types.js';
import { type BindCtx, castEv, mk, arity } from './bind-expr.js';
import { dateField, dateTimeEv, fracDigits, shifted, timeEv } from './bind-date.js';
import type { Bound } from '../exec/bound.js';
import type { Ev } from '../exec/scope.js';

/**
 * MySQL's date and time functions beyond EXTRACT and INTERVAL arithmetic: the current time (NOW,
 * CURDATE, CURTIME, SYSDATE, UTC_*), formatting and parsing (DATE_FORMAT, TIME_FORMAT,
 * STR_TO_DATE), the Unix epoch (UNIX_TIMESTAMP, FROM_UNIXTIME), differences and sums
 * (TIMESTAMPDIFF, TIMESTAMPADD, DATEDIFF, TIMEDIFF, ADDTIME, SUBTIME), parts (DAYOFWEEK, WEEKDAY,
 * DAYOFYEAR, WEEK, YEARWEEK, DAYNAME, MONTHNAME, LAST_DAY, …) and conversions (TO_DAYS,
 * FROM_DAYS, MAKEDATE, MAKETIME, SEC_TO_TIME, TIME_TO_SEC, TIME, TIMESTAMP, CONVERT_TZ).
 * NOW() and its kin are the time the statement started, in the session's `time_zone`; SYSDATE()
 * is the time it is evaluated.
 */

/** A Bound read when it runs, never folded into a constant (the current time, a variable). */
function live(t: SqlType, ev: Ev, args: readonly Bound[], text: string): Bound {
  return {
    t,
    ev,
    refs: [...new Set(args.flatMap((a) => a.refs))].sort((a, b) => a - b),
    outer: args.some((a) => a.outer),
    agg: args.some((a) => a.agg),
    text,
  };
}

/** A constant fractional-seconds precision argument (0–6), as NOW(3) takes it. */
function fspOf(name: string, args: readonly Bound[]): number {
  if (args.length === 0) return 0;
  const a = args[0]!;
  const v = a.lit?.v;
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new SqlError('ER_PARSE_ERROR', `You have an error in your SQL syntax near '${a.text}'`);
  if (v > 6)
    throw new SqlError(
      'ER_TOO_BIG_PRECISION',
      `Too big precision ${v} specified for '${name}'. Maximum is 6.`,
    );
  return v;
}

/** `fn` over the non-NULL values of `evs` (NULL if any is NULL). */
function over(evs: readonly Ev[], fn: (xs: unknown[]) => unknown): Ev {
  return () => {
    const xs: unknown[] = [];
    for (const e of evs) {
      const x = e();
      if (x === null) return null;
      xs.push(x);
    }
    return fn(xs);
  };
}

const US_PER_MINUTE = 60 * US_PER_SECOND;
const US_PER_HOUR = 60 * US_PER_MINUTE;

/** TIMESTAMPDIFF's months between two DATETIMEs (MySQL's `calc_time_diff` rules), truncated. */
function monthsBetween(a: Micros, b: Micros): number {
  const neg = diffMicros(b, a) < 0;
  const [lo, hi] = neg ? [b, a] : [a, b];
  const p = dateTimeParts(lo);
  const q = dateTimeParts(hi);
  const secBeg = (p.hour * 60 + p.minute) * 60 + p.second;
  const secEnd = (q.hour * 60 + q.minute) * 60 + q.second;
  let years = q.year - p.year;
  if (q.month < p.month || (q.month === p.month && q.day < p.day)) years -= 1;
  let months = 12 * years;
  if (q.month < p.month || (q.month === p.month && q.day < p.day)) months += 12 - (p.month - q.month);
  else months += q.month - p.month;
  if (q.day < p.day) months -= 1;
  else if (q.day === p.day && (secEnd < secBeg || (secEnd === secBeg && q.micro < p.micro))) months -= 1;
  return neg ? -months : months;
}

/** A unit written as a bare word (TIMESTAMPDIFF(DAY, …)), read from the argument's node. */
function unitWord(raw: unknown): string {
  const [t, v] = tagOf(raw);
  if (t !== 'Identifier')
    throw new SqlError('ER_PARSE_ERROR', 'You have an error in your SQL syntax near the unit');
  const u = identText(v).toUpperCase();
  return u.startsWith('SQL_TSI_') ? u.slice(8) : u;
}

/**
 * A period (YYMM or YYYYMM, read as unsigned) as a count of months; a two-digit year below 70 is
 * 20YY, else 19YY. Zero and periods past 999999 count 0 months, as MariaDB's.
 */
function periodToMonth(p: number | bigint): number {
  const u = BigInt.asUintN(64, BigInt(p));
  if (u === 0n || u > 999999n) return 0;
  const period = Number(u);
  let year = Math.floor(period / 100);
  if (year < 70) year += 2000;
  else if (year < 100) year += 1900;
  return year * 12 + (period % 100) - 1;
}

/** A count of months as a YYYYMM period (0 stays 0). */
function monthToPeriod(months: number): number {
  if (months === 0) return 0;
  let year = Math.floor(months / 12);
  if (year < 100) year += year < 70 ? 2000 : 1900;
  return year * 100 + (months % 12) + 1;
}

export function timeFunction(
  name: string,
  args: Bound[],
  rawExprs: readonly unknown[],
  ctx: BindCtx,
  text: string,
  n: unknown,
): Bound | undefined {
  const s = ctx.env.session;
  const warnBad = (kind: string, v: unknown): void =>
    ctx.env.warn(1292, `Incorrect ${kind} value: '${String(v)}'`);
  switch (name) {
    case 'now':
    case 'current_timestamp':
    case 'localtime':
    case 'localtimestamp':
    case 'sysdate':
    case 'utc_timestamp': {
      arity(name, args, 0, 1);
      const fsp = fspOf(name, args);
      const utc = name === 'utc_timestamp';
      const wall = name === 'sysdate';
      return live(
        dateTimeType(fsp),
        () => {
          const at = wall ? Math.round((performance.timeOrigin + performance.now()) * 1000) : s.statementTime;
          return roundDown(utc ? at : toLocal(at, s.timeZone), fsp);
        },
        [],
        text,
      );
    }
    case 'curdate':
    case 'current_date':
    case 'utc_date':
      arity(name, args, 0);
      return live(
        T_DATE,
        () => splitDay(name === 'utc_date' ? s.statementTime : toLocal(s.statementTime, s.timeZone))[0],
        [],
        text,
      );
    case 'curtime':
    case 'current_time':
    case 'utc_time': {
      arity(name, args, 0, 1);
      const fsp = fspOf(name, args);
      return live(
        timeType(fsp),
        () =>
          roundDown(
            splitDay(name === 'utc_time' ? s.statementTime : toLocal(s.statementTime, s.timeZone))[1],
            fsp,
          ),
        [],
        text,
      );
    }
    case 'date_format':
    case 'time_format': {
      arity(name, args, 2);
      const fmt = castEv(args[1]!, T_STR);
      if (name === 'time_format') {
        const tv = timeEv(args[0]!);
        return mk(
          T_STR,
          over([tv, fmt], ([t, f]) => {
            const us = Math.abs(t as number);
            const secs = Math.floor(us / US_PER_SECOND);
            const p = {
              year: 0,
              month: 0,
              day: 0,
              hour: Math.floor(secs / 3600) % 24,
              minute: Math.floor(secs / 60) % 60,
              second: secs % 60,
              micro: us % US_PER_SECOND,
            };
            return ((t as number) < 0 ? '-' : '') + formatDate(p, f as string, Math.floor(secs / 3600));
          }),
          args,
          text,
        );
      }
      const dv = dateTimeEv(args[0]!);
      return mk(
        T_STR,
        over([dv, fmt], ([v, f]) => formatDate(dateTimeParts(v as Micros), f as string)),
        args,
        text,
      );
    }
    case 'str_to_date': {
      arity(name, args, 2);
      const fmtLit = args[1]!.lit?.v;
      const kind = typeof fmtLit === 'string' ? formatKind(fmtLit) : 'datetime';
      const fsp = typeof fmtLit === 'string' && !fmtLit.includes('%f') ? 0 : 6;
      const t = kind === 'date' ? T_DATE : kind === 'time' ? timeType(fsp) : dateTimeType(fsp);
      const sv = castEv(args[0]!, T_STR);
      const fv = castEv(args[1]!, T_STR);
      return mk(
        t,
        () => {
          const str = sv();
          const f = fv();
          if (str === null || f === null) return null;
          const p = parseWithFormat(str as string, f as string);
          if (p !== null && kind === 'time') {
            const us = ((p.hour * 60 + p.minute) * 60 + p.second) * US_PER_SECOND + p.micro;
            if (p.minute < 60 && p.second < 60 && us <= TIME_MAX) return us;
          } else if (p !== null) {
            const v = dateTimeFromParts(p);
            if (v !== null) return kind === 'date' ? splitDay(v)[0] : v;
          }
          ctx.env.warn(1411, `Incorrect datetime value: '${String(str)}' for function str_to_date`);
          return null;
        },
        args,
        text,
      );
    }
    case 'unix_timestamp': {
      arity(name, args, 0, 1);
      if (args.length === 0) return live(T_INT, () => Math.floor(s.statementTime / US_PER_SECOND), [], text);
      const a = args[0]!;
      const fsp = a.t.kind === 'date' ? 0 : fracDigits(a);
      const t = fsp === 0 ? T_INT : decType(14 + fsp, fsp);
      const dv = dateTimeEv(a);
      return live(
        t,
        () => {
          const v = dv() as Micros | null;
          if (v === null) return null;
          const utc = toUtc(Number(v), s.timeZone);
          if (utc < 0) return 0;
          const whole = Math.floor(utc / US_PER_SECOND);
          if (fsp === 0) return whole;
          return rescale(BigInt(utc), 6, fsp);
        },
        [a],
        text,
      );
    }
    case 'from_unixtime': {
      arity(name, args, 1, 2);
      const a = args[0]!;
      const fsp = a.t.kind === 'int' ? 0 : a.t.kind === 'dec' ? Math.min(a.t.scale, 6) : 6;
      const nv = castEv(a, T_DBL);
      const toDt = (): Micros | null => {
        const x = nv() as number | null;
        // FROM_UNIXTIME's range: 1970-01-01 … 3001-01-18 (MariaDB's on 64-bit systems)
        if (x === null || x < 0 || x >= 32536771200) return null;
        return truncateMicros(toLocal(Math.round(x * US_PER_SECOND), s.timeZone), fsp);
      };
      if (args.length === 1) return live(dateTimeType(fsp), toDt, [a], text);
      const fv = castEv(args[1]!, T_STR);
      return live(
        T_STR,
        () => {
          const v = toDt();
          const f = fv();
          return v === null || f === null ? null : formatDate(dateTimeParts(v), f as string);
        },
        args,
        text,
      );
    }
    case 'timestampdiff': {
      arity(name, args, 3);
      const unit = unitWord(rawExprs[0]);
      const a = dateTimeEv(args[1]!);
      const b = dateTimeEv(args[2]!);
      const per: Record<string, number> = {
        MICROSECOND: 1,
        SECOND: US_PER_SECOND,
        MINUTE: US_PER_MINUTE,
        HOUR: US_PER_HOUR,
        DAY: US_PER_DAY,
        WEEK: 7 * US_PER_DAY,
      };
      const months: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };
      if (per[unit] === undefined && months[unit] === undefined)
        throw new SqlError('ER_PARSE_ERROR', `You have an error in your SQL syntax near '${unit}'`);
      return mk(
        T_INT,
        over([a, b], ([x, y]) => {
          if (months[unit] !== undefined)
            return Math.trunc(monthsBetween(x as Micros, y as Micros) / months[unit]!);
          const d = diffMicros(y as Micros, x as Micros);
          return typeof d === 'number' ? Math.trunc(d / per[unit]!) : Number(d / BigInt(per[unit]!));
        }),
        args.slice(1),
        text,
      );
    }
    case 'timestampadd': {
      arity(name, args, 3);
      return shifted(args[2]!, args[1]!, unitWord(rawExprs[0]), 1, text, n);
    }
    case 'datediff': {
      arity(name, args, 2);
      const a = castEv(args[0]!, T_DATE);
      const b = castEv(args[1]!, T_DATE);
      return mk(
        T_INT,
        over([a, b], ([x, y]) => (x as number) - (y as number)),
        args,
        text,
      );
    }
    case 'period_add':
    case 'period_diff': {
      arity(name, args, 2);
      const [a, b] = args.map((x) => castEv(x, T_INT));
      return mk(
        T_INT,
        () => {
          const x = a!();
          const y = b!();
          if (x === null || y === null) return null;
          if (name === 'period_diff')
            return periodToMonth(x as number | bigint) - periodToMonth(y as number | bigint);
          if (BigInt(x as number | bigint) === 0n) return 0;
          // as MySQL: the month count and N as 32-bit ints, their sum as an unsigned one
          const n = Number(BigInt.asIntN(32, BigInt(y as number | bigint)));
          return monthToPeriod(((periodToMonth(x as number | bigint) | 0) + n) >>> 0);
        },
        args,
        text,
      );
    }
    case 'dayofweek':
    case 'weekday':
    case 'dayofyear':
    case 'dayname':
    case 'monthname':
    case 'last_day':
    case 'to_days':
    case 'to_seconds':
    case 'weekofyear':
    case 'week':
    case 'yearweek': {
      arity(name, args, 1, name === 'week' || name === 'yearweek' ? 2 : 1);
      const dv = dateTimeEv(args[0]!);
      const mode = args[1] === undefined ? () => 0 : castEv(args[1], T_INT);
      const t = name === 'dayname' || name === 'monthname' ? T_STR : name === 'last_day' ? T_DATE : T_INT;
      return mk(
        t,
        () => {
          const raw = args[0]!.ev();
          const v = dv() as Micros | null;
          if (v === null) {
            if (raw !== null) warnBad('datetime', raw);
            return null;
          }
          const [day, us] = splitDay(v);
          const [y, m, d] = civilFromDays(day);
          switch (name) {
            case 'dayofweek':
              return weekday(day, true) + 1;
            case 'weekday':
              return weekday(day, false);
            case 'dayofyear':
              return day - daysFromCivil(y, 1, 1) + 1;
            case 'dayname':
              return DAY_NAMES[weekday(day, false)]!;
            case 'monthname':
              return MONTH_NAMES[m - 1]!;
            case 'last_day':
              return daysFromCivil(y, m, daysInMonth(y, m));
            case 'to_days':
              return day + 719528;
            case 'to_seconds':
              // whole seconds since year 0's day 0, the fraction dropped
              return (day + 719528) * 86400 + Math.floor(us / 1e6);
            case 'weekofyear':
              return calcWeek(y, m, d, weekMode(3))[0];
            case 'week':
              return calcWeek(y, m, d, weekMode(Number(mode() ?? 0)))[0];
            default: {
              // YEARWEEK: the year the week belongs to, always counted (WEEK_YEAR)
              const [w, wy] = calcWeek(y, m, d, weekMode(Number(mode() ?? 0)) | 2);
              return wy * 100 + w;
            }
          }
        },
        args,
        text,
      );
    }
    case 'hour':
    case 'minute':
    case 'second':
    case 'microsecond':
    case 'quarter':
      arity(name, args, 1);
      return dateField(name.toUpperCase(), args[0]!, text, n, (c, m) => ctx.env.warn(c, m));
    case 'from_days':
    case 'makedate': {
      arity(name, args, name === 'makedate' ? 2 : 1);
      const evs = args.map((a) => castEv(a, T_INT));
      return mk(
        T_DATE,
        over(evs, (xs) => {
          if (name === 'from_days') {
            const k = Number(xs[0]) - 719528;
            return k < -719162 || k > 2932896 ? null : k;
          }
          const y = Number(xs[0]);
          const yd = Number(xs[1]);
          if (yd <= 0 || y < 0 || y > 9999) return null;
          const yy = y < 70 ? 2000 + y : y < 100 ? 1900 + y : y;
          const k = daysFromCivil(yy, 1, 1) + yd - 1;
          return civilFromDays(k)[0] > 9999 ? null : k;
        }),
        args,
        text,
      );
    }
    case 'maketime':
    case 'sec_to_time': {
      arity(name, args, name === 'maketime' ? 3 : 1);
      // the fraction of the seconds given (SEC_TO_TIME's one argument, MAKETIME's third)
      const secs = args[name === 'sec_to_time' ? 0 : 2]!;
      const fsp = secs.t.kind === 'dec' ? Math.min(secs.t.scale, 6) : 0;
      const evs = args.map((a) => castEv(a, T_DBL));
      // MAKETIME's DECIMAL seconds to the microsecond, digits past the sixth cut (59.9999999 is
      // 59.999999), from their text: a double would round them up to the next second
      const secText = name === 'maketime' && secs.t.kind === 'dec' ? castEv(secs, T_STR) : undefined;
      return mk(
        timeType(fsp),
        over(evs, (xs) => {
          let us: number;
          if (name === 'sec_to_time') us = Math.round((xs[0] as number) * US_PER_SECOND);
          else {
            const [h, mi, sec] = xs as number[];
            if (mi! < 0 || mi! > 59 || sec! < 0 || sec! >= 60) return null;
            let secUs = Math.round(sec! * US_PER_SECOND);
            if (secText !== undefined) {
              const [whole, frac = ''] = (secText() as string).split('.');
              secUs = Number(whole) * US_PER_SECOND + Number(frac.slice(0, 6).padEnd(6, '0'));
            }
            us =
              Math.sign(h!) * (Math.abs(Math.trunc(h!)) * US_PER_HOUR) +
              (h! < 0 ? -1 : 1) * (mi! * US_PER_MINUTE + secUs);
          }
          // out of TIME's range: the nearest end, as MySQL (with a warning)
          if (Math.abs(us) > TIME_MAX) {
            ctx.env.warn(1292, `Truncated incorrect time value: '${String(xs[0])}'`);
            us = Math.sign(us) * (TIME_MAX - (TIME_MAX % US_PER_SECOND));
          }
          return us;
        }),
        args,
        text,
      );
    }
    case 'time_to_sec': {
      arity(name, args, 1);
      const tv = timeEv(args[0]!);
      const fsp = args[0]!.t.kind === 'time' ? args[0]!.t.scale : 0;
      return mk(
        fsp === 0 ? T_INT : decType(12 + fsp, fsp),
        over([tv], ([t]) => {
          const us = t as number;
          return fsp === 0 ? Math.trunc(us / US_PER_SECOND) : rescale(BigInt(us), 6, fsp);
        }),
        args,
        text,
      );
    }
    case 'time': {
      arity(name, args, 1);
      const a = args[0]!;
      const fsp = fracDigits(a);
      const tv = timeEv(a, (c, m) => ctx.env.warn(c, m));
      return mk(
        timeType(fsp),
        over([tv], ([v]) => truncateMicros(v as number, fsp, true)),
        args,
        text,
      );
    }
    case 'timestamp': {
      arity(name, args, 1, 2);
      const a = args[0]!;
      const fsp = Math.max(
        a.t.kind === 'date' ? 0 : fracDigits(a),
        args[1] === undefined ? 0 : fracDigits(args[1]),
      );
      const dv = dateTimeEv(a);
      const tv = args[1] === undefined ? () => 0 : timeEv(args[1]);
      return mk(
        dateTimeType(fsp),
        over([dv, tv], ([v, t]) => truncateMicros(joinDay(...addDay(v as Micros, t as number)), fsp)),
        args,
        text,
      );
    }
    case 'addtime':
    case 'subtime':
    case 'timediff': {
      arity(name, args, 2);
      const [a, b] = args as [Bound, Bound];
      const sign = name === 'subtime' ? -1 : 1;
      const fsp = Math.max(fracDigits(a), fracDigits(b));
      // each argument is a DATETIME or a TIME by its type, or (a string) by its text
      const read = (x: Bound): Ev => {
        const ev = x.ev;
        const k = x.t.kind;
        return () => {
          const v = ev();
          if (v === null) return null;
          if (k === 'datetime') return { dt: v as Micros };
          if (k === 'time') return { t: v as number };
          if (k === 'date') return { dt: joinDay(v as number, 0) };
          const str = k === 'dec' ? (toText(v, k, x.t) as string) : String(v);
          const t = parseTimeLoose(str);
          if (!t.truncated && t.v !== null && !/\d-\d/.test(str)) return { t: t.v };
          const dt = toDateTime(v, k, 6, 0, x.t);
          return dt === null ? null : { dt };
        };
      };
      const x = read(a);
      const y = read(b);
      const clamp = (us: number): number =>
        Math.abs(us) > TIME_MAX ? Math.sign(us) * (TIME_MAX - (TIME_MAX % US_PER_SECOND)) : us;
      if (name === 'timediff')
        return mk(
          timeType(fsp),
          over([x, y], ([p, q]) => {
            const pp = p as { dt?: Micros; t?: number };
            const qq = q as { dt?: Micros; t?: number };
            // a date and time with a time alone has no difference
            if ((pp.dt === undefined) !== (qq.dt === undefined)) return null;
            return clamp(Number(diffMicros(pp.dt ?? pp.t!, qq.dt ?? qq.t!)));
          }),
          args,
          text,
        );
      const result: SqlType =
        a.t.kind === 'datetime' || a.t.kind === 'date'
          ? dateTimeType(fsp)
          : a.t.kind === 'time'
            ? timeType(fsp)
            : T_STR;
      return mk(
        result,
        over([x, y], ([p, q]) => {
          const pp = p as { dt?: Micros; t?: number };
          const qq = q as { dt?: Micros; t?: number };
          // the second argument must be a TIME
          if (qq.t === undefined) return null;
          // text (string arguments) shows six fractional digits when there is a fraction
          const auto = (us: number): number => (us % US_PER_SECOND === 0 ? 0 : 6);
          if (pp.dt !== undefined) {
            const r = joinDay(...addDay(pp.dt, sign * qq.t));
            return result.kind === 'str' ? dateTimeText(r, auto(splitDay(r)[1])) : r;
          }
          const r = pp.t! + sign * qq.t;
          if (Math.abs(r) > TIME_MAX) return null;
          return result.kind === 'str' ? timeText(r, auto(r)) : result.kind === 'datetime' ? null : r;
        }),
        args,
        text,
      );
    }
    case 'convert_tz': {
      arity(name, args, 3);
      const dv = dateTimeEv(args[0]!);
      const fv = castEv(args[1]!, T_STR);
      const tv = castEv(args[2]!, T_STR);
      const fsp = fracDigits(args[0]!);
      return mk(
        dateTimeType(fsp),
        over([dv, fv, tv], ([v, f, t]) => {
          try {
            return toLocal(toUtc(Number(v), f as string), t as string);
          } catch {
            return null;
          }
        }),
        args,
        text,
      );
    }
    default:
      return undefined;
  }
}

/** A DATETIME plus a signed number of microseconds, as [day, microseconds into it]. */
function addDay(v: Micros, us: number): [number, number] {
  const [day, t] = splitDay(v);
  const total = t + us;
  const extra = Math.floor(total / US_PER_DAY);
  return [day + extra, total - extra * US_PER_DAY];
}

/** A time truncated (not rounded) to `fsp` digits, as NOW(fsp) cuts the clock. */
function roundDown(us: number, fsp: number): number {
  const unit = 10 ** (6 - fsp);
  return Math.floor(us / unit) * unit;
}
