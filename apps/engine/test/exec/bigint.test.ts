// BIGINT over its whole signed 64-bit range and DECIMAL up to 65 digits, through SQL: stored in
// rows and keys (primary and secondary), compared, joined, grouped, sorted and summed exactly.
// The oracle for storage and comparison is SQLite (better-sqlite3 with safeIntegers: its INTEGER
// is the same signed 64-bit range); SUM is checked against BigInt arithmetic (MySQL's SUM of a
// BIGINT is an exact DECIMAL, SQLite's overflows); overflow as MySQL reports it (error 1690).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session, type SqlError } from '../../src/index.js';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});
function fresh() {
  const db = Database.temporary();
  dbs.push(db);
  return { db, s: new Session(db) };
}

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const EDGES = [MIN, MIN + 1n, MAX, MAX - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 0n, -1n, 1n];
const big = fc.oneof(
  { weight: 2, arbitrary: fc.bigInt({ min: MIN, max: MAX }) },
  { weight: 1, arbitrary: fc.constantFrom(...EDGES) },
  { weight: 1, arbitrary: fc.bigInt({ min: -3n, max: 3n }) },
);
/** Rows (id, a, b): id unique, a and b any (with duplicates and NULLs). */
const rows = fc
  .uniqueArray(big, { minLength: 1, maxLength: 25 })
  .chain((ids) =>
    fc.tuple(
      fc.constant(ids),
      fc.array(fc.option(big, { freq: 5 }), { minLength: ids.length, maxLength: ids.length }),
      fc.array(fc.option(fc.constantFrom(...EDGES), { freq: 5 }), {
        minLength: ids.length,
        maxLength: ids.length,
      }),
    ),
  )
  .map(([ids, a, b]) => ids.map((id, i) => [id, a[i] ?? null, b[i] ?? null] as const));

const lit = (v: bigint | null): string => (v === null ? 'NULL' : `${v}`);
const text = (v: unknown): string => (v === null ? 'NULL' : String(v));

const QUERIES = (k: bigint): string[] => [
  'SELECT id, a, b FROM t ORDER BY id',
  'SELECT a FROM t ORDER BY a DESC, id',
  `SELECT id FROM t WHERE id = ${k} ORDER BY id`,
  `SELECT id FROM t WHERE a = ${k} ORDER BY id`,
  `SELECT id FROM t WHERE id > ${k} ORDER BY id`,
  `SELECT id FROM t WHERE a <= ${k} ORDER BY id`,
  `SELECT id FROM t WHERE a BETWEEN ${k} AND ${MAX} ORDER BY id`,
  `SELECT id FROM t WHERE b IN (${EDGES.slice(0, 4).join(', ')}) ORDER BY id`,
  'SELECT x.id, y.id FROM t x JOIN t y ON x.a = y.b ORDER BY x.id, y.id',
  'SELECT b, COUNT(*) FROM t GROUP BY b ORDER BY b',
  'SELECT DISTINCT b FROM t ORDER BY b',
  'SELECT MIN(id), MAX(id), MIN(a), MAX(a), COUNT(a) FROM t',
  'SELECT id FROM t WHERE a < b ORDER BY id',
  'SELECT CAST(a AS CHAR) FROM t ORDER BY id',
];

