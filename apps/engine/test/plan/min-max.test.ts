// MIN and MAX answered from an index's ends (MariaDB's opt_sum_query: "Select tables optimized
// away"). The vectors were taken from MariaDB 10.11.19 (a private mariadbd, InnoDB, after ANALYZE
// TABLE) for the same schema and statements: EXPLAIN's table, type and Extra, the row, and the
// handler counters the statement moved; a comment marks where the engine differs. The
// differential half compares random MIN/MAX queries with the same query over a derived table (a
// full read); the consistent-read half checks the ends a read finds are those of its snapshot.
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { countedRun, EXTRA, explainLines, TABLE, TYPE } from '../helpers/explain.js';
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
] as const;

const AWAY = 'NULL | NULL | Select tables optimized away';

const VECTORS: Array<{
  sql: string;
  plan: string;
  row: unknown[];
  counters: Partial<Record<(typeof COUNTERS)[number], number>>;
}> = [
  // k is nullable: MIN seeks past the NULLs (index_read_map), MAX starts at the end (index_last)
  {
    sql: 'SELECT MIN(k), MAX(k) FROM t',
    plan: AWAY,
    row: [0, 39],
    counters: { Handler_read_key: 1, Handler_read_last: 1 },
  },
  // id is NOT NULL: index_first
  {
    sql: 'SELECT MIN(id), MAX(id) FROM t',
    plan: AWAY,
    row: [1, 400],
    counters: { Handler_read_first: 1, Handler_read_last: 1 },
  },
  { sql: 'SELECT MIN(m) FROM t WHERE k = 5', plan: AWAY, row: [0], counters: { Handler_read_key: 1 } },
  { sql: 'SELECT MAX(k) FROM t WHERE k < 10', plan: AWAY, row: [9], counters: { Handler_read_key: 1 } },
  { sql: 'SELECT MIN(k) FROM t WHERE k > 37', plan: AWAY, row: [38], counters: { Handler_read_key: 1 } },
  {
    // no row has k = 99: EXPLAIN reads the ends, as MariaDB does while optimizing, and says so
    sql: 'SELECT MAX(m) FROM t WHERE k = 99',
    plan: 'NULL | NULL | No matching min/max row',
    row: [null],
    counters: { Handler_read_key: 1 },
  },
  // the extended key: (k, m) fixed, then the primary key's id
  {
    sql: 'SELECT MAX(id) FROM t WHERE k = 5 AND m = 3',
    plan: AWAY,
    row: [325],
    counters: { Handler_read_key: 1 },
  },
  {
    sql: 'SELECT MIN(k) + 1, MAX(k) * 2, 7 FROM t',
    plan: AWAY,
    row: [1, 78, 7],
    counters: { Handler_read_key: 1, Handler_read_last: 1 },
  },
  {
    sql: 'SELECT MAX(m) FROM t WHERE k = 5 AND m < 4',
    plan: AWAY,
    row: [3],
    counters: { Handler_read_key: 1 },
  },
  { sql: 'SELECT MAX(d) FROM g', plan: AWAY, row: ['3.25'], counters: { Handler_read_last: 1 } },
  { sql: 'SELECT MIN(d) FROM g', plan: AWAY, row: ['0.00'], counters: { Handler_read_key: 1 } },
  // a collated prefix fixed by its weight
  { sql: "SELECT MAX(n) FROM g WHERE s = 'a'", plan: AWAY, row: [4], counters: { Handler_read_key: 1 } },
  // not from an index's end: m is not fixed before id, nothing fixes k before m, v has no index
  {
    sql: 'SELECT MIN(id) FROM t WHERE k = 5',
    plan: 't | ref | Using index',
    row: [5],
    counters: { Handler_read_key: 1, Handler_read_next: 10 },
  },
  {
    sql: 'SELECT MIN(k) FROM t WHERE m = 3',
    plan: 't | index | Using where; Using index',
    row: [0],
    counters: { Handler_read_first: 1, Handler_read_next: 400 },
  },
  { sql: 'SELECT MIN(v) FROM t', plan: 't | ALL | ', row: ['v1'], counters: { Handler_read_rnd_next: 401 } },
  {
    // MariaDB also counts a Handler_read_key: it reads MIN(k)'s end before MAX(m) has no index
    sql: 'SELECT MIN(k), MAX(m) FROM t',
    plan: 't | index | Using index',
    row: [0, 6],
    counters: { Handler_read_first: 1, Handler_read_next: 400 },
  },
];

describe('MIN and MAX from index ends, against MariaDB 10.11', () => {
  for (const v of VECTORS)
    it(v.sql, () => {
      expect(explainLines(s, v.sql, [TABLE, TYPE, EXTRA])[0]).toBe(v.plan);
      expect(countedRun(s, v.sql, COUNTERS)).toEqual({ rows: [v.row], counters: v.counters });
    });
});

