// The subquery cache (MariaDB's expression cache, `optimizer_switch` subquery_cache): a correlated
// subquery's result kept per set of the outer values it reads. Rows and counters pinned from a
// private MariaDB 10.11.19 running the same statements on the same tables (after ANALYZE TABLE);
// then random correlated queries answer the same with the cache on and off, and a subquery that
// reads a user variable or calls LAST_INSERT_ID() is never cached.
import { describe, expect, it } from 'vitest';
import { temporarySession } from '../helpers/temporary.js';
import { plainRows } from '../helpers/explain.js';

const s = temporarySession();
// sc1: seq 1–40, a = seq % 5, b = NULL when seq % 7 = 0 else seq % 3
// sc2: seq 1–60, x = seq % 6, y = seq; sc3: seq 1–300, a = seq
s.query('CREATE TABLE sc1 (id INT PRIMARY KEY, a INT, b INT)');
s.query('CREATE TABLE sc2 (id INT PRIMARY KEY, x INT, y INT, KEY kx (x))');
s.query('CREATE TABLE sc3 (id INT PRIMARY KEY, a INT)');
const seq = (n: number, f: (i: number) => string): string =>
  Array.from({ length: n }, (_, j) => `(${f(j + 1)})`).join(', ');
s.query(`INSERT INTO sc1 VALUES ${seq(40, (i) => `${i}, ${i % 5}, ${i % 7 === 0 ? 'NULL' : i % 3}`)}`);
s.query(`INSERT INTO sc2 VALUES ${seq(60, (i) => `${i}, ${i % 6}, ${i}`)}`);
s.query(`INSERT INTO sc3 VALUES ${seq(300, (i) => `${i}, ${i}`)}`);
s.query('ANALYZE TABLE sc1, sc2, sc3');

const COUNTERS = [
  'Subquery_cache_hit',
  'Subquery_cache_miss',
  'Handler_read_key',
  'Handler_tmp_write',
  'Created_tmp_tables',
] as const;

/** Runs `sql`: its rows and how far each counter moved (the cache's two are global, as MariaDB's). */
function run(sql: string): { rows: unknown[][]; moved: Record<(typeof COUNTERS)[number], number> } {
  const before = s.status();
  const rows = plainRows(s.query(sql).rows);
  const after = s.status();
  const moved = Object.fromEntries(COUNTERS.map((c) => [c, (after[c] ?? 0) - (before[c] ?? 0)]));
  return { rows, moved: moved as Record<(typeof COUNTERS)[number], number> };
}

