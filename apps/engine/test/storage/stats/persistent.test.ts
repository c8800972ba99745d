// Persistent statistics (5.6): saved by ANALYZE in SYS_STATS, shown as mysql.innodb_table_stats /
// innodb_index_stats, loaded again after reopening without sampling; n_uniq of lineitem's
// secondary indexes; STATS_PERSISTENT / STATS_SAMPLE_PAGES per table; information_schema.TABLES.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TPCH_SCHEMA } from '@enginekit/tpch';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dbt3Schema } from '../../../src/load/dbt3-schema.js';
import { Session } from '../../../src/session/session.js';
import { Database } from '../../../src/storage/database.js';
import type { FieldValue } from '../../../src/storage/types.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-stats-persistent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function fill(s: Session, table: string, n: number, row: (i: number) => string): void {
  for (let i = 0; i < n; i += 500) {
    const vals: string[] = [];
    for (let k = i; k < Math.min(n, i + 500); k++) vals.push(`(${row(k)})`);
    s.query(`INSERT INTO ${table} VALUES ${vals.join(',')}`);
  }
}

describe('persistent statistics', () => {
  it('survive a reopen: the same mysql.innodb_*_stats rows and SHOW INDEX, without sampling again', () => {
    const path = join(dir, 'reopen.ekdb');
    db = Database.create(path, {
      innodb_page_size: 4096,
      innodb_buffer_pool_size: 8 << 20,
      innodb_log_file_size: 1 << 20,
    });
    let s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, KEY k_g (g))');
    fill(s, 't', 6000, (i) => `${i}, ${(i * 7) % 613}`);
    s.query('SET GLOBAL innodb_stats_persistent_sample_pages = 8');
    s.query('ANALYZE TABLE t');
    const tableStats = s.query('SELECT * FROM mysql.innodb_table_stats').rows;
    const indexStats = s.query('SELECT * FROM mysql.innodb_index_stats').rows;
    const show = s.query('SHOW INDEX FROM t').rows;
    const before = db.statistics(db.table('t'));
    expect(before.method).toBe('persistent');
    // 6000 entries on 4 KiB pages: more leaves than A · n_uniq = 8 · 2, so the level search sampled
    expect(indexStats.find((r) => r[2] === 'k_g' && r[4] === 'n_diff_pfx01')![6]).toBe(8);
    expect(tableStats).toEqual([
      ['test', 't', expect.any(String), before.rows, before.clusteredPages, before.otherPages],
    ]);
    db.close();

    db = Database.open(path, { innodb_buffer_pool_size: 8 << 20 });
    s = new Session(db);
    // a sampling on open would move the generators: make any use of them fail
    const fail = {
      next: () => {
        throw new Error('sampled');
      },
    };
    db.statisticsDictionary.generators = { pageRnd: fail, lcg: fail, utRnd: fail } as never;
    expect(s.query('SHOW INDEX FROM t').rows).toEqual(show);
    expect(s.query('SELECT * FROM mysql.innodb_index_stats').rows).toEqual(indexStats);
    expect(s.query('SELECT * FROM mysql.innodb_table_stats').rows).toEqual(tableStats);
    const after = db.statistics(db.table('t'));
    expect([after.rows, after.clusteredPages, after.otherPages]).toEqual([
      before.rows,
      before.clusteredPages,
      before.otherPages,
    ]);
    expect([...after.indexes.values()].map((i) => i.nDiff)).toEqual(
      [...before.indexes.values()].map((i) => i.nDiff),
    );
    // the rows of innodb_index_stats are the stored n_diff, leaf pages and size of each index
    const k = after.indexes.get('k_g')!;
    expect(indexStats.filter((r) => r[2] === 'k_g').map((r) => [r[4], r[5]])).toEqual([
      ['n_diff_pfx01', k.nDiff[0]],
      ['n_diff_pfx02', k.nDiff[1]],
      ['n_leaf_pages', k.leafPages],
      ['size', k.sizePages],
    ]);
  });

  it('first use of a table never analyzed: persistent and saved with auto-recalc on, else transient', () => {
    db = Database.temporary({ innodb_page_size: 4096, innodb_buffer_pool_size: 8 << 20 });
    const s = new Session(db);
    s.query('CREATE TABLE a (id INT PRIMARY KEY, g INT NOT NULL, KEY k_g (g))');
    s.query('CREATE TABLE b (id INT PRIMARY KEY, g INT NOT NULL, KEY k_g (g)) STATS_AUTO_RECALC=0');
    fill(s, 'a', 1000, (i) => `${i}, ${i % 10}`);
    fill(s, 'b', 1000, (i) => `${i}, ${i % 10}`);
    expect(s.query('SELECT * FROM information_schema.INNODB_SYS_TABLESTATS').rows.map((r) => r[2])).toEqual([
      'Uninitialized',
      'Uninitialized',
    ]);
    // SHOW INDEX is a first use (MySQL opens the table)
    expect(s.query('SHOW INDEX FROM a').rows.map((r) => r[6])).toEqual([1000, 20]);
    // b: 8 dives of page_rnd over its few leaves, an estimate (not checked here), kept in memory
    expect(s.query('SHOW INDEX FROM b').rows).toHaveLength(2);
    expect(db.statistics(db.table('a')).method).toBe('persistent');
    expect(db.statistics(db.table('b')).method).toBe('transient');
    expect(s.query('SELECT table_name, n_rows FROM mysql.innodb_table_stats').rows).toEqual([['a', 1000]]);
  });

  it('an index added after ANALYZE gets its own rows; the others keep theirs', () => {
    db = Database.temporary({ innodb_page_size: 4096, innodb_buffer_pool_size: 8 << 20 });
    const s = new Session(db);
    s.query(
      'CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, h INT NOT NULL, KEY k_g (g)) STATS_SAMPLE_PAGES=8',
    );
    fill(s, 't', 8000, (i) => `${i}, ${(i * 31) % 997}, ${i % 5}`);
    s.query('ANALYZE TABLE t');
    const q =
      "SELECT index_name, stat_name, stat_value, sample_size FROM mysql.innodb_index_stats WHERE stat_name LIKE 'n_diff%'";
    const before = s.query(q).rows;
    s.query('CREATE INDEX k_h ON t (h)');
    expect(s.query('SHOW INDEX FROM t').rows.map((r) => r[2])).toEqual(['PRIMARY', 'k_g', 'k_h']);
    const after = s.query(q).rows;
    expect(after.filter((r) => r[0] !== 'k_h')).toEqual(before);
    // 8000 entries of (h, id) fill more than A · n_uniq = 8 · 2 leaves: sampled, K = min(A, groups
    // on the level) leaves per prefix — (h) has only 5 values, so fewer for it
    const kh = after.filter((r) => r[0] === 'k_h');
    expect(kh.map((r) => r[1])).toEqual(['n_diff_pfx01', 'n_diff_pfx02']);
    expect(kh[1]![3]).toBe(8);
    expect(kh[0]![3]).toBeLessThan(8);
    s.query('DROP INDEX k_g ON t');
    expect(s.query(q).rows.map((r) => r[0])).not.toContain('k_g');
  });

  it("lineitem's single-column secondaries have n_uniq 3, i_l_orderkey 2, the composite ones 3 and 4", () => {
    db = Database.temporary({ innodb_page_size: 4096, innodb_buffer_pool_size: 8 << 20 });
    const t = db.createTable(dbt3Schema('lineitem'));
    const cols = TPCH_SCHEMA.lineitem.columns;
    for (let i = 0; i < 400; i++) {
      const row: FieldValue[] = cols.map((c, j) => {
        if (c.name === 'l_orderkey') return Math.floor(i / 4) + 1;
        if (c.name === 'l_linenumber') return (i % 4) + 1;
        switch (c.type.kind) {
          case 'date':
            return 9000 + ((i * 7 + j) % 41);
          case 'char':
          case 'varchar':
            return 'x';
          default:
            return (i * 13 + j) % 97;
        }
      });
      t.insert(row);
    }
    const s = new Session(db);
    s.query('ANALYZE TABLE lineitem');
    const r = s.query(
      "SELECT index_name, COUNT(*), MAX(stat_description) FROM mysql.innodb_index_stats WHERE stat_name LIKE 'n_diff%' GROUP BY index_name ORDER BY index_name",
    ).rows;
    expect(r).toEqual([
      ['PRIMARY', 2, 'l_orderkey,l_linenumber'],
      ['i_l_commitdate', 3, 'l_commitdate,l_orderkey,l_linenumber'],
      ['i_l_orderkey', 2, 'l_orderkey,l_linenumber'],
      ['i_l_orderkey_quantity', 3, 'l_orderkey,l_quantity,l_linenumber'],
      ['i_l_partkey', 3, 'l_partkey,l_orderkey,l_linenumber'],
      ['i_l_receiptdate', 3, 'l_receiptdate,l_orderkey,l_linenumber'],
      ['i_l_shipdate', 3, 'l_shipdate,l_orderkey,l_linenumber'],
      ['i_l_suppkey', 3, 'l_suppkey,l_orderkey,l_linenumber'],
      ['i_l_suppkey_partkey', 4, 'l_partkey,l_suppkey,l_orderkey,l_linenumber'],
    ]);
    // SHOW INDEX lists the user's columns only: one part for i_l_shipdate
    const parts = s.query('SHOW INDEX FROM lineitem').rows.filter((x) => x[2] === 'i_l_shipdate');
    expect(parts.map((x) => x[4])).toEqual(['l_shipdate']);
  });

  it('STATS_PERSISTENT=0 keeps a table transient (nothing saved); STATS_SAMPLE_PAGES sets A', () => {
    db = Database.temporary({ innodb_page_size: 4096, innodb_buffer_pool_size: 8 << 20 });
    const s = new Session(db);
    s.query('CREATE TABLE tr (id INT PRIMARY KEY, g INT NOT NULL, KEY k_g (g)) STATS_PERSISTENT=0');
    s.query('CREATE TABLE ps (id INT PRIMARY KEY, g INT NOT NULL, KEY k_g (g)) STATS_SAMPLE_PAGES=3');
    fill(s, 'tr', 3000, (i) => `${i}, ${i % 101}`);
    fill(s, 'ps', 3000, (i) => `${i}, ${i % 101}`);
    s.query('ANALYZE TABLE tr, ps');
    expect(db.statistics(db.table('tr')).method).toBe('transient');
    expect(s.query('SELECT DISTINCT table_name FROM mysql.innodb_index_stats').rows).toEqual([['ps']]);
    expect(
      s.query(
        "SELECT sample_size FROM mysql.innodb_index_stats WHERE index_name = 'PRIMARY' AND stat_name = 'n_diff_pfx01'",
      ).rows,
    ).toEqual([[3]]);
    expect(
      s.query('SELECT table_name, create_options FROM information_schema.TABLES ORDER BY table_name').rows,
    ).toEqual([
      ['ps', 'stats_sample_pages=3'],
      ['tr', 'stats_persistent=0'],
    ]);
    // values MySQL's grammar refuses: a syntax error, and no table
    expect(() => s.query('CREATE TABLE bad (id INT PRIMARY KEY) STATS_PERSISTENT=2')).toThrow(
      expect.objectContaining({ errno: 1064 }),
    );
    expect(() => s.query('CREATE TABLE bad (id INT PRIMARY KEY) STATS_SAMPLE_PAGES=0')).toThrow(
      expect.objectContaining({ errno: 1064 }),
    );
    expect(db.hasTable('bad')).toBe(false);
  });

  it('information_schema.TABLES: sizes are the trees’ page counts times the page size', () => {
    db = Database.temporary({ innodb_page_size: 4096, innodb_buffer_pool_size: 8 << 20 });
    const s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, h VARCHAR(20), KEY k_g (g), KEY k_h (h))');
    fill(s, 't', 5000, (i) => `${i}, ${i % 50}, 'v${i % 333}'`);
    // emptied pages merge and go on the trees' free lists; they still count, as in a segment
    s.query('DELETE FROM t WHERE id >= 1000 AND id < 4000');
    s.query('CREATE VIEW v AS SELECT id FROM t');
    s.query('ANALYZE TABLE t');
    const t = db.table('t');
    const pages = (ix: typeof t.primary): number => ix.tree.stats().totalPages;
    const dataPages = pages(t.primary);
    expect(t.primary.tree.stats().freePages).toBeGreaterThan(0);
    const indexPages = t.secondary.map(pages).reduce((a, b) => a + b, 0);
    const st = db.statistics(t);
    const r = s.query(
      'SELECT table_name, table_type, engine, table_rows, avg_row_length, data_length, index_length FROM information_schema.TABLES ORDER BY table_name',
    ).rows;
    expect(r).toEqual([
      [
        't',
        'BASE TABLE',
        'InnoDB',
        st.rows,
        Math.floor((dataPages * 4096) / st.rows),
        dataPages * 4096,
        indexPages * 4096,
      ],
      ['v', 'VIEW', null, null, null, null, null],
    ]);
    expect(
      s.query('SELECT clustered_index_size, sum_of_other_index_sizes FROM mysql.innodb_table_stats').rows,
    ).toEqual([[dataPages, indexPages]]);
  });
});

