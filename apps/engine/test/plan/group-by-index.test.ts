// GROUP BY read in index order, the sort MariaDB gives a GROUP BY, and the clustered index read
// for an order. The vectors below were taken from MariaDB 10.11.19 (a private mariadbd, InnoDB,
// after ANALYZE TABLE) for the same schema and statements: its EXPLAIN type, key and Extra, its
// rows, and the counters the statement moved; a comment marks where the engine differs. The
// differential half runs random GROUP BY queries both ways (on the table, read in index order
// where it can be, and on a derived table of its rows: a temporary table and a filesort) and
// wants the same rows in the same order.
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { countedRun, EXTRA, explainLines, KEY, movedCounters, TYPE } from '../helpers/explain.js';
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
  'Created_tmp_tables',
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd',
  'Handler_read_rnd_next',
  'Handler_tmp_update',
  'Handler_tmp_write',
  'Sort_rows',
  'Sort_scan',
] as const;

interface Vector {
  readonly sql: string;
  /** EXPLAIN's type, key and Extra. */
  readonly plan: string;
  readonly rows: unknown[][];
  /** The counters that moved (the others stayed 0). */
  readonly counters: Partial<Record<(typeof COUNTERS)[number], number>>;
}

const VECTORS: Vector[] = [
  {
    sql: 'SELECT m, COUNT(*) FROM t IGNORE INDEX (ikm) GROUP BY m',
    plan: 'ALL | NULL | Using temporary; Using filesort',
    rows: [
      [0, 57],
      [1, 58],
      [2, 57],
      [3, 57],
      [4, 57],
      [5, 57],
      [6, 57],
    ],
    counters: {
      Created_tmp_tables: 1,
      Handler_read_key: 400,
      Handler_read_rnd: 7,
      Handler_read_rnd_next: 409,
      Handler_tmp_update: 393,
      Handler_tmp_write: 7,
      Sort_rows: 7,
      Sort_scan: 1,
    },
  },
  {
    // ORDER BY NULL: the groups in the order they were first met, no sort
    sql: 'SELECT m, COUNT(*) FROM t IGNORE INDEX (ikm) GROUP BY m ORDER BY NULL',
    plan: 'ALL | NULL | Using temporary',
    rows: [
      [1, 58],
      [2, 57],
      [3, 57],
      [4, 57],
      [5, 57],
      [6, 57],
      [0, 57],
    ],
    counters: {
      Created_tmp_tables: 1,
      Handler_read_key: 400,
      Handler_read_rnd_next: 409,
      Handler_tmp_update: 393,
      Handler_tmp_write: 7,
    },
  },
  {
    sql: 'SELECT m, COUNT(*) FROM t GROUP BY m',
    plan: 'index | ikm | Using index; Using temporary; Using filesort',
    rows: [
      [0, 57],
      [1, 58],
      [2, 57],
      [3, 57],
      [4, 57],
      [5, 57],
      [6, 57],
    ],
    counters: {
      Created_tmp_tables: 1,
      Handler_read_first: 1,
      Handler_read_key: 400,
      Handler_read_next: 400,
      Handler_read_rnd: 7,
      Handler_read_rnd_next: 8,
      Handler_tmp_update: 393,
      Handler_tmp_write: 7,
      Sort_rows: 7,
      Sort_scan: 1,
    },
  },
  {
    // the 31st entry starts the fourth group, which ends the third: the read stops there
    sql: 'SELECT k, COUNT(*) FROM t GROUP BY k LIMIT 3',
    plan: 'index | ikm | Using index',
    rows: [
      [0, 10],
      [1, 10],
      [2, 10],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 30 },
  },
  {
    sql: 'SELECT k, m, COUNT(*) FROM t GROUP BY k, m LIMIT 3',
    plan: 'index | ikm | Using index',
    rows: [
      [0, 0, 1],
      [0, 1, 2],
      [0, 2, 1],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 4 },
  },
  {
    sql: 'SELECT k, COUNT(*) FROM t GROUP BY k HAVING COUNT(*) > 5 LIMIT 2',
    plan: 'index | ikm | Using index',
    rows: [
      [0, 10],
      [1, 10],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 20 },
  },
  {
    sql: 'SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k LIMIT 2',
    plan: 'index | ikm | Using index',
    rows: [
      [0, 10],
      [1, 10],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 20 },
  },
  {
    sql: 'SELECT k, COUNT(*) FROM t GROUP BY k LIMIT 2 OFFSET 1',
    plan: 'index | ikm | Using index',
    rows: [
      [1, 10],
      [2, 10],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 30 },
  },
  {
    sql: 'SELECT COUNT(*) FROM t GROUP BY k LIMIT 1',
    plan: 'index | ikm | Using index',
    rows: [[10]],
    counters: { Handler_read_first: 1, Handler_read_next: 10 },
  },
  {
    // MariaDB's Extra is "Using where; Using index" (it keeps the ref's k = 5 as a condition)
    sql: 'SELECT m, COUNT(*) FROM t WHERE k = 5 GROUP BY m',
    plan: 'ref | ikm | Using index',
    rows: [
      [0, 1],
      [1, 2],
      [2, 1],
      [3, 2],
      [4, 1],
      [5, 2],
      [6, 1],
    ],
    counters: { Handler_read_key: 1, Handler_read_next: 10 },
  },
  {
    // NULL first, 0.00 and -0.00 one group
    sql: 'SELECT d, COUNT(*) FROM g GROUP BY d',
    plan: 'index | id_ | Using index',
    rows: [
      [null, 2],
      ['0.00', 2],
      ['1.50', 2],
      ['2.00', 1],
      ['3.25', 1],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 8 },
  },
  {
    // the clustered index read as an index for ORDER BY its key
    sql: 'SELECT * FROM t ORDER BY id LIMIT 3',
    plan: 'index | PRIMARY | ',
    rows: [
      [1, 1, 1, 'v1'],
      [2, 2, 2, 'v2'],
      [3, 3, 3, 'v3'],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 2 },
  },
  {
    // a covering index (ikm holds id) is not in id order: the clustered index is
    sql: 'SELECT id FROM t ORDER BY id LIMIT 3',
    plan: 'index | PRIMARY | Using index',
    rows: [[1], [2], [3]],
    counters: { Handler_read_first: 1, Handler_read_next: 2 },
  },
  {
    sql: 'SELECT v, COUNT(*) FROM t GROUP BY id LIMIT 2',
    plan: 'index | PRIMARY | ',
    rows: [
      ['v1', 1],
      ['v2', 1],
    ],
    counters: { Handler_read_first: 1, Handler_read_next: 2 },
  },
  {
    // MariaDB sorts the 40 groups in a priority queue of 2 (Sort_priority_queue_sorts 1, a
    // counter the engine does not keep); Sort_rows counts the 2 rows the sort gives back
    sql: 'SELECT k, COUNT(*) FROM t FORCE INDEX (PRIMARY) GROUP BY k LIMIT 2',
    plan: 'ALL | NULL | Using temporary; Using filesort',
    rows: [
      [0, 10],
      [1, 10],
    ],
    counters: {
      Created_tmp_tables: 1,
      Handler_read_key: 400,
      Handler_read_rnd: 2,
      Handler_read_rnd_next: 442,
      Handler_tmp_update: 360,
      Handler_tmp_write: 40,
      Sort_rows: 2,
      Sort_scan: 1,
    },
  },
];