describe("EXPLAIN's 'No matching min/max row', against MariaDB 10.11", () => {
  // a row WHERE keeps, its aggregated column NULL, is still a matching row
  it('tells an empty WHERE from a column of NULLs', () => {
    const d = new Session(db);
    try {
      d.query('CREATE TABLE z (id INT PRIMARY KEY, a INT, b INT, KEY (a), KEY (b))');
      d.query('INSERT INTO z VALUES (1, NULL, 5)');
      d.query('CREATE TABLE z0 (id INT PRIMARY KEY, a INT, KEY (a))');
      const extra = (q: string) => d.query(`EXPLAIN ${q}`).rows[0]![10];
      expect(extra('SELECT MIN(a) FROM z')).toBe('Select tables optimized away');
      expect(extra('SELECT MIN(a), MAX(b) FROM z')).toBe('Select tables optimized away');
      expect(extra('SELECT MAX(a) FROM z0')).toBe('No matching min/max row');
      expect(extra('SELECT MIN(id) FROM z0')).toBe('No matching min/max row');
      expect(extra('SELECT MAX(m) FROM t WHERE k = 5 AND m > 6')).toBe('No matching min/max row');
      expect(extra('SELECT MAX(m) FROM t WHERE k = 5 AND m > 5')).toBe('Select tables optimized away');
      expect(d.query('SELECT MIN(a), MAX(b) FROM z').rows).toEqual([[null, 5]]);
    } finally {
      d.query('DROP TABLE IF EXISTS z, z0');
      d.close();
    }
  });
});

describe('MIN and MAX from index ends give what a full read gives', () => {
  const rounds = 300;
  it(`${rounds} random queries`, () => {
    const g = new Pcg32({ seed: 0x313a });
    const below = (n: number) => g.nextBelow(n);
    const d = new Session(db);
    try {
      d.query(
        'CREATE TABLE r (id INT PRIMARY KEY, a INT, b DECIMAL(6,2), c INT NOT NULL, e DOUBLE, KEY iab (a, b), KEY ic (c), KEY ie (e))',
      );
      const rows: string[] = [];
      for (let i = 1; i <= 500; i++) {
        const a = below(8) === 0 ? 'NULL' : String(below(20) - 5);
        const b = below(8) === 0 ? 'NULL' : `${below(40) - 20}.${below(4) * 25}`;
        const e = below(8) === 0 ? 'NULL' : String((below(200) - 100) / 8);
        rows.push(`(${i}, ${a}, ${b}, ${below(50)}, ${e})`);
      }
      d.query(`INSERT INTO r VALUES ${rows.join(',')}`);
      d.query('ANALYZE TABLE r');
      let away = 0;
      for (let round = 0; round < rounds; round++) {
        const fns = ['MIN', 'MAX'];
        const cols = ['id', 'a', 'b', 'c', 'e'];
        const n = 1 + below(3);
        const items = Array.from({ length: n }, () => `${fns[below(2)]}(${cols[below(5)]})`);
        if (below(4) === 0) items.push(`${items[0]} + 1`);
        const x = below(20) - 5;
        const where = [
          '',
          `WHERE a = ${x}`,
          `WHERE a = ${x} AND b > ${below(20) - 10}`,
          `WHERE a = ${x} AND b BETWEEN ${below(10) - 10} AND ${below(10)}`,
          `WHERE a < ${x}`,
          `WHERE a >= ${x} AND a <= ${x + below(5)}`,
          `WHERE b = ${below(10) - 5}.25`,
          `WHERE c > ${below(50)}`,
          `WHERE e < ${(below(100) - 50) / 4}`,
          `WHERE id > ${below(500)}`,
          `WHERE a = ${x} AND b = ${below(10) - 5}.50`,
          'WHERE a IS NULL',
          `WHERE a = ${x} AND c > 3`,
          // bounds the column cannot hold: a fraction on an INT, three decimals on a DECIMAL(6,2),
          // a value past INT's range
          `WHERE a < ${x}.5`,
          `WHERE id >= ${below(500)}.25`,
          `WHERE c <= ${below(50)} - 0.5`,
          `WHERE a = ${x} AND b > ${below(20) - 10}.125`,
          `WHERE id = ${below(500)}.5`,
          'WHERE id < 5000000000',
          `WHERE c > -5000000000 AND c < ${below(60)}.75`,
        ][below(20)]!;
        const q = (from: string) => `SELECT ${items.join(', ')} FROM ${from} ${where}`;
        const fast = q('r');
        const extra = String(d.query(`EXPLAIN ${fast}`).rows[0]![10] ?? '');
        if (extra === 'Select tables optimized away' || extra === 'No matching min/max row') away++;
        expect(d.query(fast).rows, fast).toEqual(d.query(q('(SELECT * FROM r) r')).rows);
      }
      expect(away).toBeGreaterThan(rounds / 10);
    } finally {
      d.query('DROP TABLE r');
      d.close();
    }
  });
});

