// The functions of the current time against the clock, and time_zone: NOW() is the statement's
// start (one value for every row of a statement), SYSDATE() the time it is evaluated, both in the
// session's time zone; UNIX_TIMESTAMP and FROM_UNIXTIME convert through it (a fixed offset or an
// IANA zone, daylight saving included). The values on fixed arguments are checked against MariaDB
// in mariadb-functions.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const db = Database.temporary();
const s: Session = new Session(db);
afterAll(() => db.close());

/** 'YYYY-MM-DD HH:MM:SS[.f]' as milliseconds of the same wall clock read as UTC. */
const wall = (t: string): number => Date.parse(`${t.replace(' ', 'T')}Z`);

describe('the current time', () => {
  it('NOW() and UTC_TIMESTAMP() are the clock in the session time zone', () => {
    s.query("SET time_zone = '+00:00'");
    const before = Date.now();
    const [[now, utc, cur, unix]] = s.query('SELECT NOW(3), UTC_TIMESTAMP(3), CURDATE(), UNIX_TIMESTAMP()')
      .rows as [[string, string, string, number]];
    const after = Date.now();
    expect(wall(now)).toBeGreaterThanOrEqual(before - 1);
    expect(wall(now)).toBeLessThanOrEqual(after);
    expect(now).toBe(utc);
    expect(cur).toBe(now.slice(0, 10));
    expect(unix).toBe(Math.floor(wall(now) / 1000));
    s.query("SET time_zone = '+05:30'");
    const [[there, utc2]] = s.query('SELECT NOW(), UTC_TIMESTAMP()').rows as [[string, string]];
    expect(wall(there) - wall(utc2)).toBe(5.5 * 3600 * 1000);
  });

  it('NOW() is one value for the whole statement, SYSDATE() moves', () => {
    s.query('CREATE TABLE many (id INT PRIMARY KEY)');
    s.query(`INSERT INTO many VALUES ${Array.from({ length: 2000 }, (_, i) => `(${i})`).join(',')}`);
    const r = s.query('SELECT COUNT(DISTINCT NOW(6)), MIN(SYSDATE(6)) <= MAX(SYSDATE(6)) FROM many').rows;
    expect(r).toEqual([[1, 1]]);
  });

  it('FROM_UNIXTIME and UNIX_TIMESTAMP convert through time_zone, daylight saving included', () => {
    s.query("SET time_zone = 'Europe/Paris'");
    expect(
      s.query("SELECT UNIX_TIMESTAMP('2024-07-01 12:00:00'), UNIX_TIMESTAMP('2024-01-01 12:00:00')").rows,
    ).toEqual([[1719828000, 1704106800]]);
    expect(s.query('SELECT FROM_UNIXTIME(1719828000), FROM_UNIXTIME(1704106800)').rows).toEqual([
      ['2024-07-01 12:00:00', '2024-01-01 12:00:00'],
    ]);
    s.query("SET time_zone = '-08:00'");
    expect(s.query('SELECT FROM_UNIXTIME(0), @@time_zone').rows).toEqual([['1969-12-31 16:00:00', '-08:00']]);
    expect(() => s.query("SET time_zone = 'Mars/Olympus'")).toThrow(
      /Unknown or incorrect time zone: 'Mars\/Olympus'/,
    );
    s.query('SET time_zone = DEFAULT');
    expect(s.query('SELECT @@time_zone').rows).toEqual([['SYSTEM']]);
  });

  it('a prepared statement reads the clock at each execution', async () => {
    const p = s.prepare('SELECT NOW(6)');
    const a = p.run().rows[0]![0] as string;
    await new Promise((r) => setTimeout(r, 5));
    const b = p.run().rows[0]![0] as string;
    expect(wall(b)).toBeGreaterThan(wall(a));
  });
});
