// String functions on long inputs: REPEAT, SPACE, CONCAT, CONCAT_WS, INSERT, REPLACE, LPAD and
// RPAD past max_allowed_packet are NULL with warning 1301 (MySQL's
// ER_WARN_ALLOWED_PACKET_OVERFLOWED) instead of building a string a row may not carry (or
// JavaScript could not hold); REPLACE with an empty search string leaves the text.
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

const db = Database.temporary();
afterAll(() => db.close());

describe('long strings', () => {
  it('REPEAT and SPACE past max_allowed_packet: NULL and warning 1301; up to it: the string', () => {
    const s = new Session(db);
    const r = s.query(
      `SELECT REPEAT('ab', 10000000000) AS r, SPACE(20000000) AS sp, LENGTH(REPEAT('a', 16777216)) AS l`,
    );
    expect(r.rows).toEqual([[null, null, 16777216]]);
    expect(s.query('SHOW WARNINGS').rows).toEqual([
      ['Warning', 1301, 'Result of repeat() was larger than max_allowed_packet (16777216) - truncated'],
      ['Warning', 1301, 'Result of space() was larger than max_allowed_packet (16777216) - truncated'],
    ]);
    s.query('SET GLOBAL max_allowed_packet = 1048576');
    try {
      const t = new Session(db);
      expect(t.query(`SELECT REPEAT('a', 1048577) IS NULL, LENGTH(REPEAT('a', 1048576))`).rows).toEqual([
        [1, 1048576],
      ]);
    } finally {
      s.query('SET GLOBAL max_allowed_packet = DEFAULT');
    }
  });

  it('CONCAT, CONCAT_WS, INSERT, REPLACE, LPAD and RPAD past max_allowed_packet: NULL and warning 1301, as MariaDB', () => {
    // Recorded from MariaDB 10.11 (max_allowed_packet 16777216, SET NAMES utf8mb4) with
    // `mariadb -e "<statement>; SHOW WARNINGS"`: each result past 16777216 bytes is NULL with
    // "Result of <f>() was larger than max_allowed_packet (16777216) - truncated"; exactly
    // 16777216 bytes is the string. LPAD and RPAD bound the count times 4 (utf8mb4's longest
    // character) before building: LPAD('', 4194304, 'b') is the string, 4194305 is NULL.
    const recorded: Array<[string, number | null, string | undefined]> = [
      ["LENGTH(CONCAT(REPEAT('a', 8388608), REPEAT('b', 8388608)))", 16777216, undefined],
      ["LENGTH(CONCAT(REPEAT('a', 8388608), REPEAT('b', 8388609)))", null, 'concat'],
      ["LENGTH(CONCAT_WS(',', REPEAT('a', 8388608), REPEAT('b', 8388607)))", 16777216, undefined],
      ["LENGTH(CONCAT_WS(',', REPEAT('a', 8388608), REPEAT('b', 8388608)))", null, 'concat_ws'],
      ["LENGTH(INSERT('abc', 2, 1, REPEAT('c', 16777214)))", 16777216, undefined],
      ["LENGTH(INSERT('abc', 2, 1, REPEAT('c', 16777215)))", null, 'insert'],
      ["LENGTH(REPLACE('aa', 'a', REPEAT('b', 8388608)))", 16777216, undefined],
      ["LENGTH(REPLACE('aa', 'a', REPEAT('b', 8388609)))", null, 'replace'],
      ["LENGTH(LPAD('', 4194304, 'b'))", 4194304, undefined],
      ["LENGTH(LPAD('', 4194305, 'b'))", null, 'lpad'],
      ["LENGTH(RPAD('x', 4194305, 'b'))", null, 'rpad'],
    ];
    const s = new Session(db);
    for (const [expr, value, fn] of recorded) {
      expect(s.query(`SELECT ${expr}`).rows, expr).toEqual([[value]]);
      expect(s.query('SHOW WARNINGS').rows, expr).toEqual(
        fn === undefined
          ? []
          : [
              [
                'Warning',
                1301,
                `Result of ${fn}() was larger than max_allowed_packet (16777216) - truncated`,
              ],
            ],
      );
    }
  });

  it('REPLACE with an empty search string returns the text unchanged', () => {
    expect(new Session(db).query(`SELECT REPLACE('abc', '', 'x'), REPLACE('abc', 'b', '')`).rows).toEqual([
      ['abc', 'ac'],
    ]);
  });
});
