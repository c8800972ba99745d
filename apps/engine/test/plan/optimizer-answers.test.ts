// Plans never change answers: TPC-H SF 0.01 (DBT3 indexes) under every join_cache_level (0–8) ×
// mrr × mrr_sort_keys × index_condition_pushdown, and with statistics from each of btree-sampler's
// estimators, must give DuckDB's rows. Q3, Q10 and the two experiment variants get the full
// matrix; the other queries a seeded sample of it. Settings that lead to the same physical plan
// (the same EXPLAIN, join buffers and MRR included) run once: the plan is what is under test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { estimate, type EstimatorName } from '@enginekit/btree-sampler';
import { generateTpch } from '@enginekit/tpch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graceHashTotals } from '../../src/exec/grace-hash-stage.js';
import { exactStatisticsSource } from '../../src/plan/optimizer/exact-statistics-source.js';
import { Database, loadTpch, Session } from '../../src/index.js';
import type { StatisticsSource, TableStatistics } from '../../src/storage/statistics.js';
import type { Table } from '../../src/storage/table.js';
import { type DuckResult, diffRows } from '../helpers/sql-tpch-compare.js';
import { loadDuck } from '../helpers/sql-tpch-duck.js';
import { TPCH_QUERIES, type TpchQuery } from '../helpers/sql-tpch-queries.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-optimizer-answers-'));
let duck: DuckDBInstance;
let conn: DuckDBConnection;
let db: Database;
let session: Session;
const expected = new Map<string, DuckResult>();

beforeAll(async () => {
  const tbl = join(dir, 'tbl');
  generateTpch({ sf: 0.01, out: tbl });
  duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  conn = await duck.connect();
  await loadDuck(conn, tbl);
  for (const q of TPCH_QUERIES) {
    for (const s of q.setup ?? []) await conn.run(s);
    const r = await conn.runAndReadAll(q.duck ?? q.sql);
    expected.set(q.name, { rows: r.getRows(), types: r.columnTypes().map((t) => String(t)) });
    for (const s of q.teardown ?? []) await conn.run(s);
  }
  loadTpch({ db: join(dir, 'tpch.ekdb'), tbl });
  db = Database.open(join(dir, 'tpch.ekdb'), {});
  session = new Session(db);
}, 180_000);

