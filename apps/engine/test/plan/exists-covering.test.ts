// EXISTS reads no column of its subquery's rows: a `SELECT *` there is read as `SELECT 1`, as
// MariaDB replaces it, so an index holding what WHERE reads covers the subquery (TPC-H Q22's
// `NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)`: MariaDB 10.11 shows
// `ref i_o_custkey … Using index`). The answers were taken from MariaDB 10.11.19 for the same
// tables and statements (it turns most of these EXISTS into semi-joins, so its plans are not the
// engine's; the answers are). What the rewrite must leave alone: a select list that is not only
// wildcards (an aggregate makes a row where there is none), GROUP BY, HAVING, ORDER BY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { plainRows } from '../helpers/explain.js';
import { createJoinTables } from '../helpers/join-tables.js';

let db: Database;
let s: Session;

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  createJoinTables(s);
});

afterAll(() => {
  s.close();
  db.close();
});

describe('EXISTS (SELECT * …) read as EXISTS (SELECT 1 …)', () => {
  const answers: Array<[string, number]> = [
    ["SELECT COUNT(*) FROM p WHERE NOT EXISTS (SELECT * FROM l WHERE l.pk = p.pk AND l.mode = 'AIR')", 0],
    ['SELECT COUNT(*) FROM p WHERE NOT EXISTS (SELECT * FROM l WHERE l.pk = p.pk + 150)', 150],
    ['SELECT COUNT(*) FROM p WHERE EXISTS (SELECT l.* FROM l WHERE l.pk = p.pk + 150)', 50],
    ['SELECT COUNT(*) FROM p WHERE EXISTS (SELECT * FROM l WHERE l.pk = p.pk + 150 GROUP BY l.mode)', 50],
    // an aggregate without GROUP BY makes one row of no rows: always true
    ['SELECT COUNT(*) FROM p WHERE EXISTS (SELECT COUNT(*) FROM l WHERE l.pk = p.pk + 250)', 200],
  ];
  for (const [sql, n] of answers)
    it(`${sql}: MariaDB 10.11's answer`, () => {
      expect(plainRows(s.query(sql).rows)).toEqual([[n]]);
    });

  it("the subquery's index covers it: EXPLAIN says Using index", () => {
    const extra = (sql: string) =>
      s
        .query(`EXPLAIN ${sql}`)
        .rows.filter((r) => r[2] === 'l')
        .map((r) => `${r[3]} ${r[5]} ${r[10] ?? ''}`);
    expect(
      extra('SELECT COUNT(*) FROM p WHERE NOT EXISTS (SELECT * FROM l WHERE l.pk = p.pk + 150)'),
    ).toEqual(['ref i_pk Using index']);
    expect(extra('SELECT COUNT(*) FROM p WHERE EXISTS (SELECT l.*, l.* FROM l WHERE l.pk = p.pk)')).toEqual([
      'ref i_pk Using index',
    ]);
    // a column named in the list is read: the row is fetched
    expect(extra('SELECT COUNT(*) FROM p WHERE EXISTS (SELECT l.qty FROM l WHERE l.pk = p.pk)')).toEqual([
      'ref i_pk ',
    ]);
    // ORDER BY may name the list's columns by number: left as written
    expect(
      extra('SELECT COUNT(*) FROM p WHERE EXISTS (SELECT * FROM l WHERE l.pk = p.pk ORDER BY 3 LIMIT 1)'),
    ).toEqual(['ref i_pk Using filesort']);
  });

  it('the parsed statement kept for reuse is unchanged by the rewrite', () => {
    const sql = 'SELECT COUNT(*) FROM p WHERE EXISTS (SELECT * FROM l WHERE l.pk = p.pk + 150)';
    for (let i = 0; i < 3; i++) expect(plainRows(s.query(sql).rows)).toEqual([[50]]);
    expect(plainRows(s.query('SELECT * FROM l WHERE id = 7').rows)).toEqual([[7, 60, 41, 'SHIP']]);
  });
});
