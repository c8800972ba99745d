import {
  civilFromDays,
  type DateTimeParts,
  daysFromCivil,
  isLeap,
  type Micros,
  dateTimeParts,
} from '../storage/temporal.js';

/**
 * MySQL's date formats: DATE_FORMAT / TIME_FORMAT's `%` specifiers, STR_TO_DATE's parsing by the
 * same specifiers, and the week numbers of WEEK(), YEARWEEK() and `%U %u %V %v %X %x`
 * (sql/sql_time.cc `calc_week`, `calc_weekday`; the modes of WEEK() as its manual lists them).
 */

export const DAY_NAMES: readonly string[] = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];
export const MONTH_NAMES: readonly string[] = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** MySQL's day number (days since year 0) of a day since 1970-01-01. */
const MYSQL_DAYNR_1970 = 719528;

/** 0 = Monday … 6 = Sunday, or with `sundayFirst` 0 = Sunday … 6 = Saturday (`calc_weekday`). */
export function weekday(days: number, sundayFirst: boolean): number {
  const x = (days + MYSQL_DAYNR_1970 + 5 + (sundayFirst ? 1 : 0)) % 7;
  return x < 0 ? x + 7 : x;
}

const WEEK_MONDAY_FIRST = 1;
const WEEK_YEAR = 2;
const WEEK_FIRST_WEEKDAY = 4;

/** WEEK()'s mode 0–7 as `calc_week`'s behaviour bits (`week_mode`). */
export function weekMode(mode: number): number {
  let f = mode & 7;
  if ((f & WEEK_MONDAY_FIRST) === 0) f ^= WEEK_FIRST_WEEKDAY;
  return f;
}

