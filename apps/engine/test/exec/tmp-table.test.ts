// GROUP BY, DISTINCT and UNION past tmp_table_size: the internal temporary table goes to disk
// (Created_tmp_disk_tables) and the answer stays the in-memory one, and SQLite's.
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { liveSpillDirectories } from '@enginekit/common';

const ROWS = 3000;
let db: Database;
let s: Session;
let lite: Sqlite.Database;

/** Deterministic rows: a with ~700 distinct values (and NULLs), b small, c text, d DECIMAL. */
function data(): string[] {
  const out: string[] = [];
  let x = 12345;
  for (let i = 0; i < ROWS; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const a = i % 17 === 0 ? 'NULL' : String(x % 700);
    const b = String((x >> 8) % 5);
    const c = `'k${(x >> 4) % 40}'`;
    const d = `${(x % 100000) - 50000}.${String(x % 100).padStart(2, '0')}`;
    out.push(`(${i}, ${a}, ${b}, ${c}, ${d})`);
  }
  return out;
}

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  lite = new Sqlite(':memory:');
  s.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(10), d DECIMAL(9,2))');
  lite.exec('CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(10), d TEXT)');
  const rows = data();
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500).join(', ');
    s.query(`INSERT INTO t VALUES ${chunk}`);
    lite.exec(`INSERT INTO t VALUES ${chunk.replace(/, (-?\d+\.\d\d)\)/g, ", '$1')")}`);
  }
});
afterAll(() => {
  s.close();
  db.close();
  lite.close();
});

const QUERIES: readonly [string, string][] = [
  // [enginekit, SQLite] (the same query; SQLite sums the DECIMAL text as an exact integer of cents)
  [
    'SELECT a, b, COUNT(*), SUM(id), MIN(c), MAX(c) FROM t GROUP BY a, b ORDER BY a, b',
    'SELECT a, b, COUNT(*), SUM(id), MIN(c), MAX(c) FROM t GROUP BY a, b ORDER BY a, b',
  ],
  [
    'SELECT a, COUNT(DISTINCT b), CAST(SUM(d) * 100 AS SIGNED) FROM t GROUP BY a ORDER BY a',
    "SELECT a, COUNT(DISTINCT b), SUM(CAST(REPLACE(d, '.', '') AS INTEGER)) FROM t GROUP BY a ORDER BY a",
  ],
  [
    'SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 4 ORDER BY a LIMIT 50',
    'SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 4 ORDER BY a LIMIT 50',
  ],
  ['SELECT DISTINCT a, b FROM t ORDER BY a, b', 'SELECT DISTINCT a, b FROM t ORDER BY a, b'],
  ['SELECT DISTINCT c, b FROM t ORDER BY b, c', 'SELECT DISTINCT c, b FROM t ORDER BY b, c'],
  [
    'SELECT a, c FROM t WHERE b < 3 UNION SELECT b, c FROM t ORDER BY 1, 2',
    'SELECT a, c FROM t WHERE b < 3 UNION SELECT b, c FROM t ORDER BY 1, 2',
  ],
  [
    'SELECT COUNT(*) FROM (SELECT DISTINCT a, b, c FROM t) x',
    'SELECT COUNT(*) FROM (SELECT DISTINCT a, b, c FROM t) x',
  ],
];

const sorted = (rows: unknown[][]): string[] => rows.map((r) => JSON.stringify(r.map(String))).sort();

function counters(): [number, number] {
  const rows = s.query("SHOW SESSION STATUS LIKE 'Created_tmp%'").rows;
  const get = (n: string): number => Number(rows.find((r) => r[0] === n)?.[1]);
  return [get('Created_tmp_tables'), get('Created_tmp_disk_tables')];
}

describe('internal temporary tables past tmp_table_size', () => {
  it('give the in-memory answer and SQLite’s, and count the disk table', () => {
    for (const [ours, theirs] of QUERIES) {
      s.query('SET SESSION tmp_table_size = DEFAULT');
      s.query('FLUSH STATUS');
      const memory = s.query(ours).rows;
      expect(counters()[1], `${ours}: in memory`).toBe(0);
      s.query('SET SESSION tmp_table_size = 1024');
      s.query('FLUSH STATUS');
      const disk = s.query(ours).rows;
      const [tmp, onDisk] = counters();
      expect(onDisk, `${ours}: on disk`).toBeGreaterThanOrEqual(1);
      expect(onDisk).toBeLessThanOrEqual(tmp);
      expect(disk, ours).toEqual(memory);
      const want = lite.prepare(theirs).raw(true).all() as unknown[][];
      const norm = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v === null ? null : String(v))));
      expect(norm(disk), ours).toEqual(norm(want));
    }
    expect(liveSpillDirectories(), 'temp files left').toBe(0);
  });

  it('without ORDER BY: the same rows, and a LIMIT that stops in the spilled part', () => {
    s.query('SET SESSION tmp_table_size = DEFAULT');
    const all = s.query('SELECT a, b, COUNT(*) FROM t GROUP BY a, b').rows;
    s.query('SET SESSION tmp_table_size = 1024');
    expect(sorted(s.query('SELECT a, b, COUNT(*) FROM t GROUP BY a, b').rows)).toEqual(sorted(all));
    const some = s.query('SELECT a, b, COUNT(*) FROM t GROUP BY a, b LIMIT 300').rows;
    expect(some.length).toBe(300);
    const allSet = new Set(sorted(all));
    for (const r of sorted(some)) expect(allSet.has(r)).toBe(true);
    expect(new Set(sorted(some)).size).toBe(300);
    s.query('SET SESSION tmp_table_size = DEFAULT');
    expect(liveSpillDirectories(), 'temp files left').toBe(0);
  });

  it('uses min(tmp_table_size, max_heap_table_size), MySQL’s names and 16M defaults', () => {
    expect(s.query('SELECT @@tmp_table_size, @@max_heap_table_size').rows).toEqual([[16777216, 16777216]]);
    s.query('SET SESSION max_heap_table_size = 16384');
    s.query('FLUSH STATUS');
    s.query('SELECT a, b, c, COUNT(*) FROM t GROUP BY a, b, c');
    expect(counters()).toEqual([1, 1]);
    s.query('SET SESSION max_heap_table_size = DEFAULT');
    s.query('FLUSH STATUS');
    s.query('SELECT a, b, c, COUNT(*) FROM t GROUP BY a, b, c');
    expect(counters()).toEqual([1, 0]);
  });
});
