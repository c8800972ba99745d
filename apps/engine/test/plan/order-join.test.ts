// GROUP BY and ORDER BY on columns of a join's first table, read in that table's index order
// (MariaDB's test_if_skip_sort_order for the first table of a join): nested loops keep the first
// table's order, so the groups stream out (no temporary table) and LIMIT stops the read; a join
// buffer on a later table gives rows out by buffer, so the sort stays. The vectors were taken from
// MariaDB 10.11.19 (a private mariadbd, InnoDB, after ANALYZE TABLE) for the same schema and
// statements: EXPLAIN's table, type, key and Extra, the rows, and the counters the statement
// moved. The differential half compares random joins with the same query over a derived table
// (no index, no order).
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { createJoinTables } from '../helpers/join-tables.js';
import { countedRun, EXTRA, explainLines, KEY, plainRows, TABLE, TYPE } from '../helpers/explain.js';

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

const COUNTERS = [
  'Created_tmp_tables',
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd_next',
  'Sort_rows',
] as const;

const VECTORS: Array<{
  sql: string;
  plan: readonly string[];
  rows: unknown[][];
  counters: Partial<Record<(typeof COUNTERS)[number], number>>;
}> = [
  {
    // MariaDB shows rows 1 for p (what it expects to read for the LIMIT); the engine shows the table
    sql: 'SELECT p.pk, COUNT(*) FROM p JOIN l ON l.pk = p.pk GROUP BY p.pk LIMIT 3',
    plan: ['p | index | PRIMARY | Using index', 'l | ref | i_pk | Using index'],
    rows: [
      [1, 10],
      [2, 10],
      [3, 10],
    ],
    counters: { Handler_read_first: 1, Handler_read_key: 4, Handler_read_next: 33 },
  },
  {
    // TPC-H Q13's shape: a LEFT JOIN grouped by the outer table's key
    sql: "SELECT p.pk, COUNT(l.id) FROM p LEFT JOIN l ON l.pk = p.pk AND l.mode = 'AIR' GROUP BY p.pk LIMIT 3",
    plan: ['p | index | PRIMARY | Using index', 'l | ref | i_pk | Using where'],
    rows: [
      [1, 3],
      [2, 3],
      [3, 3],
    ],
    counters: { Handler_read_first: 1, Handler_read_key: 4, Handler_read_next: 35 },
  },
  {
    sql: 'SELECT p.pk, l.id FROM p JOIN l ON l.pk = p.pk ORDER BY p.pk LIMIT 3',
    plan: ['p | index | PRIMARY | Using index', 'l | ref | i_pk | Using index'],
    rows: [
      [1, 200],
      [1, 400],
      [1, 600],
    ],
    counters: { Handler_read_first: 1, Handler_read_key: 1, Handler_read_next: 2 },
  },
  {
    // no index orders brand: grouped in a temporary table, then sorted
    sql: 'SELECT p.brand, COUNT(*) FROM p JOIN l ON l.pk = p.pk GROUP BY p.brand LIMIT 3',
    plan: ['p | ALL | NULL | Using temporary; Using filesort', 'l | ref | i_pk | Using index'],
    rows: [
      ['B0', 200],
      ['B1', 200],
      ['B2', 200],
    ],
    counters: {
      Created_tmp_tables: 1,
      Handler_read_key: 2200,
      Handler_read_next: 2000,
      Handler_read_rnd_next: 212,
      Sort_rows: 3,
    },
  },
  {
    // l through a join buffer: rows leave by buffer, so p's order is not the output's
    sql: 'SELECT p.pk, COUNT(*) FROM p JOIN l ON l.qty = p.size GROUP BY p.pk LIMIT 3',
    plan: [
      'p | ALL | NULL | Using temporary; Using filesort',
      'l | ALL | NULL | Using where; Using join buffer (flat, BNL join)',
    ],
    rows: [
      [1, 40],
      [2, 40],
      [3, 40],
    ],
    counters: { Created_tmp_tables: 1, Handler_read_key: 8000, Handler_read_rnd_next: 2403, Sort_rows: 3 },
  },
];

describe('GROUP BY and ORDER BY in the first table’s index order, against MariaDB 10.11', () => {
  for (const v of VECTORS)
    it(v.sql, () => {
      expect(explainLines(s, v.sql, [TABLE, TYPE, KEY, EXTRA])).toEqual(v.plan);
      expect(countedRun(s, v.sql, COUNTERS)).toEqual({ rows: v.rows, counters: v.counters });
    });
});

describe('a join read in its first table’s order gives what a sort gives', () => {
  const rounds = 100;
  it(`${rounds} random grouped and ordered joins`, () => {
    const g = new Pcg32({ seed: 0x0d13 });
    const below = (n: number) => g.nextBelow(n);
    let inOrder = 0;
    for (let round = 0; round < rounds; round++) {
      const join = ['JOIN', 'LEFT JOIN'][below(2)];
      const on = ['l.pk = p.pk', 'l.pk = p.pk AND l.qty < 20', 'l.qty = p.size'][below(3)];
      const where = [
        '',
        ` WHERE p.size > ${below(50)}`,
        ` WHERE p.pk BETWEEN ${below(100)} AND ${100 + below(100)}`,
      ][below(3)];
      const desc = below(3) === 0 ? ' DESC' : '';
      const limit = below(2) === 0 ? ` LIMIT ${1 + below(20)}` : '';
      const grouped = below(2) === 0;
      const q = (from: string) =>
        grouped
          ? `SELECT p.pk, COUNT(l.id), SUM(l.qty) FROM ${from} p ${join} l ON ${on}${where} GROUP BY p.pk ORDER BY p.pk${desc}${limit}`
          : `SELECT p.pk, l.id FROM ${from} p ${join} l ON ${on}${where} ORDER BY p.pk${desc}${limit}`;
      const sql = q('p AS');
      const got = plainRows(s.query(sql).rows);
      // the derived table has no index: the same rows, sorted
      const want = plainRows(s.query(q('(SELECT * FROM p) AS')).rows);
      if (grouped) expect(got, sql).toEqual(want);
      else {
        // ORDER BY p.pk only fixes the order of p's rows: compare the p.pk sequence and the row set
        expect(
          got.map((r) => r[0]),
          sql,
        ).toEqual(want.map((r) => r[0]));
        if (limit === '') expect([...got].sort(), sql).toEqual([...want].sort());
      }
      if (!String(s.query(`EXPLAIN ${sql}`).rows[0]![10] ?? '').includes('filesort')) inOrder++;
    }
    expect(inOrder).toBeGreaterThan(rounds / 5);
  });
});
