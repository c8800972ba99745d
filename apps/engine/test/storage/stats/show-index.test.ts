// SHOW INDEX and information_schema.STATISTICS against the halving formula of ha_innobase::info
// (rec_per_key = max(1, ⌊⌊n_rows / n_diff⌋ / 2⌋)) and sql_show.cc's ⌊n_rows / rec_per_key⌋, on
// n_diff known by construction (exact) and on sampled n_diff read back from mysql.innodb_index_stats.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/session/session.js';
import { Database } from '../../../src/storage/database.js';
import {
  cardinality,
  innodbRecPerKey,
  recPerKey,
  type TableStatistics,
} from '../../../src/storage/statistics.js';

let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function open(pageSize = 16384): Session {
  db = Database.temporary({ innodb_page_size: pageSize, innodb_buffer_pool_size: 8 << 20 });
  return new Session(db);
}

/** Rows of `n` in batches of 500 through INSERT … VALUES. */
function fill(s: Session, n: number, row: (i: number) => string): void {
  for (let i = 0; i < n; i += 500) {
    const vals: string[] = [];
    for (let k = i; k < Math.min(n, i + 500); k++) vals.push(`(${row(k)})`);
    s.query(`INSERT INTO t VALUES ${vals.join(',')}`);
  }
}

const halve = (rows: number, nDiff: number): number =>
  Math.max(1, Math.floor((nDiff === 0 ? rows : Math.floor(rows / nDiff)) / 2));
const card = (rows: number, nDiff: number): number => Math.floor(rows / halve(rows, nDiff));

describe('SHOW INDEX', () => {
  it('on exact n_diff (a table small enough for the full leaf scan): the numbers by hand', () => {
    const s = open();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, h INT, KEY k_g (g), KEY k_gh (g, h))');
    // g = id mod 10, h = id mod 7: 10 values of g, 70 of (g, h), 1000 rows
    fill(s, 1000, (i) => `${i}, ${i % 10}, ${i % 7}`);
    expect(s.query('ANALYZE TABLE t').rows[0]![3]).toBe('OK');
    const r = s.query('SHOW INDEX FROM t');
    expect(r.columns).toEqual([
      'Table',
      'Non_unique',
      'Key_name',
      'Seq_in_index',
      'Column_name',
      'Collation',
      'Cardinality',
      'Sub_part',
      'Packed',
      'Null',
      'Index_type',
      'Comment',
      'Index_comment',
      'Ignored',
    ]);
    // PRIMARY: ⌊1000/1000⌋ = 1, halved 0 → 1: 1000. k_g: ⌊1000/10⌋ = 100 → 50: 20.
    // k_gh part 2: ⌊1000/70⌋ = 14 → 7: ⌊1000/7⌋ = 142. The id that k_g and k_gh carry is not listed.
    expect(r.rows).toEqual([
      ['t', 0, 'PRIMARY', 1, 'id', 'A', 1000, null, null, '', 'BTREE', '', '', 'NO'],
      ['t', 1, 'k_g', 1, 'g', 'A', 20, null, null, '', 'BTREE', '', '', 'NO'],
      ['t', 1, 'k_gh', 1, 'g', 'A', 20, null, null, '', 'BTREE', '', '', 'NO'],
      ['t', 1, 'k_gh', 2, 'h', 'A', 142, null, null, 'YES', 'BTREE', '', '', 'NO'],
    ]);
    expect(s.query('SHOW KEYS IN t FROM test').rows).toEqual(r.rows);
    expect(s.query('SHOW INDEXES FROM test.t').rows).toEqual(r.rows);
    const stats = s.query(
      "SELECT index_name, seq_in_index, column_name, cardinality, non_unique FROM information_schema.STATISTICS WHERE table_name = 't'",
    );
    expect(stats.rows).toEqual(r.rows.map((x) => [x[2], x[3], x[4], x[6], x[1]]));
    // the stored n_diff behind them, with the primary-key column the secondaries carry
    expect(
      s.query(
        "SELECT index_name, stat_name, stat_value, stat_description FROM mysql.innodb_index_stats WHERE stat_name LIKE 'n_diff%'",
      ).rows,
    ).toEqual([
      ['PRIMARY', 'n_diff_pfx01', 1000, 'id'],
      ['k_g', 'n_diff_pfx01', 10, 'g'],
      ['k_g', 'n_diff_pfx02', 1000, 'g,id'],
      ['k_gh', 'n_diff_pfx01', 10, 'g'],
      ['k_gh', 'n_diff_pfx02', 70, 'g,h'],
      ['k_gh', 'n_diff_pfx03', 1000, 'g,h,id'],
    ]);
  });

  it('on sampled n_diff: every Cardinality is the formula over the stored n_rows and n_diff', () => {
    const s = open(4096);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, h INT NOT NULL, KEY k_gh (g, h))');
    // skewed groups so that sampling is not exact: g = ⌊√id⌋, h = id mod 13
    fill(s, 8000, (i) => `${i}, ${Math.floor(Math.sqrt(i))}, ${i % 13}`);
    s.query('SET GLOBAL innodb_stats_persistent_sample_pages = 4');
    s.query('ANALYZE TABLE t');
    const nRows = s.query("SELECT n_rows FROM mysql.innodb_table_stats WHERE table_name = 't'")
      .rows[0]![0] as number;
    const nDiff = (ix: string, p: number): number =>
      s.query(
        `SELECT stat_value, sample_size FROM mysql.innodb_index_stats WHERE index_name = '${ix}' AND stat_name = 'n_diff_pfx0${p}'`,
      ).rows[0]![0] as number;
    const sample = s.query(
      "SELECT sample_size FROM mysql.innodb_index_stats WHERE index_name = 'k_gh' AND stat_name = 'n_diff_pfx01'",
    ).rows[0]![0] as number;
    // sampled, not the full scan: 4 leaves per prefix
    expect(sample).toBe(4);
    const got = s.query('SHOW INDEX FROM t').rows.map((r) => [r[2], r[3], r[6]]);
    expect(got).toEqual([
      ['PRIMARY', 1, card(nRows, nDiff('PRIMARY', 1))],
      ['k_gh', 1, card(nRows, nDiff('k_gh', 1))],
      ['k_gh', 2, card(nRows, nDiff('k_gh', 2))],
    ]);
    expect(nDiff('k_gh', 1)).not.toBe(90); // the exact count: ⌊√7999⌋ + 1 = 90 values
  });

  it('a table without a primary key does not list its generated row id; UNIQUE keys sort first', () => {
    const s = open();
    s.query('CREATE TABLE t (a INT, b INT NOT NULL, KEY k_a (a), UNIQUE KEY u_b (b))');
    s.query('INSERT INTO t VALUES (1, 1), (1, 2), (NULL, 3)');
    expect(s.query('SHOW INDEX FROM t').rows.map((r) => [r[1], r[2], r[4], r[6], r[9]])).toEqual([
      [0, 'u_b', 'b', 3, ''],
      [1, 'k_a', 'a', 3, 'YES'],
    ]);
  });

  it('SHOW INDEX of a missing table is error 1146', () => {
    const s = open();
    expect(() => s.query('SHOW INDEX FROM nope')).toThrow(
      expect.objectContaining({ errno: 1146, message: "Table 'test.nope' doesn't exist" }),
    );
  });
});