afterAll(() => {
  session?.close();
  db?.close();
  conn?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

interface Setting {
  readonly level: number;
  readonly mrr: boolean;
  readonly sortKeys: boolean;
  readonly icp: boolean;
}

const MATRIX: Setting[] = [];
for (let level = 0; level <= 8; level++)
  for (const mrr of [false, true])
    for (const sortKeys of [false, true])
      for (const icp of [false, true]) MATRIX.push({ level, mrr, sortKeys, icp });

const onOff = (b: boolean): string => (b ? 'on' : 'off');

function apply(s: Setting): void {
  icpOn = s.icp;
  session.query(`SET join_cache_level = ${s.level}`);
  session.query(
    `SET optimizer_switch = 'mrr=${onOff(s.mrr)},mrr_sort_keys=${onOff(s.sortKeys)},index_condition_pushdown=${onOff(s.icp)},mrr_cost_based=off'`,
  );
}

/** Statistics from one of btree-sampler's estimators over the table's own trees (cached per table). */
function estimatorStatistics(method: EstimatorName): StatisticsSource {
  const cache = new Map<Table, TableStatistics>();
  return {
    statistics(table) {
      const hit = cache.get(table);
      if (hit !== undefined) return hit;
      const exact = exactStatisticsSource.statistics(table);
      const indexes = new Map(exact.indexes);
      for (const ix of [table.primary, ...table.secondary]) {
        const e = estimate(ix.tree, method);
        indexes.set(ix.name, { ...exact.indexes.get(ix.name)!, nDiff: e.nDiff });
      }
      const s = { ...exact, indexes };
      cache.set(table, s);
      return s;
    },
  };
}

/** The physical plan as text: EXPLAIN's rows (they name access, key, join buffer and MRR). */
function planOf(q: TpchQuery): string {
  for (const x of q.setup ?? []) session.query(x);
  try {
    return JSON.stringify(session.query(`EXPLAIN ${q.sql}`).rows);
  } finally {
    for (const x of q.teardown ?? []) session.query(x);
  }
}

/** Every distinct plan whose answer was checked, with whether ICP was on (see the last test). */
const checked: Array<{ plan: string; icp: boolean }> = [];
let icpOn = true;

function check(q: TpchQuery, seen: Set<string>): number {
  const plan = planOf(q);
  if (seen.has(plan)) return 0;
  seen.add(plan);
  checked.push({ plan, icp: icpOn });
  for (const x of q.setup ?? []) session.query(x);
  try {
    const got = session.query(q.sql).rows;
    expect(diffRows(got, expected.get(q.name)!, q.scales ?? {}), `${q.name} under ${plan}`).toEqual([]);
  } finally {
    for (const x of q.teardown ?? []) session.query(x);
  }
  return 1;
}

const FULL = new Set(['Q3', 'Q10', TPCH_QUERIES.at(-2)!.name, TPCH_QUERIES.at(-1)!.name]);

describe('plans never change answers (TPC-H SF 0.01 against DuckDB)', () => {
  for (const q of TPCH_QUERIES) {
    it(`${q.name}: ${FULL.has(q.name) ? 'the full matrix' : 'a seeded sample'} of join_cache_level × mrr × mrr_sort_keys × ICP`, () => {
      const seen = new Set<string>();
      // the sample: every level, one of the eight switch combinations per level, chosen by a seed
      // from the query's name (a Park–Miller step, so a failure reproduces)
      let seed = [...q.name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 2147483647, 20261201);
      const pick = (): number => {
        seed = (seed * 48271) % 2147483647;
        return seed % 8;
      };
      const settings = FULL.has(q.name)
        ? MATRIX
        : Array.from({ length: 9 }, (_, level) => MATRIX[level * 8 + pick()]!);
      let ran = 0;
      try {
        for (const s of settings) {
          apply(s);
          ran += check(q, seen);
        }
      } finally {
        session.query('SET join_cache_level = DEFAULT');
        session.query('SET optimizer_switch = DEFAULT');
      }
      expect(ran).toBeGreaterThan(0);
    }, 120_000);
  }

  it('the matrix really ran plans with a pushed index condition and covering index reads', () => {
    const icp = checked.filter((c) => c.plan.includes('Using index condition'));
    expect(icp.length).toBeGreaterThan(0);
    expect(icp.every((c) => c.icp)).toBe(true);
    // DS-MRR with the condition checked below it
    expect(icp.some((c) => c.plan.includes('Rowid-ordered scan'))).toBe(true);
    // covering refs, ranges or scans ("Using index" not followed by " condition"), and type index
    expect(checked.some((c) => /Using index(?! condition)/.test(c.plan))).toBe(true);
    expect(checked.some((c) => c.plan.includes('"index"'))).toBe(true);
  });

  for (const method of ['transient', 'persistent', 'duj1', 'hll'] as const) {
    it(`statistics from the ${method} estimator: Q3, Q10 and the variants at levels 2, 6 and 8 with mrr=on`, () => {
      session.statistics = estimatorStatistics(method);
      const seen = new Set<string>();
      try {
        for (const q of TPCH_QUERIES.filter((x) => FULL.has(x.name)))
          for (const level of [2, 6, 8]) {
            apply({ level, mrr: true, sortKeys: true, icp: true });
            check(q, seen);
          }
      } finally {
        session.statistics = exactStatisticsSource;
        session.query('SET join_cache_level = DEFAULT');
        session.query('SET optimizer_switch = DEFAULT');
      }
    }, 120_000);
  }
});

describe('grace hash and sort-merge joins in place of BNLH (enginekit_hash_join_algorithm)', () => {
  for (const algorithm of ['grace_hash', 'sort_merge'] as const) {
    it(`${algorithm}: every query and variant at join_cache_level 4 gives DuckDB's rows`, () => {
      const seen = new Set<string>();
      const spillsBefore = graceHashTotals.spills;
      let ran = 0;
      let replaced = 0;
      try {
        apply({ level: 4, mrr: false, sortKeys: false, icp: true });
        session.query(`SET enginekit_hash_join_algorithm = '${algorithm}'`);
        // a small join buffer: grace hash's build sides go to partition files
        session.query('SET join_buffer_size = 131072');
        for (const q of TPCH_QUERIES) {
          const before = checked.length;
          ran += check(q, seen);
          const name = algorithm === 'grace_hash' ? 'grace hash join' : 'sort-merge join';
          if (checked.slice(before).some((c) => c.plan.includes(name))) replaced++;
          expect(checked.slice(before).some((c) => c.plan.includes('BNLH join'))).toBe(false);
        }
      } finally {
        session.query('SET enginekit_hash_join_algorithm = DEFAULT');
        session.query('SET join_buffer_size = DEFAULT');
        session.query('SET join_cache_level = DEFAULT');
        session.query('SET optimizer_switch = DEFAULT');
      }
      expect(ran).toBeGreaterThan(0);
      expect(replaced).toBeGreaterThan(5);
      if (algorithm === 'grace_hash') expect(graceHashTotals.spills).toBeGreaterThan(spillsBefore);
    }, 120_000);
  }
});
