// ORDER BY … DESC read backward along an index, as MariaDB reads it (a descending full index scan,
// QUICK_SELECT_DESC over ranges, a ref read from its last entry). The vectors were taken from
// MariaDB 10.11.19 (a private mariadbd, InnoDB, after ANALYZE TABLE) for the same schema and
// statements: EXPLAIN's type, key and Extra, the rows, and the handler counters the statement
// moved. The differential half compares random descending queries with the same query over a
// derived table (a filesort); the consistent-read half checks a backward read sees its snapshot
// under another session's changes; a locking read reads forward and sorts.
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { countedRun, EXTRA, explainLines, KEY, TYPE } from '../helpers/explain.js';
import { createOrderTables } from '../helpers/order-tables.js';

let db: Database;
let s: Session;

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  createOrderTables(s);
});

afterAll(() => {
  s.close();
  db.close();
});

const COUNTERS = [
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_last',
  'Handler_read_next',
  'Handler_read_prev',
  'Handler_read_rnd_next',
  'Sort_rows',
] as const;

interface Vector {
  readonly sql: string;
  readonly plan: string;
  /** The first rows (all of them when short). */
  readonly rows: unknown[][];
  readonly count: number;
  readonly counters: Partial<Record<(typeof COUNTERS)[number], number>>;
}

const VECTORS: Vector[] = [
  {
    sql: 'SELECT * FROM t ORDER BY id DESC LIMIT 3',
    plan: 'index | PRIMARY | ',
    rows: [
      [400, 0, 1, 'v400'],
      [399, 39, 0, 'v399'],
      [398, 38, 6, 'v398'],
    ],
    count: 3,
    counters: { Handler_read_last: 1, Handler_read_prev: 2 },
  },
  {
    sql: 'SELECT * FROM t ORDER BY id DESC',
    plan: 'index | PRIMARY | ',
    rows: [
      [400, 0, 1, 'v400'],
      [399, 39, 0, 'v399'],
    ],
    count: 400,
    counters: { Handler_read_last: 1, Handler_read_prev: 400 },
  },
  {
    sql: 'SELECT k, m FROM t ORDER BY k DESC, m DESC LIMIT 4',
    plan: 'index | ikm | Using index',
    rows: [
      [39, 6],
      [39, 5],
      [39, 4],
      [39, 4],
    ],
    count: 4,
    counters: { Handler_read_last: 1, Handler_read_prev: 3 },
  },
  {
    // MariaDB's Extra is "Using where; Using index" (it keeps the ref's k = 5 as a condition)
    sql: 'SELECT m FROM t WHERE k = 5 ORDER BY m DESC',
    plan: 'ref | ikm | Using index',
    rows: [[6], [5], [5], [4], [3], [3], [2], [1], [1], [0]],
    count: 10,
    counters: { Handler_read_key: 1, Handler_read_prev: 10 },
  },
  {
    sql: 'SELECT m FROM t WHERE k = 5 ORDER BY m DESC LIMIT 2',
    plan: 'ref | ikm | Using index',
    rows: [[6], [5]],
    count: 2,
    counters: { Handler_read_key: 1, Handler_read_prev: 1 },
  },
  {
    sql: 'SELECT k FROM t WHERE k BETWEEN 3 AND 5 ORDER BY k DESC',
    plan: 'range | ikm | Using where; Using index',
    rows: [[5], [5]],
    count: 30,
    counters: { Handler_read_key: 1, Handler_read_prev: 30 },
  },
  {
    sql: 'SELECT k FROM t WHERE k BETWEEN 3 AND 5 ORDER BY k DESC LIMIT 2',
    plan: 'range | ikm | Using where; Using index',
    rows: [[5], [5]],
    count: 2,
    counters: { Handler_read_key: 1, Handler_read_prev: 1 },
  },
  {
    sql: 'SELECT k FROM t WHERE k IN (3, 7) ORDER BY k DESC',
    plan: 'range | ikm | Using where; Using index',
    rows: [[7], [7]],
    count: 20,
    counters: { Handler_read_key: 2, Handler_read_prev: 20 },
  },
  {
    sql: 'SELECT * FROM t WHERE id < 10 ORDER BY id DESC',
    plan: 'range | PRIMARY | Using where',
    rows: [
      [9, 9, 2, 'v9'],
      [8, 8, 1, 'v8'],
    ],
    count: 9,
    counters: { Handler_read_key: 1, Handler_read_prev: 9 },
  },
  {
    // a range with no upper end starts from the index's last entry
    sql: 'SELECT * FROM t WHERE id > 395 ORDER BY id DESC',
    plan: 'range | PRIMARY | Using where',
    rows: [
      [400, 0, 1, 'v400'],
      [399, 39, 0, 'v399'],
    ],
    count: 5,
    counters: { Handler_read_last: 1, Handler_read_prev: 5 },
  },
  {
    sql: 'SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k DESC LIMIT 2',
    plan: 'index | ikm | Using index',
    rows: [
      [39, 10],
      [38, 10],
    ],
    count: 2,
    counters: { Handler_read_last: 1, Handler_read_prev: 20 },
  },
];

