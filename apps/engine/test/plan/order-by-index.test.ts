// ORDER BY read from an access path already in that order: the one table's rows come out sorted,
// the filesort is left out, and LIMIT stops the read. Checked against the same query over a
// derived table (always a filesort) on random data with NULLs, duplicates and strings equal
// under the collation, with and without DS-MRR; and which plans skip the sort, by EXPLAIN and
// the counters.
import { Pcg32 } from '@enginekit/prng';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import { temporarySession } from '../helpers/temporary.js';

/** A seeded draw in [0, n) from @enginekit/prng's PCG32, so a failure replays from its seed. */
function rng(seed: number): (n: number) => number {
  const g = new Pcg32({ seed });
  return (n) => g.nextBelow(n);
}

function setup(seed: number): Session {
  const s = temporarySession();
  s.query(
    'CREATE TABLE t (id INT PRIMARY KEY, k INT, d DECIMAL(6,2), s VARCHAR(8), dt DATE, ' +
      'KEY kk (k), KEY ks (s, d), KEY kd (dt))',
  );
  const r = rng(seed);
  const words = ['a', 'A', 'b', 'B', 'ab', 'aB', 'Ab', '', 'z', 'Z'];
  const rows: string[] = [];
  for (let i = 1; i <= 600; i++) {
    const k = r(9) === 0 ? 'NULL' : String(r(40) - 5);
    const d = r(7) === 0 ? 'NULL' : (r(2000) / 100 - 5).toFixed(2);
    const w = r(8) === 0 ? 'NULL' : `'${words[r(words.length)]}'`;
    const dt = r(6) === 0 ? 'NULL' : `'2026-0${1 + r(9)}-1${r(9)}'`;
    rows.push(`(${i * 3 - r(3)}, ${k}, ${d}, ${w}, ${dt})`);
  }
  s.query(`INSERT IGNORE INTO t VALUES ${rows.join(', ')}`);
  s.query('ANALYZE TABLE t');
  return s;
}

const explainOf = (s: Session, q: string) => s.query(`EXPLAIN ${q}`).rows[0]!;
const sorted = (s: Session, q: string): boolean =>
  !String(explainOf(s, q)[10] ?? '').includes('Using filesort');