describe('BIGINT: the full signed 64-bit range', () => {
  it('stores, indexes, compares, joins, groups and sorts exactly as SQLite', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT, b BIGINT, KEY ka (a), KEY kb (b))');
    fc.assert(
      fc.property(rows, big, (data, k) => {
        const lite = new Sqlite(':memory:');
        try {
          lite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)');
          lite.exec('CREATE INDEX ka ON t (a)');
          s.query('DELETE FROM t');
          const values = data.map((r) => `(${r.map(lit).join(', ')})`).join(', ');
          s.query(`INSERT INTO t VALUES ${values}`);
          lite.exec(`INSERT INTO t VALUES ${values}`);
          db.table('t').checkIndexes();
          for (const q of QUERIES(k)) {
            const st = lite.prepare(q);
            st.safeIntegers(true);
            st.raw(true);
            const want = (st.all() as unknown[][]).map((r) => r.map(text));
            const ours = s.query(q).rows.map((r) => r.map(text));
            expect(ours, q).toEqual(want);
          }
          // SUM and AVG are exact DECIMALs (SQLite's SUM would overflow)
          const as = data.map((r) => r[1]).filter((v): v is bigint => v !== null);
          const sum = as.reduce((x, y) => x + y, 0n);
          const got = s.query('SELECT SUM(a), SUM(id) FROM t').rows[0]!;
          expect(got[0]).toBe(as.length === 0 ? null : sum.toString());
          expect(got[1]).toBe(data.reduce((x, r) => x + r[0], 0n).toString());
        } finally {
          lite.close();
        }
      }),
      { numRuns: 40, seed: 20261201 },
    );
  });

  it('returns numbers while safe and BigInt beyond', () => {
    const { s } = fresh();
    s.query('CREATE TABLE t (id BIGINT PRIMARY KEY)');
    s.query(`INSERT INTO t VALUES (${2n ** 53n - 1n}), (${2n ** 53n}), (${MIN})`);
    expect(s.query('SELECT id FROM t ORDER BY id').rows).toEqual([[MIN], [2 ** 53 - 1], [2n ** 53n]]);
    expect(s.query('SELECT id FROM t WHERE id = ?', [2n ** 53n]).rows).toEqual([[2n ** 53n]]);
  });

  it('keeps every value across a reopen of the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sql-bigint-'));
    try {
      const path = join(dir, 'wide.ekdb');
      const d = '-99999999999999999999999999999999999.999999999999999999999999999999';
      const db = Database.create(path, { innodb_log_file_size: 1 << 20 });
      new Session(db).query('CREATE TABLE t (id BIGINT PRIMARY KEY, d DECIMAL(65,30))');
      new Session(db).query(`INSERT INTO t VALUES (${MAX}, ${d}), (${MIN}, 0.5)`);
      db.close();
      const again = Database.open(path);
      try {
        expect(new Session(again).query('SELECT id, d FROM t ORDER BY id').rows).toEqual([
          [MIN, '0.500000000000000000000000000000'],
          [MAX, d],
        ]);
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses out-of-range values and overflow as MySQL (1264, 1690)', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE t (id BIGINT PRIMARY KEY, u BIGINT UNSIGNED)');
    s.query(`INSERT INTO t VALUES (${MAX}, 0), (${MIN}, 1)`);
    for (const bad of [`${MAX + 1n}`, `'${MIN - 1n}'`, '1e19', '-9.3e18'])
      expect(() => s.query(`INSERT INTO t VALUES (${bad}, 0)`), bad).toThrow(
        /Out of range value for column 'id' at row 1/,
      );
    expect(() => s.query('INSERT INTO t VALUES (5, -1)')).toThrow(/Out of range value for column 'u'/);
    db.table('t').checkIndexes();
    const overflow = (sql: string): SqlError => {
      try {
        s.query(sql);
      } catch (e) {
        return e as SqlError;
      }
      throw new Error(`no error from ${sql}`);
    };
    for (const [sql, expr] of [
      ['SELECT id + 1 FROM t WHERE id > 0', 'id + 1'],
      ['SELECT id - 1 FROM t WHERE id < 0', 'id - 1'],
      ['SELECT id * 2 FROM t WHERE id > 0', 'id * 2'],
      ['SELECT -id FROM t WHERE id < 0', '-id'],
      [`SELECT ${MAX} + 1`, `${MAX} + 1`],
    ] as const) {
      const e = overflow(sql);
      expect([e.errno, e.code, e.message]).toEqual([
        1690,
        'ER_DATA_OUT_OF_RANGE',
        `BIGINT value is out of range in '${expr}'`,
      ]);
    }
    // recorded on MariaDB 10.11.19 (which prints columns qualified: `d`.`a`): the error names the
    // failing operation from its first token
    // (a leading minus included) to its last; `-9223372036854775808` is a BIGINT, not a DECIMAL
    for (const [sql, expr] of [
      ['SELECT -9223372036854775808 - 1', '-9223372036854775808 - 1'],
      ['SELECT -9223372036854775807 - 2', '-9223372036854775807 - 2'],
      ['SELECT -a - 9223372036854775807 FROM (SELECT 5 a) d', '-a - 9223372036854775807'],
      ['SELECT -(a + 1) - 9223372036854775807 FROM (SELECT 5 a) d', '-(a + 1) - 9223372036854775807'],
    ] as const) {
      const e = overflow(sql);
      expect([e.errno, e.message]).toEqual([1690, `BIGINT value is out of range in '${expr}'`]);
    }
    // MariaDB: BIGINT UNSIGNED value is out of range in '0 - 9223372036854775808' (the inner operation)
    expect(overflow('SELECT 0 - 9223372036854775808 - 1').message).toBe(
      "BIGINT UNSIGNED value is out of range in '0 - 9223372036854775808'",
    );
    // MariaDB: -9223372036854775808 bigint(20), -9223372036854775809 decimal(19,0),
    // 9223372036854775808 bigint(19) unsigned
    const r = s.query(
      'SELECT -9223372036854775808, -(9223372036854775808), -9223372036854775809, 9223372036854775808',
    );
    expect(r.rows).toEqual([[MIN, MIN, '-9223372036854775809', 9223372036854775808n]]);
    expect(r.types?.map((x) => x.kind)).toEqual(['int', 'int', 'dec', 'int']);
    // at the edge, no overflow
    expect(s.query(`SELECT ${MAX - 1n} + 1, ${MIN + 1n} - 1, id DIV 2 FROM t ORDER BY id`).rows).toEqual([
      [MAX, MIN, MIN / 2n],
      [MAX, MIN, MAX / 2n],
    ]);
  });

  it('CAST to SIGNED saturates at the 64-bit bounds, to DECIMAL stays exact', () => {
    const { s } = fresh();
    expect(
      s.query(
        "SELECT CAST('99999999999999999999' AS SIGNED), CAST(-1e30 AS SIGNED), CAST(123456789012345678901234.5 AS SIGNED), CAST(9223372036854775807 AS DECIMAL(25,2))",
      ).rows,
    ).toEqual([[MAX, MIN, MAX, '9223372036854775807.00']]);
  });
});