describe('ORDER BY … DESC read backward, against MariaDB 10.11', () => {
  for (const v of VECTORS)
    it(v.sql, () => {
      expect(explainLines(s, v.sql, [TYPE, KEY, EXTRA])[0]).toBe(v.plan);
      const run = countedRun(s, v.sql, COUNTERS);
      expect(run.rows.length).toBe(v.count);
      expect(run.rows.slice(0, v.rows.length)).toEqual(v.rows);
      expect(run.counters).toEqual(v.counters);
    });
});

describe('a backward read gives what the filesort gives', () => {
  const rounds = 240;
  it(`${rounds} random descending queries`, () => {
    const g = new Pcg32({ seed: 0xde5c });
    const below = (n: number) => g.nextBelow(n);
    const d = new Session(db);
    try {
      d.query(
        'CREATE TABLE r (id INT PRIMARY KEY, a INT, b DECIMAL(6,2), c VARCHAR(6), KEY iab (a, b), KEY ic (c), KEY ib (b))',
      );
      const rows: string[] = [];
      const words = ['a', 'A', 'b', 'B ', 'ab', 'Ab', 'z', ''];
      for (let i = 1; i <= 700; i++) {
        const a = below(10) === 0 ? 'NULL' : String(below(25) - 5);
        const b = below(10) === 0 ? 'NULL' : `${below(40) - 10}.${below(2) * 5}0`;
        const c = below(8) === 0 ? 'NULL' : `'${words[below(words.length)]}'`;
        rows.push(`(${i}, ${a}, ${b}, ${c})`);
      }
      d.query(`INSERT INTO r VALUES ${rows.join(',')}`);
      d.query('ANALYZE TABLE r');
      let backward = 0;
      for (let round = 0; round < rounds; round++) {
        const shape = below(6);
        const [items, order] = (
          [
            ['id, a, b', 'a DESC, b DESC'],
            ['a, b', 'a DESC, b DESC, id DESC'],
            ['*', 'id DESC'],
            ['id, c', 'c DESC'],
            ['*', 'b DESC'],
            ['id, a', 'a DESC'],
          ] as const
        )[shape]!;
        const where = [
          '',
          `WHERE a = ${below(25) - 5}`,
          `WHERE a BETWEEN ${below(10) - 5} AND ${below(20)}`,
          `WHERE a IN (${below(20)}, ${below(20) - 5}, ${below(3)})`,
          `WHERE id > ${below(700)}`,
          `WHERE id BETWEEN ${below(300)} AND ${300 + below(400)}`,
          `WHERE b < ${below(30) - 10}`,
          "WHERE c >= 'b'",
          'WHERE a IS NULL',
          `WHERE a > ${below(20)} AND b IS NOT NULL`,
        ][below(10)]!;
        const limit =
          below(2) === 0 ? `LIMIT ${below(12)}${below(3) === 0 ? ` OFFSET ${below(5)}` : ''}` : '';
        const q = (from: string) => `SELECT ${items} FROM ${from} ${where} ORDER BY ${order} ${limit}`;
        const fast = q('r');
        const slow = q('(SELECT * FROM r) r');
        const extra = String(d.query(`EXPLAIN ${fast}`).rows[0]![10] ?? '');
        d.query('FLUSH STATUS');
        const got = d.query(fast).rows;
        if (!extra.includes('Using filesort')) {
          backward++;
          expect(d.status().Sort_rows ?? 0, fast).toBe(0);
        }
        const want = d.query(slow).rows;
        // the ORDER BY keys in the same sequence; whole rows when the order is total
        const keyAt = order
          .split(', ')
          .map((o) => o.replace(' DESC', ''))
          .map((c) => (items === '*' ? ['id', 'a', 'b', 'c'].indexOf(c) : items.split(', ').indexOf(c)));
        // text compares under utf8mb4_general_ci: case and trailing spaces aside ('b' = 'B ')
        const weight = (x: unknown) => (typeof x === 'string' ? x.toLowerCase().replace(/ +$/, '') : x);
        const keys = (rs: readonly unknown[][]) =>
          rs.map((r) => JSON.stringify(keyAt.map((j) => weight(r[j]))));
        expect(keys(got), fast).toEqual(keys(want));
        if (order.includes('id DESC')) expect(got, fast).toEqual(want);
      }
      expect(backward).toBeGreaterThan(rounds / 3);
    } finally {
      d.query('DROP TABLE r');
      d.close();
    }
  });
});