describe('GROUP BY and ORDER BY against MariaDB 10.11', () => {
  for (const v of VECTORS)
    it(v.sql, () => {
      expect(explainLines(s, v.sql, [TYPE, KEY, EXTRA])[0]).toBe(v.plan);
      expect(countedRun(s, v.sql, COUNTERS)).toEqual({ rows: v.rows, counters: v.counters });
    });
});

describe('GROUP BY in index order gives what the temporary table and the sort give', () => {
  const rounds = 160;
  it(`${rounds} random queries`, () => {
    const g = new Pcg32({ seed: 0x9b0 });
    const below = (n: number) => g.nextBelow(n);
    const d = new Session(db);
    try {
      d.query(
        'CREATE TABLE r (id INT PRIMARY KEY, a INT, b DECIMAL(6,2), c VARCHAR(6), KEY iab (a, b), KEY ib (b))',
      );
      const rows: string[] = [];
      for (let i = 1; i <= 600; i++) {
        const a = below(10) === 0 ? 'NULL' : String(below(25) - 5);
        const b = below(10) === 0 ? 'NULL' : `${below(40) - 10}.${below(2) * 5}0`;
        rows.push(`(${i}, ${a}, ${b}, 'c${below(30)}')`);
      }
      d.query(`INSERT INTO r VALUES ${rows.join(',')}`);
      d.query('ANALYZE TABLE r');
      let streamed = 0;
      for (let round = 0; round < rounds; round++) {
        const shape = below(4);
        const group = shape === 0 ? 'a' : shape === 1 ? 'a, b' : shape === 2 ? 'b' : 'id';
        const aggs = ['COUNT(*)', 'SUM(id)', 'MIN(b)', 'MAX(a)', 'COUNT(b)', 'AVG(b)'];
        const picked = aggs.filter(() => below(2) === 0);
        const items = [group, ...(picked.length > 0 ? picked : ['COUNT(*)'])].join(', ');
        const where = [
          '',
          `WHERE a = ${below(25) - 5}`,
          `WHERE a BETWEEN ${below(10) - 5} AND ${below(20)}`,
          `WHERE b > ${below(30) - 10}`,
          'WHERE a IS NULL',
        ][below(5)]!;
        const having = below(4) === 0 ? `HAVING COUNT(*) > ${below(3)}` : '';
        const desc = group
          .split(', ')
          .map((c) => `${c} DESC`)
          .join(', ');
        const order = ['', '', `ORDER BY ${group}`, 'ORDER BY NULL', `ORDER BY ${desc}`][below(5)]!;
        const limit = below(3) === 0 ? `LIMIT ${below(6)}${below(2) === 0 ? ` OFFSET ${below(4)}` : ''}` : '';
        const sql = (from: string) =>
          `SELECT ${items} FROM ${from} ${where} GROUP BY ${group} ${having} ${order} ${limit}`;
        const fast = sql('r');
        // the oracle: the same rows through a derived table, which has no index and no order
        const slow = sql('(SELECT * FROM r) r');
        const extra = String(d.query(`EXPLAIN ${fast}`).rows[0]![10] ?? '');
        if (!extra.includes('Using temporary')) streamed++;
        expect(String(d.query(`EXPLAIN ${slow}`).rows[0]![10] ?? '')).toContain('Using temporary');
        const a = d.query(fast).rows;
        const b = d.query(slow).rows;
        if (order === 'ORDER BY NULL') {
          // no order promised: the same groups (a LIMIT may keep different ones)
          if (limit === '') expect([...a].map(String).sort(), fast).toEqual([...b].map(String).sort());
          else expect(a.length, fast).toBe(b.length);
        } else expect(a, fast).toEqual(b);
      }
      expect(streamed).toBeGreaterThan(rounds / 3);
    } finally {
      d.query('DROP TABLE r');
      d.close();
    }
  });
});