describe('subquery cache', () => {
  it("a scalar subquery in WHERE: MariaDB's rows and counters", () => {
    // MariaDB: 8 | hit 32, miss 8 (3 distinct b, and 5 NULL b that never hit); Handler_read_key
    // 38 = 3 kx lookups + 35 cache lookups (none for a NULL key); Handler_tmp_write 8;
    // Created_tmp_tables 1
    const r = run('SELECT COUNT(*) FROM sc1 WHERE sc1.id > (SELECT AVG(y) FROM sc2 WHERE sc2.x = sc1.b)');
    expect(r.rows).toEqual([[8]]);
    expect(r.moved.Subquery_cache_hit).toBe(32);
    expect(r.moved.Subquery_cache_miss).toBe(8);
    expect(r.moved.Handler_tmp_write).toBe(8);
    expect(r.moved.Created_tmp_tables).toBe(1);
    expect(r.moved.Handler_read_key).toBe(38);
  });

  it("a scalar subquery in the select list: MariaDB's rows and counters", () => {
    // MariaDB: a = 1, 2, 3, 4, 0, 1, … for ids 1–12: hit 7, miss 5
    const r = run(
      'SELECT id, (SELECT MAX(y) FROM sc2 WHERE sc2.x = sc1.a) AS m FROM sc1 WHERE id <= 12 ORDER BY id',
    );
    expect(r.rows).toEqual([
      [1, 55],
      [2, 56],
      [3, 57],
      [4, 58],
      [5, 60],
      [6, 55],
      [7, 56],
      [8, 57],
      [9, 58],
      [10, 60],
      [11, 55],
      [12, 56],
    ]);
    expect(r.moved.Subquery_cache_hit).toBe(7);
    expect(r.moved.Subquery_cache_miss).toBe(5);
  });

  it("a correlated NOT IN / IN: the left operand is part of the key; MariaDB's rows and counters", () => {
    // MariaDB: 5 and 35 | hit 20, miss 20 each (15 (a, b) pairs and 5 NULL b), Handler_tmp_write
    // 20 (MariaDB reads the subquery as index_subquery with "Full scan on NULL key", the engine as
    // a set: their Handler_read_key counts differ)
    const notIn = run(
      'SELECT COUNT(*) FROM sc1 WHERE sc1.a NOT IN (SELECT x FROM sc2 WHERE sc2.y > sc1.b * 20)',
    );
    expect(notIn.rows).toEqual([[5]]);
    expect([
      notIn.moved.Subquery_cache_hit,
      notIn.moved.Subquery_cache_miss,
      notIn.moved.Handler_tmp_write,
    ]).toEqual([20, 20, 20]);
    const inOr = run(
      'SELECT COUNT(*) FROM sc1 WHERE sc1.a IN (SELECT x FROM sc2 WHERE sc2.y > sc1.b * 20) OR sc1.id = 1',
    );
    expect(inOr.rows).toEqual([[35]]);
    expect([inOr.moved.Subquery_cache_hit, inOr.moved.Subquery_cache_miss]).toEqual([20, 20]);
  });

  it('200 misses at a hit rate below 20 % switch the cache off, as MariaDB does', () => {
    // MariaDB: 299 | hit 0, miss 200, Handler_read_key 200 (the cache's lookups: sc2 has no index
    // on y), Handler_tmp_write 199 (the 200th miss switched the cache off before its write)
    const r = run('SELECT COUNT(*) FROM sc3 WHERE sc3.a > (SELECT COUNT(*) FROM sc2 WHERE sc2.y = sc3.id)');
    expect(r.rows).toEqual([[299]]);
    expect(r.moved).toEqual({
      Subquery_cache_hit: 0,
      Subquery_cache_miss: 200,
      Handler_read_key: 200,
      Handler_tmp_write: 199,
      Created_tmp_tables: 1,
    });
  });

  it('a subquery that reads a user variable or calls LAST_INSERT_ID() is not cached; SYSDATE() is, as in MariaDB', () => {
    // MariaDB: 8 and hit 0, miss 0 for the first two; 8 and hit 32, miss 8 for SYSDATE()
    const where = (e: string): string =>
      `SELECT COUNT(*) FROM sc1 WHERE sc1.id > (SELECT AVG(y) + ${e} FROM sc2 WHERE sc2.x = sc1.b)`;
    s.query('SET @k = 0');
    for (const e of ['@k', 'LAST_INSERT_ID() * 0']) {
      const r = run(where(e));
      expect(r.rows, e).toEqual([[8]]);
      expect(r.moved.Subquery_cache_hit + r.moved.Subquery_cache_miss, e).toBe(0);
    }
    const r = run(where('0 * SECOND(SYSDATE())'));
    expect(r.rows).toEqual([[8]]);
    expect([r.moved.Subquery_cache_hit, r.moved.Subquery_cache_miss]).toEqual([32, 8]);
  });

  it('subquery_cache=off runs the subquery every time', () => {
    s.query("SET optimizer_switch = 'subquery_cache=off'");
    try {
      const r = run('SELECT COUNT(*) FROM sc1 WHERE sc1.id > (SELECT AVG(y) FROM sc2 WHERE sc2.x = sc1.b)');
      expect(r.rows).toEqual([[8]]);
      expect(r.moved.Subquery_cache_hit + r.moved.Subquery_cache_miss).toBe(0);
    } finally {
      s.query("SET optimizer_switch = 'subquery_cache=on'");
    }
  });

  it('random correlated subqueries answer the same with the cache on and off', () => {
    let seed = 3;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const outerCols = ['sc1.a', 'sc1.b', 'sc1.id', 'sc1.a + sc1.b'];
    const aggs = ['COUNT(*)', 'MAX(y)', 'MIN(id)', 'SUM(y)', 'AVG(x)'];
    let cached = 0;
    for (let i = 0; i < 120; i++) {
      const o1 = outerCols[rnd(outerCols.length)]!;
      const o2 = outerCols[rnd(outerCols.length)]!;
      const agg = aggs[rnd(aggs.length)]!;
      const inner = `SELECT ${agg} FROM sc2 WHERE sc2.x = ${o1}${rnd(2) === 0 ? ` AND sc2.y > ${o2}` : ''}`;
      const shapes = [
        `SELECT id, (${inner}) FROM sc1 ORDER BY id`,
        `SELECT COUNT(*) FROM sc1 WHERE sc1.id >= (${inner})`,
        `SELECT id FROM sc1 WHERE EXISTS (SELECT 1 FROM sc2 WHERE sc2.x = ${o1} AND sc2.y < ${o2}) ORDER BY id`,
        `SELECT id FROM sc1 WHERE NOT EXISTS (${inner} HAVING COUNT(*) > 9) ORDER BY id`,
        `SELECT id FROM sc1 WHERE ${o2} IN (SELECT x FROM sc2 WHERE sc2.y > ${o1} * 3) ORDER BY id`,
        `SELECT id, ${o2} NOT IN (SELECT y % 7 FROM sc2 WHERE sc2.x = ${o1}) FROM sc1 ORDER BY id`,
      ];
      const sql = shapes[rnd(shapes.length)]!;
      const on = run(sql);
      cached += on.moved.Subquery_cache_hit;
      s.query("SET optimizer_switch = 'subquery_cache=off'");
      try {
        expect(on.rows, sql).toEqual(plainRows(s.query(sql).rows));
      } finally {
        s.query("SET optimizer_switch = 'subquery_cache=on'");
      }
    }
    expect(cached).toBeGreaterThan(1000);
  });
});
