import { SqlError } from '../sql/errors.js';

/**
 * The session's `time_zone`: what NOW(), TIMESTAMP columns, UNIX_TIMESTAMP and FROM_UNIXTIME
 * convert between. `SYSTEM` is the process's own zone (`system_time_zone`), `±HH:MM` a fixed
 * offset (−12:59 … +13:59, as MySQL allows), and any other value an IANA zone name the runtime's
 * Intl knows (`Europe/Paris`; MariaDB takes names only once its time zone tables are loaded).
 */

const FIXED = /^([+-])(\d{1,2}):(\d{2})$/;
export const US_PER_MINUTE = 60_000_000;

/** The zone's offset from UTC, in minutes, at `utcMs` (milliseconds since the epoch). */
function offsetMinutes(zone: string, utcMs: number): number {
  const z = zone.toUpperCase();
  if (z === 'SYSTEM') return -new Date(utcMs).getTimezoneOffset();
  const m = FIXED.exec(zone);
  if (m !== null) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  const parts = formatter(zone).formatToParts(new Date(utcMs));
  const get = (t: string): number => Number(parts.find((p) => p.type === t)!.value);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour') % 24,
    get('minute'),
    get('second'),
  );
  return Math.round((local - Math.floor(utcMs / 1000) * 1000) / 60000);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Checks a `time_zone` value (error 1298 as MySQL for one it does not know); returns it as kept. */
export function checkTimeZone(zone: string): string {
  if (zone.toUpperCase() === 'SYSTEM') return 'SYSTEM';
  const m = FIXED.exec(zone);
  if (m !== null) {
    const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    if (Number(m[3]) < 60 && minutes >= -(12 * 60 + 59) && minutes <= 13 * 60 + 59) return zone;
  } else {
    try {
      formatter(zone);
      return zone;
    } catch {
      // an unknown name
    }
  }
  throw new SqlError('ER_UNKNOWN_TIME_ZONE', `Unknown or incorrect time zone: '${zone}'`);
}

/** UTC microseconds → the zone's wall-clock microseconds. */
export function toLocal(utcUs: number, zone: string): number {
  return utcUs + offsetMinutes(zone, Math.floor(utcUs / 1000)) * US_PER_MINUTE;
}

/**
 * The zone's wall-clock microseconds → UTC microseconds. A wall-clock time that a daylight-saving
 * change skips or repeats maps as MySQL maps it: to the offset in force just after the change.
 */
export function toUtc(localUs: number, zone: string): number {
  let guess = localUs - offsetMinutes(zone, Math.floor(localUs / 1000)) * US_PER_MINUTE;
  guess = localUs - offsetMinutes(zone, Math.floor(guess / 1000)) * US_PER_MINUTE;
  return guess;
}

/** The process's zone name (system_time_zone). */
export function systemZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}
