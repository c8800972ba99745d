// Plan choice pinned against statistics: TPC-H SF 0.01 with the DBT3 indexes, the Q10 variant of
// the MRR experiment (1993-08-01 + 3 months) and the Q3 variant of the join experiment. The
// statistics are injected through the optimizer's StatisticsSource: exact counts, or the exact
// counts with one index's n_diff changed, so each test names the statistics that produce its plan.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTpch, tpchVariant } from '@enginekit/tpch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactStatisticsSource } from '../../src/plan/optimizer/exact-statistics-source.js';
import { Database, loadTpch, Session } from '../../src/index.js';
import type { StatisticsSource, TableStatistics } from '../../src/storage/statistics.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-optimizer-plans-'));
let db: Database;
let session: Session;

beforeAll(() => {
  generateTpch({ sf: 0.01, out: join(dir, 'tbl') });
  loadTpch({ db: join(dir, 'tpch.ekdb'), tbl: join(dir, 'tbl') });
  db = Database.open(join(dir, 'tpch.ekdb'), {});
  session = new Session(db);
}, 120_000);

afterAll(() => {
  session?.close();
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Exact statistics, except `index`'s n_diff, which `nDiff` replaces. */
function withNDiff(
  index: string,
  nDiff: (exact: readonly number[], rows: number) => number[],
): StatisticsSource {
  return {
    statistics(table): TableStatistics {
      const s = exactStatisticsSource.statistics(table);
      const ix = s.indexes.get(index);
      if (ix === undefined) return s;
      const indexes = new Map(s.indexes);
      indexes.set(index, { ...ix, nDiff: nDiff(ix.nDiff, s.rows) });
      return { ...s, indexes };
    },
  };
}

/** EXPLAIN's (table, type, key) per row. */
function plan(sql: string): string[] {
  return session.query(`EXPLAIN ${sql}`).rows.map((r) => `${r[2]} ${r[3]} ${r[5] ?? '-'}`);
}

const Q10 = tpchVariant('q10-date-add').answer;
const GOOD = [
  'orders range i_o_orderdate',
  'customer eq_ref PRIMARY',
  'nation eq_ref PRIMARY',
  'lineitem ref PRIMARY',
];
const BAD = ['nation ALL -', 'customer ref i_c_nationkey', 'orders ref i_o_custkey', 'lineitem ref PRIMARY'];

describe('Q10 variant: statistics decide the plan', () => {
  it('exact statistics give the good plan (orders range → customer eq_ref → nation eq_ref → lineitem ref)', () => {
    session.statistics = exactStatisticsSource;
    expect(plan(Q10)).toEqual(GOOD);
    const e = session.query(`EXPLAIN ${Q10}`).rows;
    // rec_per_key of lineitem's PRIMARY prefix: floor(floor(60175 / 15000) / 2) = 2, as the post's plan
    expect(e[3]![8]).toBe(2);
    // index_condition_pushdown=on (the default): the date range is checked on i_o_orderdate's entries
    expect(e[0]![10]).toBe('Using index condition; Using temporary; Using filesort');
    // off, as in the post: checked on the row
    session.query("SET optimizer_switch = 'index_condition_pushdown=off'");
    try {
      expect(session.query(`EXPLAIN ${Q10}`).rows[0]![10]).toBe(
        'Using where; Using temporary; Using filesort',
      );
    } finally {
      session.query('SET optimizer_switch = DEFAULT');
    }
    // the filesort reads the temporary table of groups: Sort_scan, as the post's counters
    session.query('FLUSH STATUS');
    expect(session.query(Q10).rows).toHaveLength(20);
    expect([session.status().Sort_scan, session.status().Sort_range, session.status().Select_range]).toEqual([
      1, 0, 1,
    ]);
  });

  it('i_c_nationkey with n_diff = its rows (rec_per_key understated to 1) gives the bad plan', () => {
    session.statistics = withNDiff('i_c_nationkey', (d, rows) => d.map(() => rows));
    try {
      expect(plan(Q10)).toEqual(BAD);
    } finally {
      session.statistics = exactStatisticsSource;
    }
  });

  it('rec_per_key of i_o_orderdate does not enter a range estimate: records_in_range dives the tree', () => {
    session.statistics = withNDiff('i_o_orderdate', (d) => d.map(() => 1));
    try {
      expect(plan(Q10)).toEqual(GOOD);
    } finally {
      session.statistics = exactStatisticsSource;
    }
  });

  it("the bad plan forced by STRAIGHT_JOIN shows the post's estimates: 25 nations, 30 customers per nation, 7 orders per customer", () => {
    const bad = Q10.replace(
      /from\s+customer,\s*orders,\s*lineitem,\s*nation/i,
      'from nation STRAIGHT_JOIN customer STRAIGHT_JOIN orders STRAIGHT_JOIN lineitem',
    );
    const rows = session.query(`EXPLAIN ${bad}`).rows;
    expect(rows.map((r) => `${r[2]} ${r[3]} ${r[5] ?? '-'}`)).toEqual(BAD);
    // floor(floor(1500 / 25) / 2) = 30; i_o_custkey: floor(floor(15000 / 1000) / 2) = 7
    expect(rows.map((r) => r[8])).toEqual([25, 30, 7, 2]);
  });
});
