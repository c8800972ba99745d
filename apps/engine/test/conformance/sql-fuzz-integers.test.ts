// A small differential run against SQLite, beside sql-fuzz.test.ts (this one nests arithmetic
// deeper): random integer tables (NULLs, duplicates, negatives)
// and random SELECTs over them (predicates with AND/OR/NOT/IS NULL/BETWEEN/IN, + − × arithmetic,
// joins, GROUP BY with COUNT/MIN/MAX/SUM, DISTINCT, ORDER BY + LIMIT). Integer arithmetic,
// comparison and three-valued logic agree between MySQL and SQLite; SUM is compared as a number
// (MySQL returns a DECIMAL). Division is left out (MySQL's is decimal, SQLite's integer).
import Sqlite from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const COLS = ['a', 'b', 'c'];
const value = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -5, max: 5 }),
  fc.integer({ min: -1000, max: 1000 }),
);
const row = fc.tuple(value, value, value);
const table = fc.array(row, { minLength: 0, maxLength: 12 });

const col = (t: string): fc.Arbitrary<string> => fc.constantFrom(...COLS.map((c) => `${t}.${c}`));
const lit = fc.oneof(fc.integer({ min: -6, max: 6 }).map(String), fc.constant('NULL'));
const expr = (t: string): fc.Arbitrary<string> =>
  fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      col(t),
      lit,
      fc.tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e')).map(([x, o, y]) => `(${x} ${o} ${y})`),
    ),
  })).e;
const pred = (t: string): fc.Arbitrary<string> =>
  fc.letrec<{ p: string }>((tie) => ({
    p: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc
        .tuple(expr(t), fc.constantFrom('=', '<>', '<', '<=', '>', '>='), expr(t))
        .map(([x, o, y]) => `${x} ${o} ${y}`),
      expr(t).map((x) => `${x} IS NULL`),
      fc.tuple(expr(t), lit, lit).map(([x, l, h]) => `${x} BETWEEN ${l} AND ${h}`),
      fc
        .tuple(expr(t), fc.array(lit, { minLength: 1, maxLength: 4 }))
        .map(([x, l]) => `${x} IN (${l.join(', ')})`),
      fc.tuple(tie('p'), fc.constantFrom('AND', 'OR'), tie('p')).map(([x, o, y]) => `(${x} ${o} ${y})`),
      tie('p').map((x) => `NOT (${x})`),
    ),
  })).p;

const query = fc.oneof(
  fc.tuple(expr('t1'), expr('t1'), pred('t1')).map(([x, y, p]) => `SELECT ${x}, ${y} FROM t1 WHERE ${p}`),
  fc.tuple(expr('t1'), pred('t1')).map(([x, p]) => `SELECT DISTINCT ${x} FROM t1 WHERE ${p}`),
  fc
    .tuple(col('t1'), pred('t1'))
    .map(
      ([g, p]) => `SELECT ${g}, COUNT(*), MIN(t1.b), MAX(t1.c), SUM(t1.a) FROM t1 WHERE ${p} GROUP BY ${g}`,
    ),
  fc
    .tuple(col('t1'), col('t2'), pred('t1'))
    .map(([x, y, p]) => `SELECT t1.a, t2.b FROM t1, t2 WHERE ${x} = ${y} AND ${p}`),
  fc.tuple(col('t1'), col('t2')).map(([x, y]) => `SELECT t1.a, t2.c FROM t1 LEFT JOIN t2 ON ${x} = ${y}`),
  fc
    .tuple(pred('t1'), fc.integer({ min: 0, max: 5 }))
    .map(([p, n]) => `SELECT t1.a, t1.b, t1.c FROM t1 WHERE ${p} ORDER BY t1.a, t1.b, t1.c LIMIT ${n}`),
  fc
    .tuple(col('t1'), pred('t2'))
    .map(([x, p]) => `SELECT t1.a FROM t1 WHERE ${x} IN (SELECT t2.a FROM t2 WHERE ${p})`),
  fc
    .tuple(pred('t2'))
    .map(([p]) => `SELECT t1.b FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND ${p})`),
);

function norm(rows: unknown[][], ordered: boolean): string[] {
  const out = rows.map((r) => JSON.stringify(r.map((v) => (v === null ? null : Number(v)))));
  return ordered ? out : out.sort();
}

describe('differential against SQLite', () => {
  it('random tables and queries give the same rows', () => {
    fc.assert(
      fc.property(table, table, query, (r1, r2, q) => {
        const db = Database.temporary();
        const lite = new Sqlite(':memory:');
        try {
          const s = new Session(db);
          for (const [name, rows] of [
            ['t1', r1],
            ['t2', r2],
          ] as const) {
            const ddl = `CREATE TABLE ${name} (a INTEGER, b INTEGER, c INTEGER)`;
            s.query(ddl);
            lite.exec(ddl);
            if (rows.length > 0) {
              const ins = `INSERT INTO ${name} VALUES ${rows.map((r) => `(${r.map((v) => (v === null ? 'NULL' : v)).join(', ')})`).join(', ')}`;
              s.query(ins);
              lite.exec(ins);
            }
          }
          const ordered = /ORDER BY/.test(q);
          const ours = norm(s.query(q).rows, ordered);
          const theirs = norm(lite.prepare(q).raw().all() as unknown[][], ordered);
          expect(ours).toEqual(theirs);
        } finally {
          db.close();
          lite.close();
        }
      }),
      { numRuns: Number(process.env.SQL_FUZZ_RUNS ?? 150) },
    );
  });
});
