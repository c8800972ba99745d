// A DECIMAL read from an index entry (a covering read, a pushed index condition) against the same
// DECIMAL read from the row (the index ignored). An entry's scaled integer lands as a number up
// to six magnitude bytes and as a bigint beyond, as a stored row's lands as a number while it is a
// safe integer: every expression, aggregate, comparison and sort must give the same answer either
// way. The values straddle those widths on both sides of zero.
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

let db: Database;
let s: Session;

/** Scaled integers (scale 4) at the edges of 1…8 magnitude bytes and of 2^53, and beyond. */
function edgeValues(): bigint[] {
  const out = new Set<bigint>([0n, 1n, 255n, 256n, 9999n, 10000n]);
  for (let bytes = 1; bytes <= 9; bytes++) {
    const top = 1n << BigInt(8 * bytes);
    for (const v of [top - 1n, top, top + 1n]) out.add(v);
  }
  for (const v of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 10n ** 25n - 1n]) out.add(v);
  const all = [...out];
  return [...all, ...all.filter((v) => v !== 0n).map((v) => -v)];
}

/** A scaled integer at scale 4 as a DECIMAL literal. */
function literal(v: bigint): string {
  const neg = v < 0n;
  const m = (neg ? -v : v).toString().padStart(5, '0');
  return `${neg ? '-' : ''}${m.slice(0, -4)}.${m.slice(-4)}`;
}

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE d (id INT PRIMARY KEY, g INT, x DECIMAL(30,4), KEY ix (x), KEY igx (g, x))');
  const g = new Pcg32({ seed: 0x5eed });
  const below = (n: number) => g.nextBelow(n);
  const edges = edgeValues();
  const rows: string[] = [];
  let id = 0;
  for (const v of edges) rows.push(`(${++id}, ${id % 5}, ${literal(v)})`);
  // random values of every width, and NULLs
  for (let i = 0; i < 600; i++) {
    const bytes = 1 + below(8);
    let v = 0n;
    for (let j = 0; j < bytes; j++) v = (v << 8n) | BigInt(below(256));
    if (below(2) === 0) v = -v;
    rows.push(`(${++id}, ${id % 5}, ${below(20) === 0 ? 'NULL' : literal(v)})`);
  }
  s.query(`INSERT INTO d VALUES ${rows.join(',')}`);
  s.query('ANALYZE TABLE d');
});

afterAll(() => {
  s.close();
  db.close();
});

/** The Extra column of EXPLAIN's first line. */
function extra(sql: string): string {
  return String(s.query(`EXPLAIN ${sql}`).rows[0]![10] ?? '');
}

/** Rows as text, so a number and a bigint of one value compare equal only through the wire's form. */
function text(sql: string): string[] {
  return s.query(sql).rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));
}

const queries = [
  'SELECT SUM(x), MIN(x), MAX(x), COUNT(x), AVG(x) FROM d {h}',
  'SELECT COUNT(*) FROM d {h} WHERE x > 0',
  'SELECT COUNT(*) FROM d {h} WHERE x < -65536.0001',
  'SELECT x, x * 3, x + 1.5, -x, x DIV 7000000000000000 FROM d {h} ORDER BY x',
  'SELECT g, SUM(x), MAX(x) FROM d {h} GROUP BY g ORDER BY g',
  'SELECT x FROM d {h} WHERE x BETWEEN -4294967296 AND 4294967296 ORDER BY x DESC',
  'SELECT g, x FROM d {h} WHERE g = 3 AND x * 2 > 100 ORDER BY x',
  'SELECT CAST(x AS CHAR), x = 900719925474.0991, ROUND(x, 1) FROM d {h} ORDER BY x',
];

describe('a DECIMAL read from an index entry equals the one read from its row', () => {
  for (const q of queries)
    it(q.replace(' {h}', ''), () => {
      const viaIndex = q.replace('{h}', '');
      const viaRow = q.replace('{h}', 'IGNORE INDEX (ix, igx)');
      expect(extra(viaIndex)).toMatch(/Using index/);
      expect(extra(viaRow)).not.toMatch(/Using index/);
      const a = text(viaIndex);
      expect(a.length).toBeGreaterThan(0);
      expect(a).toEqual(text(viaRow));
    });
});
