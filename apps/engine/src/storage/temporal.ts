/**
 * DATETIME, TIMESTAMP and TIME values as the engine computes with them, and their texts.
 *
 * | kind | runtime value | range |
 * |---|---|---|
 * | `datetime` (DATETIME, TIMESTAMP) | microseconds since 1970-01-01 00:00:00 of the wall clock (no time zone), a number while a safe integer, else a bigint | 1000-01-01 00:00:00 … 9999-12-31 23:59:59.999999 |
 * | `time` | signed microseconds | −838:59:59.999999 … 838:59:59.999999 |
 *
 * The calendar is the proleptic Gregorian one (as MySQL's). A DATE (days since 1970-01-01) is the
 * DATETIME of its midnight times 86,400,000,000.
 */

export const US_PER_SECOND = 1_000_000;
export const US_PER_DAY = 86_400_000_000;
const US_PER_DAY_N = 86_400_000_000n;
/** 838:59:59.999999, TIME's largest magnitude. */
export const TIME_MAX = 3_020_399_999_999;

export type Micros = number | bigint;

/** A value as a number when it is a safe integer, else a bigint. */
export function normMicros(v: bigint): Micros {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

export interface DateTimeParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly micro: number;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (no range checks). */
export function daysFromCivil(y: number, m: number, d: number): number {
  // Howard Hinnant's days_from_civil
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day number: [year, month, day]. */
export function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

export function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

/** [days since 1970-01-01, microseconds into the day] of a DATETIME value. */
export function splitDay(v: Micros): [number, number] {
  if (typeof v === 'number') {
    const day = Math.floor(v / US_PER_DAY);
    return [day, v - day * US_PER_DAY];
  }
  let day = v / US_PER_DAY_N;
  let rest = v - day * US_PER_DAY_N;
  if (rest < 0n) {
    day -= 1n;
    rest += US_PER_DAY_N;
  }
  return [Number(day), Number(rest)];
}

/** A DATETIME from a day number and the microseconds into it. */
export function joinDay(day: number, us: number): Micros {
  const v = day * US_PER_DAY + us;
  return Number.isSafeInteger(v) ? v : normMicros(BigInt(day) * US_PER_DAY_N + BigInt(us));
}

export function dateTimeParts(v: Micros): DateTimeParts {
  const [day, us] = splitDay(v);
  const [year, month, d] = civilFromDays(day);
  const secs = Math.floor(us / US_PER_SECOND);
  return {
    year,
    month,
    day: d,
    hour: Math.floor(secs / 3600),
    minute: Math.floor(secs / 60) % 60,
    second: secs % 60,
    micro: us - secs * US_PER_SECOND,
  };
}

/** A DATETIME from its fields, or null when a field is out of range (month 13, 31 June, 24:00). */
export function dateTimeFromParts(p: DateTimeParts): Micros | null {
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month)) return null;
  if (p.hour < 0 || p.hour > 23 || p.minute < 0 || p.minute > 59 || p.second < 0 || p.second > 59)
    return null;
  if (p.micro < 0 || p.micro > 999_999) return null;
  return joinDay(
    daysFromCivil(p.year, p.month, p.day),
    ((p.hour * 60 + p.minute) * 60 + p.second) * US_PER_SECOND + p.micro,
  );
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** The fraction `.ffffff` cut to `fsp` digits (none for 0). */
function fraction(micro: number, fsp: number): string {
  return fsp > 0 ? `.${pad(micro, 6).slice(0, fsp)}` : '';
}

/** 'YYYY-MM-DD HH:MM:SS[.f…]' with `fsp` fractional digits. */
export function dateTimeText(v: Micros, fsp: number): string {
  const p = dateTimeParts(v);
  return `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)} ${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}${fraction(p.micro, fsp)}`;
}

/** '[-]HH:MM:SS[.f…]' (hours may pass 24) with `fsp` fractional digits. */
export function timeText(v: number, fsp: number): string {
  const neg = v < 0;
  const a = Math.abs(v);
  const secs = Math.floor(a / US_PER_SECOND);
  const micro = a - secs * US_PER_SECOND;
  return `${neg ? '-' : ''}${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}${fraction(micro, fsp)}`;
}

/** Digits of a fraction as microseconds ('5' → 500000, '1234567' → 123456, rounding dropped). */
function microsOf(digits: string | undefined): number {
  if (digits === undefined || digits === '') return 0;
  return Number(digits.slice(0, 6).padEnd(6, '0'));
}

/** A two-digit year as MySQL reads it: 00–69 → 2000–2069, 70–99 → 1970–1999. */
function fullYear(text: string): number {
  const y = Number(text);
  if (text.length > 2) return y;
  return y < 70 ? 2000 + y : 1900 + y;
}

const DELIMITED =
  /^\s*(\d{2,4})[-/.:](\d{1,2})[-/.:](\d{1,2})(?:(?:[T ]|\s+)(\d{1,2})(?:[:.](\d{1,2})(?:[:.](\d{1,2})(?:\.(\d*))?)?)?)?\s*$/;
const COMPACT = /^\s*(\d{4}|\d{2})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})(?:\.(\d*))?)?\s*$/;