describe('Sort_rows under a LIMIT, against MariaDB 10.11', () => {
  // MariaDB's filesort reports the rows it gives back: no more than the LIMIT (offset included),
  // from a priority queue (Sort_priority_queue_sorts, which the engine does not keep) or a full
  // sort alike
  const cases: Array<[string, Record<string, number>]> = [
    ['SELECT * FROM t ORDER BY k LIMIT 5', { Sort_rows: 5, Sort_scan: 1 }],
    ['SELECT * FROM t ORDER BY k LIMIT 399', { Sort_rows: 399, Sort_scan: 1 }],
    ['SELECT * FROM t ORDER BY k LIMIT 1000', { Sort_rows: 400, Sort_scan: 1 }],
    ['SELECT * FROM t ORDER BY k LIMIT 10, 5', { Sort_rows: 15, Sort_scan: 1 }],
    ['SELECT * FROM t WHERE id < 50 ORDER BY k LIMIT 5', { Sort_range: 1, Sort_rows: 5 }],
    ['SELECT * FROM t ORDER BY k', { Sort_rows: 400, Sort_scan: 1 }],
    ['SELECT m, COUNT(*) FROM t IGNORE INDEX (ikm) GROUP BY m LIMIT 2', { Sort_rows: 2, Sort_scan: 1 }],
  ];
  for (const [sql, want] of cases)
    it(sql, () => {
      s.query('FLUSH STATUS');
      s.query(sql);
      expect(movedCounters(s, ['Sort_merge_passes', 'Sort_range', 'Sort_rows', 'Sort_scan'])).toEqual(want);
    });
});

describe("EXPLAIN's rows for a full index scan in order under a LIMIT, against MariaDB 10.11", () => {
  // MariaDB shows the rows the read stops after (offset + count), whatever WHERE filters
  const cases: Array<[string, string, number]> = [
    ['SELECT * FROM t ORDER BY id LIMIT 10, 3', 'PRIMARY', 13],
    ['SELECT id FROM t ORDER BY id LIMIT 3', 'PRIMARY', 3],
    ['SELECT k, m FROM t ORDER BY k, m LIMIT 7', 'ikm', 7],
    ['SELECT * FROM t WHERE m = 3 ORDER BY id LIMIT 3', 'PRIMARY', 3],
    ['SELECT k, m FROM t ORDER BY k DESC, m DESC LIMIT 4', 'ikm', 4],
    ['SELECT * FROM t ORDER BY id LIMIT 1000', 'PRIMARY', 400],
    // a ref keeps its estimate, as MariaDB's
    ['SELECT * FROM t WHERE k = 5 ORDER BY m DESC LIMIT 2', 'ikm', 10],
    // MariaDB shows 20 (its estimate of the rows four groups take); the engine keeps the scan's
    ['SELECT k, COUNT(*) FROM t GROUP BY k LIMIT 4', 'ikm', 400],
  ];
  for (const [sql, key, rows] of cases)
    it(sql, () => {
      const e = s.query(`EXPLAIN ${sql}`).rows[0]!;
      expect([e[5], e[8]]).toEqual([key, rows]);
    });
});