describe('MIN and MAX with a bound the column cannot hold', () => {
  it('reads from the prefix and lets the condition decide (found by the wrong-answer hunter)', () => {
    const d = new Session(db);
    try {
      d.query('CREATE TABLE mb (id INT PRIMARY KEY, c0 INT, KEY k (c0))');
      d.query('INSERT INTO mb VALUES (1, 5), (5, -3), (19, 2), (-4, NULL)');
      const answer = (q: string) => d.query(q).rows[0];
      // the hunter's statements returned NULL: the fraction made the read look empty
      expect(answer('SELECT MAX(id) FROM mb WHERE id >= -1.25')).toEqual([19]);
      expect(answer('SELECT MAX(c0) FROM mb WHERE c0 >= -2.5')).toEqual([5]);
      expect(answer('SELECT MIN(id), MAX(id) FROM mb WHERE id <= 1.5')).toEqual([-4, 1]);
      expect(answer('SELECT MIN(c0) FROM mb WHERE c0 < 2.5')).toEqual([-3]);
      expect(answer('SELECT MAX(id) FROM mb WHERE id < 5000000000')).toEqual([19]);
      expect(answer('SELECT MIN(id) FROM mb WHERE id > -5000000000')).toEqual([-4]);
      // an equality it cannot hold, and a NULL bound, still match nothing
      expect(answer('SELECT MAX(id) FROM mb WHERE id = 1.5')).toEqual([null]);
      expect(answer('SELECT MAX(id) FROM mb WHERE id > NULL')).toEqual([null]);
      expect(explainLines(d, 'SELECT MAX(id) FROM mb WHERE id >= -1.25', [EXTRA])[0]).toBe(
        'Select tables optimized away',
      );
    } finally {
      d.query('DROP TABLE mb');
      d.close();
    }
  });
});

describe('MIN and MAX from index ends under other sessions', () => {
  it('find the ends of the read view: rows deleted, changed or added since are read as they were', () => {
    const reader = new Session(db);
    const writer = new Session(db);
    try {
      writer.query('CREATE TABLE mv (id INT PRIMARY KEY, k INT, KEY ik (k))');
      writer.query(
        `INSERT INTO mv VALUES ${Array.from({ length: 2000 }, (_, i) => `(${i + 1}, ${i % 100})`).join(',')}`,
      );
      reader.query('BEGIN');
      const q = 'SELECT MIN(id), MAX(id), MIN(k), MAX(k) FROM mv';
      expect(reader.query(`EXPLAIN ${q}`).rows[0]![10]).toBe('Select tables optimized away');
      const before = reader.query(q).rows;
      expect(before).toEqual([[1, 2000, 0, 99]]);
      const inK = 'SELECT MIN(id), MAX(id) FROM mv WHERE k = 42';
      const beforeK = reader.query(inK).rows;
      // committed: the ends deleted, beyond them added; uncommitted: more of both
      writer.query('DELETE FROM mv WHERE id <= 10 OR id > 1990 OR k = 0 OR k = 99');
      writer.query('INSERT INTO mv VALUES (5000, 500), (0, -7)');
      writer.query('UPDATE mv SET k = 1000 WHERE id = 1942');
      writer.query('BEGIN');
      writer.query('DELETE FROM mv WHERE k = 42');
      writer.query('INSERT INTO mv VALUES (9000, -50)');
      expect(reader.query(q).rows).toEqual(before);
      expect(reader.query(inK).rows).toEqual(beforeK);
      writer.query('ROLLBACK');
      reader.query('COMMIT');
      // a new snapshot: the committed changes, as a full read finds them
      const now = reader.query(q).rows;
      expect(now).toEqual(reader.query(q.replace('FROM mv', 'FROM (SELECT * FROM mv) x')).rows);
      expect(now).toEqual([[0, 5000, -7, 1000]]);
    } finally {
      writer.query('DROP TABLE IF EXISTS mv');
      reader.close();
      writer.close();
    }
  });

  it('an aggregate whose read finds no visible row stays NULL beside another that finds one', () => {
    const reader = new Session(db);
    const writer = new Session(db);
    try {
      writer.query('CREATE TABLE mn (id INT PRIMARY KEY, a INT, b INT, KEY ia (a), KEY ib (b))');
      writer.query('INSERT INTO mn VALUES (1, NULL, 5), (2, NULL, 6)');
      reader.query('BEGIN');
      const q = 'SELECT MIN(a), MAX(b) FROM mn';
      expect(reader.query(q).rows).toEqual([[null, 6]]);
      // an uncommitted a = 7: MIN(a)'s read meets the entry 7, whose row the reader sees with a NULL
      writer.query('BEGIN');
      writer.query('UPDATE mn SET a = 7 WHERE id = 1');
      expect(reader.query(`EXPLAIN ${q}`).rows[0]![10]).toBe('Select tables optimized away');
      expect(reader.query(q).rows).toEqual([[null, 6]]);
      writer.query('ROLLBACK');
      reader.query('COMMIT');
    } finally {
      writer.query('DROP TABLE IF EXISTS mn');
      reader.close();
      writer.close();
    }
  });

  it('a locking read reads the table as planned: the same answer', () => {
    const x = new Session(db);
    try {
      x.query('BEGIN');
      x.query('FLUSH STATUS');
      expect(x.query('SELECT MIN(m), MAX(m) FROM t WHERE k = 5 FOR UPDATE').rows).toEqual([[0, 6]]);
      expect(x.status().Handler_read_next).toBe(10);
      x.query('ROLLBACK');
    } finally {
      x.close();
    }
  });
});
