// ANALYZE TABLE through SQL: the admin result set, which estimator runs under which variables, and
// the bug #43660 case checked against numbers computed by hand from btr0cur.c's formula.
import { runExperiment } from '@enginekit/btree-sampler';
import { createGenerator } from '@enginekit/prng';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/session/session.js';
import { Database } from '../../../src/storage/database.js';
import type { Table } from '../../../src/storage/table.js';

let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function open(pageSize = 16384): { db: Database; s: Session } {
  db = Database.temporary({ innodb_page_size: pageSize, innodb_buffer_pool_size: 8 << 20 });
  return { db, s: new Session(db) };
}

describe('ANALYZE TABLE result set', () => {
  it('a table gives status OK; a missing one an Error row and Operation failed, not an error', () => {
    const { s } = open();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT, KEY k_g (g))');
    s.query('INSERT INTO t VALUES (1, 1), (2, 1), (3, 2)');
    const ok = s.query('ANALYZE TABLE t');
    expect(ok.columns).toEqual(['Table', 'Op', 'Msg_type', 'Msg_text']);
    expect(ok.rows).toEqual([['test.t', 'analyze', 'status', 'OK']]);
    expect(s.query('ANALYZE TABLE x').rows).toEqual([
      ['test.x', 'analyze', 'Error', "Table 'test.x' doesn't exist"],
      ['test.x', 'analyze', 'status', 'Operation failed'],
    ]);
  });

  it('a list of tables (which the parser does not take) is analyzed in order, qualified names too', () => {
    const { s } = open();
    s.query('CREATE TABLE a (id INT PRIMARY KEY)');
    s.query('CREATE TABLE b (id INT PRIMARY KEY)');
    expect(s.query('ANALYZE TABLE a, `x`, test.b;').rows).toEqual([
      ['test.a', 'analyze', 'status', 'OK'],
      ['test.x', 'analyze', 'Error', "Table 'test.x' doesn't exist"],
      ['test.x', 'analyze', 'status', 'Operation failed'],
      ['test.b', 'analyze', 'status', 'OK'],
    ]);
    expect(s.query('ANALYZE LOCAL TABLE b').rows).toEqual([['test.b', 'analyze', 'status', 'OK']]);
    expect(s.query('ANALYZE NO_WRITE_TO_BINLOG TABLE other.b').rows).toEqual([
      ['other.b', 'analyze', 'Error', "Table 'other.b' doesn't exist"],
      ['other.b', 'analyze', 'status', 'Operation failed'],
    ]);
  });

  it('anything else after ANALYZE TABLE is still a syntax error (1064)', () => {
    const { s } = open();
    s.query('CREATE TABLE a (id INT PRIMARY KEY)');
    for (const sql of ['ANALYZE TABLE a, b extra', 'ANALYZE TABLE', 'ANALYZE TABLE a,', 'ANALYZE LOCAL a'])
      expect(() => s.query(sql)).toThrow(expect.objectContaining({ errno: 1064 }));
  });

  it('the dictionary table of the SQL layer is not a table ANALYZE can see', () => {
    const { s } = open();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT DEFAULT 3)');
    expect(s.query('ANALYZE TABLE `#sql_meta`').rows[0]).toEqual([
      'test.#sql_meta',
      'analyze',
      'Error',
      "Table 'test.#sql_meta' doesn't exist",
    ]);
  });
});

/**
 * A clustered index of three leaves under a 3-record root, filled by ascending inserts of
 * (a, b): each leaf splits at the insert point, so leaf k holds the rows inserted between the
 * k-th and (k+1)-th leaf appearing. Rows of the first two leaves have distinct `a`; on the third
 * `a` repeats 10 times. Returns the first row of each leaf.
 */
function threeLeaves(t: Table): { starts: number[]; n: number; aOf: (i: number) => number } {
  let i = 0;
  const starts = [0];
  let dense = -1;
  const aOf = (k: number): number => (dense < 0 || k < dense ? k : dense + Math.floor((k - dense) / 10));
  while (starts.length < 3) {
    t.insert([aOf(i), i]);
    i++;
    const leaves = t.primary.tree.shape().leafPages;
    if (leaves > starts.length) {
      starts.push(i - 1);
      if (leaves === 3) dense = i - 1;
    }
  }
  // the third leaf started with one row whose a was still distinct; refill it densely
  const perLeaf = starts[1]! - starts[0]!;
  while (i < starts[2]! + Math.floor(perLeaf / 2)) {
    t.insert([aOf(i), i]);
    i++;
  }
  return { starts, n: i, aOf };
}