/** [week, year it belongs to] of a date under `calc_week`'s behaviour bits. */
export function calcWeek(y: number, m: number, d: number, behaviour: number): [number, number] {
  const daynr = daysFromCivil(y, m, d);
  let firstDaynr = daysFromCivil(y, 1, 1);
  const mondayFirst = (behaviour & WEEK_MONDAY_FIRST) !== 0;
  let weekYear = (behaviour & WEEK_YEAR) !== 0;
  const firstWeekday = (behaviour & WEEK_FIRST_WEEKDAY) !== 0;
  let wd = weekday(firstDaynr, !mondayFirst);
  let year = y;
  if (m === 1 && d <= 7 - wd) {
    if (!weekYear && ((firstWeekday && wd !== 0) || (!firstWeekday && wd >= 4))) return [0, year];
    weekYear = true;
    year--;
    const days = isLeap(year) ? 366 : 365;
    firstDaynr -= days;
    wd = (wd + 53 * 7 - days) % 7;
  }
  let days: number;
  if ((firstWeekday && wd !== 0) || (!firstWeekday && wd >= 4)) days = daynr - (firstDaynr + (7 - wd));
  else days = daynr - (firstDaynr - wd);
  if (weekYear && days >= 52 * 7) {
    const w2 = (wd + (isLeap(year) ? 366 : 365)) % 7;
    if ((!firstWeekday && w2 < 4) || (firstWeekday && w2 === 0)) return [1, year + 1];
  }
  return [Math.floor(days / 7) + 1, year];
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function ordinal(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/**
 * DATE_FORMAT(v, format) of a DATETIME value (a DATE is its midnight); for TIME_FORMAT `hours` is
 * the whole TIME's hours (which may pass 23) and the date specifiers give zeros.
 */
export function formatDate(p: DateTimeParts, format: string, hours: number = p.hour): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%' || i + 1 === format.length) {
      out += c;
      continue;
    }
    const f = format[++i]!;
    const days = p.year === 0 ? 0 : daysFromCivil(p.year, p.month, p.day);
    const h12 = hours % 12 === 0 ? 12 : hours % 12;
    switch (f) {
      case 'a':
        out += DAY_NAMES[weekday(days, false)]!.slice(0, 3);
        break;
      case 'b':
        out += p.month === 0 ? '' : MONTH_NAMES[p.month - 1]!.slice(0, 3);
        break;
      case 'c':
        out += String(p.month);
        break;
      case 'D':
        out += ordinal(p.day);
        break;
      case 'd':
        out += pad(p.day, 2);
        break;
      case 'e':
        out += String(p.day);
        break;
      case 'f':
        out += pad(p.micro, 6);
        break;
      case 'H':
        out += pad(hours, 2);
        break;
      case 'h':
      case 'I':
        out += pad(h12, 2);
        break;
      case 'i':
        out += pad(p.minute, 2);
        break;
      case 'j':
        out += pad(days - daysFromCivil(p.year, 1, 1) + 1, 3);
        break;
      case 'k':
        out += String(hours);
        break;
      case 'l':
        out += String(h12);
        break;
      case 'M':
        out += p.month === 0 ? '' : MONTH_NAMES[p.month - 1]!;
        break;
      case 'm':
        out += pad(p.month, 2);
        break;
      case 'p':
        out += hours % 24 < 12 ? 'AM' : 'PM';
        break;
      case 'r':
        out += `${pad(h12, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)} ${hours % 24 < 12 ? 'AM' : 'PM'}`;
        break;
      case 'S':
      case 's':
        out += pad(p.second, 2);
        break;
      case 'T':
        out += `${pad(hours, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}`;
        break;
      case 'U':
        out += pad(calcWeek(p.year, p.month, p.day, WEEK_FIRST_WEEKDAY)[0], 2);
        break;
      case 'u':
        out += pad(calcWeek(p.year, p.month, p.day, WEEK_MONDAY_FIRST)[0], 2);
        break;
      case 'V':
        out += pad(calcWeek(p.year, p.month, p.day, WEEK_YEAR | WEEK_FIRST_WEEKDAY)[0], 2);
        break;
      case 'v':
        out += pad(calcWeek(p.year, p.month, p.day, WEEK_YEAR | WEEK_MONDAY_FIRST)[0], 2);
        break;
      case 'W':
        out += DAY_NAMES[weekday(days, false)]!;
        break;
      case 'w':
        out += String(weekday(days, true));
        break;
      case 'X':
        out += pad(calcWeek(p.year, p.month, p.day, WEEK_YEAR | WEEK_FIRST_WEEKDAY)[1], 4);
        break;
      case 'x':
        out += pad(calcWeek(p.year, p.month, p.day, WEEK_YEAR | WEEK_MONDAY_FIRST)[1], 4);
        break;
      case 'Y':
        out += pad(p.year, 4);
        break;
      case 'y':
        out += pad(p.year % 100, 2);
        break;
      default:
        // %% and any other character: the character itself
        out += f;
    }
  }
  return out;
}

/** DATE_FORMAT of a DATETIME value. */
export function formatDateTime(v: Micros, format: string): string {
  return formatDate(dateTimeParts(v), format);
}

/** What STR_TO_DATE's format asks for: a date, a time, or both. */
export function formatKind(format: string): 'date' | 'time' | 'datetime' {
  let date = false;
  let time = false;
  for (let i = 0; i + 1 < format.length; i++) {
    if (format[i] !== '%') continue;
    const f = format[++i]!;
    if ('aDbcdejMmUuVvWwXxYy'.includes(f)) date = true;
    else if ('fHhIiklprSsT'.includes(f)) time = true;
  }
  return date && time ? 'datetime' : time ? 'time' : 'date';
}

/**
 * STR_TO_DATE(text, format): the fields the format reads (missing ones are 0, as MySQL's), or null
 * when the text does not match. Literal characters must match; `%` specifiers read numbers
 * (at most their width) or names.
 */
