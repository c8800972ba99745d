// String functions on long inputs: REPEAT and SPACE past max_allowed_packet are NULL with warning
// 1301 (MySQL's ER_WARN_ALLOWED_PACKET_OVERFLOWED) instead of building a string the server could
// not send (or JavaScript could not hold); REPLACE with an empty search string leaves the text.
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../src/storage/database.js';
import { Session } from '../src/session/session.js';

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

  it('REPLACE with an empty search string returns the text unchanged', () => {
    expect(new Session(db).query(`SELECT REPLACE('abc', '', 'x'), REPLACE('abc', 'b', '')`).rows).toEqual([
      ['abc', 'ac'],
    ]);
  });
});