describe('a backward read under other sessions', () => {
  it('sees its snapshot: rows deleted, changed or added since are read as they were', () => {
    const reader = new Session(db);
    const writer = new Session(db);
    try {
      writer.query('CREATE TABLE mv (id INT PRIMARY KEY, k INT, KEY ik (k))');
      const rows = Array.from({ length: 3000 }, (_, i) => `(${i + 1}, ${i % 50})`);
      writer.query(`INSERT INTO mv VALUES ${rows.join(',')}`);
      reader.query('BEGIN');
      const forward = reader.query('SELECT id, k FROM mv ORDER BY id').rows;
      const forwardK = reader.query('SELECT k, id FROM mv ORDER BY k, id').rows;
      // committed and uncommitted changes after the reader's snapshot, spread over many leaves
      writer.query('DELETE FROM mv WHERE id % 7 = 0');
      writer.query('UPDATE mv SET k = k + 100 WHERE id % 11 = 0');
      writer.query(
        `INSERT INTO mv VALUES ${Array.from({ length: 500 }, (_, i) => `(${5000 + i}, ${i % 50})`).join(',')}`,
      );
      writer.query('BEGIN');
      writer.query('DELETE FROM mv WHERE id % 5 = 0');
      writer.query('UPDATE mv SET k = -1 WHERE id % 3 = 0');
      expect(reader.query('EXPLAIN SELECT id, k FROM mv ORDER BY id DESC').rows[0]![5]).toBe('PRIMARY');
      expect(reader.query('SELECT id, k FROM mv ORDER BY id DESC').rows).toEqual([...forward].reverse());
      expect(reader.query('EXPLAIN SELECT k, id FROM mv ORDER BY k DESC, id DESC').rows[0]![5]).toBe('ik');
      expect(reader.query('SELECT k, id FROM mv ORDER BY k DESC, id DESC').rows).toEqual(
        [...forwardK].reverse(),
      );
      expect(reader.query('SELECT id FROM mv WHERE k = 7 ORDER BY id DESC LIMIT 5').rows).toEqual(
        forwardK
          .filter((r) => r[0] === 7)
          .map((r) => [r[1]])
          .reverse()
          .slice(0, 5),
      );
      writer.query('ROLLBACK');
      reader.query('COMMIT');
      // a new snapshot sees the committed changes, backward as forward
      const now = reader.query('SELECT id, k FROM mv ORDER BY id').rows;
      expect(reader.query('SELECT id, k FROM mv ORDER BY id DESC').rows).toEqual([...now].reverse());
    } finally {
      writer.query('DROP TABLE IF EXISTS mv');
      reader.close();
      writer.close();
    }
  });

  it('a locking read reads forward and sorts: the same rows', () => {
    const x = new Session(db);
    try {
      x.query('BEGIN');
      x.query('FLUSH STATUS');
      const rows = x.query('SELECT id FROM t WHERE id > 390 ORDER BY id DESC LIMIT 3 FOR UPDATE').rows;
      expect(rows).toEqual([[400], [399], [398]]);
      const st = x.status();
      expect(st.Handler_read_prev ?? 0).toBe(0);
      expect(st.Handler_read_next).toBeGreaterThan(0);
      expect(st.Sort_rows).toBeGreaterThan(0);
      x.query('ROLLBACK');
      // SERIALIZABLE makes a plain SELECT in a transaction a locking read
      x.query('SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE');
      x.query('BEGIN');
      expect(x.query('SELECT k, m FROM t WHERE k = 5 ORDER BY m DESC LIMIT 3').rows).toEqual([
        [5, 6],
        [5, 5],
        [5, 5],
      ]);
      x.query('COMMIT');
    } finally {
      x.close();
    }
  });
});