/**
 * A DATETIME from MySQL's texts: 'YYYY-MM-DD[ HH:MM[:SS[.f]]]' (any of `- / . :` between date
 * parts, `T` or spaces before the time, two-digit years), 'YYYYMMDD[HHMMSS[.f]]' and 'YYMMDD…';
 * null when it is not a valid date and time.
 */
export function parseDateTime(s: string): Micros | null {
  const m = DELIMITED.exec(s) ?? COMPACT.exec(s);
  if (m === null) return null;
  return dateTimeFromParts({
    year: fullYear(m[1]!),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    micro: microsOf(m[7]),
  });
}

/**
 * A TIME from MySQL's texts: '[-][D ]HH:MM[:SS[.f]]', '[-]HHMMSS[.f]', 'MMSS', 'SS' (a number's
 * digits counted from the right); null when a minute or second is past 59 or the value is out of
 * TIME's range.
 */
export function parseTime(s: string): number | null {
  const v = unboundedTime(s);
  return v === null || Math.abs(v) > TIME_MAX ? null : v;
}

/** A TIME text's signed microseconds, past the TIME range too; null when it is not one. */
function unboundedTime(s: string): number | null {
  let m = /^\s*(-)?(?:(\d+)\s+)?(\d+):(\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?\s*$/.exec(s);
  let neg: boolean;
  let h: number;
  let mi: number;
  let sec: number;
  let frac: string | undefined;
  if (m !== null) {
    neg = m[1] !== undefined;
    h = Number(m[2] ?? 0) * 24 + Number(m[3]);
    mi = Number(m[4]);
    sec = Number(m[5] ?? 0);
    frac = m[6];
  } else {
    m = /^\s*(-)?(\d+)(?:\.(\d*))?\s*$/.exec(s);
    if (m === null) return null;
    neg = m[1] !== undefined;
    const digits = m[2]!;
    const n = Number(digits);
    h = Math.floor(n / 10000);
    mi = Math.floor(n / 100) % 100;
    sec = n % 100;
    frac = m[3];
  }
  if (mi > 59 || sec > 59) return null;
  const v = ((h * 60 + mi) * 60 + sec) * US_PER_SECOND + microsOf(frac);
  return neg ? -v : v;
}

/**
 * A DATETIME's or TIME's number form as [integer part, microseconds]: YYYYMMDDHHMMSS, [-]HHMMSS
 * (the microseconds carry the sign of a negative TIME).
 */
export function temporalDigits(v: Micros, time: boolean): [number, number] {
  if (time) {
    const n = v as number;
    const a = Math.abs(n);
    const secs = Math.floor(a / US_PER_SECOND);
    const whole = Math.floor(secs / 3600) * 10000 + (Math.floor(secs / 60) % 60) * 100 + (secs % 60);
    const micro = a - secs * US_PER_SECOND;
    return n < 0 ? [-whole, -micro] : [whole, micro];
  }
  const p = dateTimeParts(v);
  return [
    ((((p.year * 100 + p.month) * 100 + p.day) * 100 + p.hour) * 100 + p.minute) * 100 + p.second,
    p.micro,
  ];
}

/**
 * A string as a TIME the way MySQL's TIME functions read one: as a TIME; else the time of day of a
 * date and time; else its leading number as [-]HHMMSS, which MySQL takes with warning 1292
 * (`truncated`). `v` is null when not even a number leads.
 */
export function parseTimeLoose(s: string): { v: number | null; truncated: boolean; invalid?: true } {
  const t = unboundedTime(s);
  // past ±838:59:59 a time is clamped to it, as MariaDB's (with the truncation warning)
  if (t !== null && Math.abs(t) > TIME_MAX) {
    const whole = TIME_MAX - (TIME_MAX % US_PER_SECOND);
    return { v: t < 0 ? -whole : whole, truncated: true };
  }
  if (t !== null) return { v: t, truncated: false };
  // a clock time with a field out of range ('10:70:00') is no time at all, not its leading number
  if (/^\s*-?(\d+\s+)?\d+:\d+(:\d+(\.\d*)?)?\s*$/.test(s))
    return { v: null, truncated: false, invalid: true };
  if (/\d[T ]\s*\d/.test(s.trim())) {
    const dt = parseDateTime(s);
    if (dt !== null) return { v: splitDay(dt)[1], truncated: false };
  }
  const m = /^\s*[+-]?\d+(?:\.\d*)?/.exec(s);
  if (m === null) return { v: null, truncated: true };
  return { v: parseTime(m[0]), truncated: true };
}

/** A DATETIME's number form YYYYMMDDHHMMSS (its fraction as a fraction of that number). */
export function dateTimeNumber(v: Micros): number {
  const [whole, micro] = temporalDigits(v, false);
  return micro === 0 ? whole : whole + micro / US_PER_SECOND;
}

/** A TIME's number form [-]HHMMSS[.ffffff]. */
export function timeNumber(v: number): number {
  const [whole, micro] = temporalDigits(v, true);
  return whole + micro / US_PER_SECOND;
}

/** A number YYYYMMDD[HHMMSS] (or YYMMDD…) as a DATETIME, as MySQL reads one; null if invalid. */
export function dateTimeFromNumber(n: number): Micros | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const whole = Math.floor(n);
  const micro = Math.round((n - whole) * US_PER_SECOND);
  let date = whole;
  let time = 0;
  if (whole >= 10_000_000_000) {
    date = Math.floor(whole / 1_000_000);
    time = whole % 1_000_000;
  }
  let y = Math.floor(date / 10000);
  if (date < 1_000_000) y = y < 70 ? 2000 + y : 1900 + y;
  return dateTimeFromParts({
    year: y,
    month: Math.floor(date / 100) % 100,
    day: date % 100,
    hour: Math.floor(time / 10000),
    minute: Math.floor(time / 100) % 100,
    second: time % 100,
    micro,
  });
}