describe('recPerKey and innodb_stats_method=nulls_ignored', () => {
  const table = (rows: number): TableStatistics => ({
    rows,
    clusteredPages: 1,
    otherPages: 0,
    indexes: new Map(),
  });

  it('the halving on hand numbers, an empty index counting as n_rows', () => {
    const ix = { name: 'k', nDiff: [0, 3, 1000, 1001], leafPages: 1, sizePages: 1 };
    expect([1, 2, 3, 4].map((p) => recPerKey(table(1000), ix, p))).toEqual([500, 166, 1, 1]);
    expect([1, 2, 3, 4].map((p) => cardinality(table(1000), ix, p))).toEqual([2, 6, 1000, 1000]);
  });

  it('with non-NULL counts, NULL rows are left out (innodb_rec_per_key, ha_innodb.cc)', () => {
    // 1000 rows, 600 without NULL: n_null 400; n_diff 410 → ⌊600 / 10⌋ = 60; n_diff 400 ≤ n_null → 1
    const ix = { name: 'k', nDiff: [410, 400], nNonNull: [600, 600], leafPages: 1, sizePages: 1 };
    expect(innodbRecPerKey(1000, ix, 1)).toBe(60);
    expect(innodbRecPerKey(1000, ix, 2)).toBe(1);
    expect(recPerKey(table(1000), ix, 1)).toBe(30);
  });

  it('ANALYZE under each innodb_stats_method: the transient formulas by hand on a one-page index', () => {
    // 64 KiB pages: both trees are a root leaf, so the 8 dives all read the whole index
    const s = open(65536);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY k_a (a))');
    // 500 NULLs, then 50 values ten times each
    fill(s, 1000, (i) => `${i}, ${i < 500 ? 'NULL' : Math.floor(i / 10)}`);
    s.query('SET GLOBAL innodb_stats_persistent = OFF');
    const cardOf = (): unknown => s.query('SHOW INDEX FROM t').rows[1]![6];
    // S = 8 dives, L = 1 leaf: n_diff = ⌊(8·pairs + 8 − 1 + 1) / 8⌋ = pairs + 1 (no sibling, no
    // add-on); n_non_null = ⌊(8·500 + 8) / 8⌋ = 501 (the same macro adds not_empty)
    for (const [method, expected] of [
      // NULLs one value: 51 values, ⌊1000/51⌋ = 19 → 9: ⌊1000/9⌋ = 111
      ['nulls_equal', 111],
      // every NULL its own value: 550 values, ⌊1000/550⌋ = 1 → 1: 1000
      ['nulls_unequal', 1000],
      // as unequal, NULL rows left out: n_null = 1000 − 501 = 499 < 550:
      // ⌊(1000 − 499) / (550 − 499)⌋ = 9 → 4: ⌊1000/4⌋ = 250
      ['nulls_ignored', 250],
    ] as const) {
      s.query(`SET GLOBAL innodb_stats_method = '${method}'`);
      s.query('ANALYZE TABLE t');
      expect([method, cardOf()]).toEqual([method, expected]);
    }
    expect(s.query("SHOW GLOBAL VARIABLES LIKE 'innodb_stats_method'").rows).toEqual([
      ['innodb_stats_method', 'nulls_ignored'],
    ]);
    expect(() => s.query("SET GLOBAL innodb_stats_method = 'nulls_sometimes'")).toThrow(
      expect.objectContaining({ errno: 1231 }),
    );
  });
});