describe('ORDER BY from an access path in order', () => {
  it('gives the filesort’s rows on random data, ordered reads or not', () => {
    const s = setup(20261206);
    const r = rng(77);
    // [select list, ORDER BY]: the ORDER BY columns are selected; one ending in id is total
    const orders: [string, string][] = [
      ['id, k', 'id'],
      ['id, k', 'k, id'],
      ['k', 'k'],
      ['id, s, d', 's, d, id'],
      ['s, d', 's, d'],
      ['s', 's'],
      ['id, dt', 'dt, id'],
      ['id, k, d, s, dt', 'k, id'],
      ['id, k, d, s, dt', 'dt'],
    ];
    const wheres = [
      '',
      'WHERE k = 7',
      'WHERE k BETWEEN 3 AND 9',
      'WHERE k IN (12, 1, 30, 4)',
      'WHERE k > 20 OR k < 0',
      "WHERE s = 'ab'",
      "WHERE s >= 'b'",
      "WHERE s = 'a' AND d > 0",
      "WHERE dt BETWEEN '2026-03-01' AND '2026-06-30'",
      'WHERE d IS NULL',
      'WHERE k IS NULL',
    ];
    let ordered = 0;
    let checks = 0;
    for (const mrr of ['mrr=off', 'mrr=on,mrr_cost_based=off']) {
      s.query(`SET optimizer_switch = '${mrr}'`);
      for (let i = 0; i < 160; i++) {
        const [cols, order] = orders[r(orders.length)]!;
        const where = wheres[r(wheres.length)]!;
        const limit = r(3) === 0 ? '' : ` LIMIT ${r(12)}${r(2) === 0 ? ` OFFSET ${r(20)}` : ''}`;
        const q = `SELECT ${cols} FROM t ${where} ORDER BY ${order}${limit}`;
        const oracle = `SELECT * FROM (SELECT ${cols} FROM t ${where}) x ORDER BY ${order}${limit}`;
        const got = s.query(q);
        const want = s.query(oracle).rows;
        // rows tied on every ORDER BY key may come in either order: the keys' sequence must be
        // the filesort's; with a total order (ending in id), the rows themselves
        const at = order.split(', ').map((c) => got.columns.indexOf(c));
        const keys = (rows: readonly unknown[][]) => rows.map((x) => JSON.stringify(at.map((j) => x[j])));
        expect(keys(got.rows), q).toEqual(keys(want));
        if (order.endsWith('id')) expect(got.rows, q).toEqual(want);
        if (sorted(s, q)) ordered++;
        checks++;
      }
    }
    expect(checks).toBe(320);
    // both kinds ran: reads in order and filesorts
    expect(ordered).toBeGreaterThan(40);
    expect(ordered).toBeLessThan(checks);
  });

  it('leaves the filesort out only where the read is in order', () => {
    const s = setup(5);
    s.query("SET optimizer_switch = 'mrr=off'");
    const skip = [
      'SELECT * FROM t ORDER BY id LIMIT 3', // the clustered index
      'SELECT k, id FROM t ORDER BY k, id LIMIT 4', // a covering full index scan
      'SELECT * FROM t WHERE k = 7 ORDER BY id', // a ref: (k, id) with k constant
      'SELECT id FROM t WHERE k BETWEEN 3 AND 5 ORDER BY k', // a range in key order
      "SELECT s, d FROM t WHERE s = 'ab' ORDER BY d", // a ref on the first key part
      'SELECT * FROM t ORDER BY id DESC LIMIT 3', // the clustered index read backward
      'SELECT * FROM t a JOIN t b ON a.id = b.id ORDER BY a.id LIMIT 3', // a join's first table
    ];
    for (const q of skip) expect(sorted(s, q), q).toBe(true);
    const keep = [
      'SELECT k, id FROM t ORDER BY k, id DESC LIMIT 3', // mixed directions
      'SELECT * FROM t ORDER BY k LIMIT 5', // a table scan: not in k order
      'SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k + 0', // grouped, sorted by an expression
      'SELECT DISTINCT k FROM t ORDER BY k', // DISTINCT
      'SELECT k FROM t ORDER BY k + 0 LIMIT 3', // an expression
      // the second table's order: MariaDB 10.11 reads b first for it (its join order weighs the
      // sort under a LIMIT); the engine's join order does not, so it sorts
      'SELECT * FROM t a JOIN t b ON a.id = b.id ORDER BY b.id LIMIT 3',
      "SELECT s, d FROM t WHERE s = 'ab' ORDER BY id", // the ref's order is (d, id)
    ];
    for (const q of keep) expect(sorted(s, q), q).toBe(false);
  });

  it('a LIMIT stops the ordered read: a few handler calls, no sort', () => {
    const s = setup(9);
    s.query('FLUSH STATUS');
    expect(s.query('SELECT * FROM t ORDER BY id LIMIT 3').rows).toHaveLength(3);
    let st = s.status();
    // the clustered index read as an index (MariaDB: index_first, then index_next)
    expect(st.Handler_read_first).toBe(1);
    expect(st.Handler_read_next).toBe(2);
    expect(st.Handler_read_rnd_next).toBe(0);
    expect(st.Sort_rows).toBe(0);
    expect(st.Sort_scan).toBe(0);
    s.query('FLUSH STATUS');
    s.query('SELECT k, id FROM t ORDER BY k, id LIMIT 4');
    st = s.status();
    // MariaDB's counts for a full index scan stopped after 4 rows
    expect(st.Handler_read_first).toBe(1);
    expect(st.Handler_read_next).toBe(3);
    expect(st.Sort_rows).toBe(0);
  });
});