describe('bug #43660 through SQL: a 3-record root of height 2', () => {
  it('with innodb_use_legacy_cardinality_algorithm=ON every ANALYZE gives the same, hand-computed cardinality', () => {
    const { db, s } = open(4096);
    s.query('CREATE TABLE t (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b))');
    const t = db.table('t');
    const { starts, n, aOf } = threeLeaves(t);
    const st = t.primary.tree.stats();
    expect([st.height, st.recordsPerLevel[1], st.leafPages]).toEqual([2, 3, 3]);
    s.query('SET GLOBAL innodb_stats_persistent = OFF');
    s.query('SET GLOBAL innodb_use_legacy_cardinality_algorithm = ON');

    // page_rnd from server start: 976722341 + k·87584577 ≡ 2 (mod 3), so every dive takes the
    // root's third record. 5.1 makes 8 dives (BTR_KEY_VAL_ESTIMATE_N_PAGES). On the third leaf
    // (rows starts[2] … n − 1) adjacent pairs differ in a `d1` times and in (a, b) every time,
    // plus 1 for (a, b) because the leaf has a left sibling.
    let d1 = 0;
    for (let k = starts[2]!; k + 1 < n; k++) if (aOf(k) !== aOf(k + 1)) d1++;
    const d2 = n - 1 - starts[2]! + 1;
    const S = 8;
    const L = 3;
    // est = ⌊(n_diff·L + S − 1 + not_empty) / S⌋ + min(⌊L / (10·S)⌋, S), n_diff summed over the dives
    const est = (d: number): number =>
      Math.floor((S * d * L + S - 1 + 1) / S) + Math.min(Math.floor(L / (10 * S)), S);
    const rows = est(d2);
    const card = (nd: number): number =>
      Math.floor(rows / Math.max(1, Math.floor(Math.floor(rows / nd) / 2)));
    const expected = [card(est(d1)), card(est(d2))];

    const seen: number[][] = [];
    const nDiffs: (readonly number[])[] = [];
    for (let run = 0; run < 5; run++) {
      expect(s.query('ANALYZE TABLE t').rows[0]![3]).toBe('OK');
      seen.push(s.query('SHOW INDEX FROM t').rows.map((r) => r[6] as number));
      nDiffs.push(db.statistics(t).indexes.get('PRIMARY')!.nDiff);
    }
    for (const c of seen) expect(c).toEqual(expected);
    expect(db.statistics(t).rows).toBe(rows);
    // what the bench's cardinality experiment gets calling the estimator directly on the tree
    const direct = runExperiment(t.primary.tree, 'transient', {
      runs: 5,
      version: '5.1',
      rng: createGenerator('innodb-page-rnd'),
    });
    expect(direct.runs.map((r) => r.nDiff)).toEqual(nDiffs);
    expect(direct.identicalRuns).toBe(true);
  });

  it('with the LCG (switch OFF) the dives visit every leaf and the estimates vary from run to run', () => {
    const { db, s } = open(4096);
    s.query('CREATE TABLE t (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b))');
    const t = db.table('t');
    threeLeaves(t);
    s.query('SET GLOBAL innodb_stats_persistent = OFF');
    s.query('SET GLOBAL innodb_use_legacy_cardinality_algorithm = OFF');
    db.statisticsDictionary.generators.lcg = createGenerator('innodb-lcg64', { seed: 1 });
    const seen = new Set<number>();
    const nDiffs: (readonly number[])[] = [];
    for (let run = 0; run < 6; run++) {
      s.query('ANALYZE TABLE t');
      seen.add(s.query('SHOW INDEX FROM t').rows[0]![6] as number);
      nDiffs.push(db.statistics(t).indexes.get('PRIMARY')!.nDiff);
    }
    expect(seen.size).toBeGreaterThan(1);
    // the same generator called directly (5.5: min(8 dives, 4 index pages)) gives the same runs
    const direct = runExperiment(t.primary.tree, 'transient', {
      runs: 6,
      version: '5.5',
      rng: createGenerator('innodb-lcg64', { seed: 1 }),
    });
    expect(direct.runs.map((r) => r.nDiff)).toEqual(nDiffs);
    expect(direct.distinctLeaves).toBe(3);
  });
});