/** A number [-]HHMMSS[.f] as a TIME; null if a field is out of range. */
export function timeFromNumber(n: number): number | null {
  if (!Number.isFinite(n)) return null;
  const neg = n < 0;
  const a = Math.abs(n);
  const whole = Math.floor(a);
  const h = Math.floor(whole / 10000);
  const mi = Math.floor(whole / 100) % 100;
  const s = whole % 100;
  if (mi > 59 || s > 59) return null;
  const v = ((h * 60 + mi) * 60 + s) * US_PER_SECOND + Math.round((a - whole) * US_PER_SECOND);
  if (v > TIME_MAX) return null;
  return neg ? -v : v;
}

/**
 * A value cut to `fsp` fractional digits, as MariaDB stores and converts one (it truncates where
 * MySQL rounds): a point in time (DATETIME micros, negative before 1970) down to the earlier
 * instant, a `duration` (TIME) towards zero.
 */
export function truncateMicros(v: Micros, fsp: number, duration = false): Micros {
  if (fsp >= 6) return v;
  const unit = 10 ** (6 - fsp);
  if (typeof v === 'number') {
    const q = duration ? Math.trunc(v / unit) : Math.floor(v / unit);
    const r = q * unit;
    // −0 (a negative duration cut to nothing) is 0
    return Number.isSafeInteger(r) ? r + 0 : normMicros(BigInt(q) * BigInt(unit));
  }
  const u = BigInt(unit);
  let q = v / u;
  if (!duration && v < 0n && q * u !== v) q -= 1n;
  return normMicros(q * u);
}

/** Adds microseconds to a DATETIME. */
export function addMicros(v: Micros, us: number | bigint): Micros {
  if (typeof v === 'number' && typeof us === 'number') {
    const r = v + us;
    if (Number.isSafeInteger(r)) return r;
  }
  return normMicros(BigInt(v) + BigInt(us));
}

/** The difference a − b of two DATETIMEs in microseconds. */
export function diffMicros(a: Micros, b: Micros): Micros {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (Number.isSafeInteger(r)) return r;
  }
  return normMicros(BigInt(a) - BigInt(b));
}

/** The first and last DATETIME MySQL stores. */
export const DATETIME_MIN: Micros = joinDay(daysFromCivil(1000, 1, 1), 0);
export const DATETIME_MAX: Micros = joinDay(daysFromCivil(9999, 12, 31), US_PER_DAY - 1);

/** Whether a DATETIME lies in 0001-01-01 … 9999-12-31 (what expressions may produce). */
export function inDateTimeRange(v: Micros): boolean {
  const day = splitDay(v)[0];
  return day >= daysFromCivil(1, 1, 1) && day <= daysFromCivil(9999, 12, 31);
}