export function parseWithFormat(text: string, format: string): DateTimeParts | null {
  let i = 0;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micro = 0;
  let pm: boolean | undefined;
  let yday = -1;
  const num = (max: number): number | null => {
    // numbers may be preceded by spaces, as MySQL's extract_date_time skips them
    while (i < text.length && text[i] === ' ') i++;
    let j = i;
    while (j < text.length && j - i < max && text[j]! >= '0' && text[j]! <= '9') j++;
    if (j === i) return null;
    const n = Number(text.slice(i, j));
    i = j;
    return n;
  };
  const name = (names: readonly string[], short: boolean): number | null => {
    const rest = text.slice(i).toLowerCase();
    for (let k = 0; k < names.length; k++) {
      const n = (short ? names[k]!.slice(0, 3) : names[k]!).toLowerCase();
      if (rest.startsWith(n)) {
        i += n.length;
        return k;
      }
    }
    return null;
  };
  for (let f = 0; f < format.length; f++) {
    const c = format[f]!;
    if (c !== '%' || f + 1 === format.length) {
      // whitespace in either matches any run of whitespace
      if (/\s/.test(c)) {
        while (i < text.length && /\s/.test(text[i]!)) i++;
        continue;
      }
      if (text[i] !== c) return null;
      i++;
      continue;
    }
    const s = format[++f]!;
    let v: number | null;
    switch (s) {
      case 'Y':
        v = num(4);
        if (v === null) return null;
        year = v < 100 && i <= 2 ? (v < 70 ? 2000 + v : 1900 + v) : v;
        break;
      case 'y':
        v = num(2);
        if (v === null) return null;
        year = v < 70 ? 2000 + v : 1900 + v;
        break;
      case 'm':
      case 'c':
        v = num(2);
        if (v === null) return null;
        month = v;
        break;
      case 'M':
      case 'b':
        v = name(MONTH_NAMES, s === 'b');
        if (v === null) return null;
        month = v + 1;
        break;
      case 'd':
      case 'e':
        v = num(2);
        if (v === null) return null;
        day = v;
        break;
      case 'D':
        v = num(2);
        if (v === null) return null;
        day = v;
        i += Math.min(2, Math.max(0, text.length - i));
        break;
      case 'j':
        v = num(3);
        if (v === null) return null;
        yday = v;
        break;
      case 'H':
      case 'k':
      case 'h':
      case 'I':
      case 'l':
        v = num(2);
        if (v === null) return null;
        hour = v;
        break;
      case 'i':
        v = num(2);
        if (v === null) return null;
        minute = v;
        break;
      case 'S':
      case 's':
        v = num(2);
        if (v === null) return null;
        second = v;
        break;
      case 'f': {
        const j = i;
        v = num(6);
        if (v === null) return null;
        micro = v * 10 ** (6 - (i - j));
        break;
      }
      case 'p': {
        const t = text.slice(i, i + 2).toUpperCase();
        if (t !== 'AM' && t !== 'PM') return null;
        pm = t === 'PM';
        i += 2;
        break;
      }
      case 'T':
      case 'r': {
        const parts: number[] = [];
        for (let k = 0; k < 3; k++) {
          if (k > 0) {
            if (text[i] !== ':') return null;
            i++;
          }
          v = num(2);
          if (v === null) return null;
          parts.push(v);
        }
        [hour, minute, second] = parts as [number, number, number];
        if (s === 'r') {
          while (text[i] === ' ') i++;
          const t = text.slice(i, i + 2).toUpperCase();
          if (t === 'AM' || t === 'PM') {
            pm = t === 'PM';
            i += 2;
          }
        }
        break;
      }
      case 'W':
      case 'a':
        if (name(DAY_NAMES, s === 'a') === null) return null;
        break;
      case 'w':
      case 'U':
      case 'u':
      case 'V':
      case 'v':
      case 'X':
      case 'x':
        if (num(s === 'X' || s === 'x' ? 4 : 2) === null) return null;
        break;
      default:
        if (text[i] !== s) return null;
        i++;
    }
  }
  if (pm !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (yday >= 0) {
    if (yday < 1 || yday > (isLeap(year) ? 366 : 365)) return null;
    const [, mo, d] = civilFromDays(daysFromCivil(year, 1, 1) + yday - 1);
    month = mo;
    day = d;
  }
  return { year, month, day, hour, minute, second, micro };
}