describe('DECIMAL up to 65 digits', () => {
  it('stores and orders wide values through a key as exactly as they were written', () => {
    const { db, s } = fresh();
    s.query('CREATE TABLE d (k DECIMAL(40,10) PRIMARY KEY, v DECIMAL(65,0), KEY kv (v))');
    const ks = [
      '123456789012345678901234567890.0123456789',
      '-123456789012345678901234567890.0123456789',
      '0.5000000000',
      '-0.5000000000',
      '999999999999999999999999999999.9999999999',
      '0.0000000001',
    ];
    const v = (i: number): string => (i % 2 === 0 ? '9'.repeat(65) : `-${'1'.repeat(64)}`);
    s.query(`INSERT INTO d VALUES ${ks.map((k, i) => `(${k}, ${v(i)})`).join(', ')}`);
    db.table('d').checkIndexes();
    const sorted = [...ks].sort((x, y) => Number(x) - Number(y));
    expect(s.query('SELECT k FROM d ORDER BY k').rows.map((r) => r[0])).toEqual(sorted);
    expect(s.query('SELECT k FROM d WHERE k > 0.5 ORDER BY k').rows.map((r) => r[0])).toEqual([
      '123456789012345678901234567890.0123456789',
      '999999999999999999999999999999.9999999999',
    ]);
    expect(s.query('SELECT k FROM d WHERE k = 0.5').rows).toEqual([['0.5000000000']]);
    expect(s.query(`SELECT COUNT(*) FROM d WHERE v = ${'9'.repeat(65)}`).rows).toEqual([[3]]);
    // the pairs cancel: 999…9.9999999999 + 0.0000000001
    expect(s.query('SELECT SUM(k) FROM d').rows).toEqual([['1000000000000000000000000000000.0000000000']]);
    // a product past 81 integer digits (MySQL's decimal buffer) is error 1690
    const e = (() => {
      try {
        s.query('SELECT k * k * k FROM d WHERE k > 1');
      } catch (x) {
        return x as SqlError;
      }
      return undefined;
    })();
    expect([e?.errno, e?.message]).toEqual([1690, "DECIMAL value is out of range in 'k * k * k'"]);
    expect(s.query('SELECT COUNT(k * k) FROM d').rows).toEqual([[6]]);
    expect(() => s.query(`INSERT INTO d VALUES (${'1'.repeat(31)}, 0)`)).toThrow(
      /Out of range value for column 'k' at row 1/,
    );
  });
});