describe('chosen statistics', () => {
  it('putStatistics saves them as persistent rows, SHOW INDEX and a reopen see them; bad shapes are refused', () => {
    const path = join(dir, 'put.ekdb');
    db = Database.create(path, { innodb_buffer_pool_size: 8 << 20, innodb_log_file_size: 1 << 20 });
    const s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, KEY k_g (g))');
    fill(s, 't', 100, (i) => `${i}, ${i % 4}`);
    const now = db.statistics(db.table('t'));
    const k = now.indexes.get('k_g')!;
    // claim 1,000,000 rows and 2 values of g: rec_per_key ⌊1e6 / 2⌋ / 2 = 250000, Cardinality 4
    const pk = { ...now.indexes.get('PRIMARY')!, nDiff: [1_000_000] };
    const wrong = {
      ...now,
      rows: 1_000_000,
      indexes: new Map([
        ['PRIMARY', pk],
        ['k_g', { ...k, nDiff: [2, 1_000_000] }],
      ]),
    };
    expect(() => db!.putStatistics('t', { ...wrong, indexes: new Map([['PRIMARY', pk]]) })).toThrow(
      'no statistics for index k_g of t',
    );
    expect(() =>
      db!.putStatistics('t', {
        ...wrong,
        indexes: new Map([...wrong.indexes, ['k_g', { ...k, nDiff: [2] }]]),
      }),
    ).toThrow('index k_g of t counts 2 key fields, got 1 n_diff values');
    db.putStatistics('t', wrong);
    expect(s.query('SHOW INDEX FROM t').rows.map((r) => r[6])).toEqual([1_000_000, 4]);
    db.close();
    db = Database.open(path, { innodb_buffer_pool_size: 8 << 20 });
    const again = new Session(db);
    expect(again.query('SHOW INDEX FROM t').rows.map((r) => r[6])).toEqual([1_000_000, 4]);
    expect(again.query("SELECT n_rows FROM mysql.innodb_table_stats WHERE table_name = 't'").rows).toEqual([
      [1_000_000],
    ]);
  });
});
