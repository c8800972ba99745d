import {
  type BTree,
  type EstimatorName,
  type EstimatorOptions,
  runExperiment,
} from '@enginekit/btree-sampler';
import { createGenerator } from '@enginekit/prng';
import type { TpchTable } from '@enginekit/tpch';
import type { ExperimentContext } from '../../experiment.js';
import { deriveSeed } from '../../internal/seeds.js';
import { round } from '../../measure.js';
import { type MariaDbCardinality, mariaDbCardinality } from './cardinality-mariadb.js';
import { threeLeafTree } from './three-leaf-tree.js';
import { buildIndex, SAMPLED_INDEXES, TpchTables } from './tpch-indexes.js';

interface EstimatorCase {
  readonly label: string;
  readonly method: EstimatorName;
  /** A fresh options object per index: the generator inside is one object across the runs. */
  readonly options: () => EstimatorOptions;
}

/** ANALYZE TABLE as each server version ran it, and the alternatives, with their generators. */
function estimatorCases(seed: number, includeWordBits32: boolean): EstimatorCase[] {
  const cases: EstimatorCase[] = [
    {
      label: 'transient 5.1, page_rnd (legacy)',
      method: 'transient',
      options: () => ({ version: '5.1', rng: createGenerator('innodb-page-rnd') }),
    },
  ];
  if (includeWordBits32) {
    cases.push({
      label: 'transient 5.1, page_rnd 32-bit',
      method: 'transient',
      options: () => ({ version: '5.1', rng: createGenerator('innodb-page-rnd', { wordBits: 32 }) }),
    });
  }
  cases.push(
    {
      label: 'transient 5.1, LCG fix',
      method: 'transient',
      options: () => ({
        version: '5.1',
        rng: createGenerator('innodb-lcg64', { seed: deriveSeed(seed, 'lcg') }),
      }),
    },
    {
      label: 'transient 5.5, ut_rnd',
      method: 'transient',
      options: () => ({ version: '5.5', rng: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }) }),
    },
    {
      label: 'transient 5.5, xoshiro128**',
      method: 'transient',
      options: () => ({
        version: '5.5',
        rng: createGenerator('xoshiro128**', { seed: deriveSeed(seed, 'xoshiro-t') }),
      }),
    },
    {
      label: 'persistent 5.6 (A=20), ut_rnd',
      method: 'persistent',
      options: () => ({
        innodb_stats_persistent_sample_pages: 20,
        rng: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }),
      }),
    },
    {
      label: 'persistent 5.6 (A=20), xoshiro128**',
      method: 'persistent',
      options: () => ({
        innodb_stats_persistent_sample_pages: 20,
        rng: createGenerator('xoshiro128**', { seed: deriveSeed(seed, 'xoshiro-p') }),
      }),
    },
    {
      label: 'duj1 (PostgreSQL, 30000 rows)',
      method: 'duj1',
      options: () => ({ rng: createGenerator('xoshiro128**', { seed: deriveSeed(seed, 'duj1') }) }),
    },
    { label: 'HyperLogLog p=14 (full scan)', method: 'hll', options: () => ({ precision: 14 }) },
  );
  return cases;
}

/** One estimator's ANALYZE runs on one index. */
export interface EstimateRow {
  readonly index: string;
  readonly estimator: string;
  readonly exact: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly meanRelErrPct: number;
  readonly maxRelErrPct: number;
  readonly distinctLeaves: number;
  readonly leafPages: number;
  readonly identicalRuns: boolean;
  readonly pagesPerRun: number;
  readonly estimates: readonly number[];
}

function sample(tree: BTree, index: string, cases: readonly EstimatorCase[], runs: number): EstimateRow[] {
  const leafPages = tree.stats().leafPages;
  return cases.map((c) => {
    const r = runExperiment(tree, c.method, { ...c.options(), runs });
    const p = r.perPrefix[0];
    if (p === undefined) throw new Error(`${index}: no key prefix to estimate`);
    return {
      index,
      estimator: c.label,
      exact: p.exact,
      min: p.min,
      max: p.max,
      mean: round(p.mean, 1),
      meanRelErrPct: round(p.meanRelError * 100, 1),
      maxRelErrPct: round(p.maxRelError * 100, 1),
      distinctLeaves: r.distinctLeaves,
      leafPages,
      identicalRuns: r.identicalRuns,
      pagesPerRun: round(r.meanPagesRead, 1),
      estimates: r.runs.map((e) => e.nDiff[0] as number),
    };
  });
}

/** What `cardinality` measures; every field survives JSON (`mariadb` is undefined without MariaDB). */
export interface CardinalityMeasurement {
  readonly settings: {
    readonly runs: number;
    readonly sf: number;
    readonly indexes: readonly { readonly table: TpchTable; readonly index: string }[];
    /** The 3-record-root tree: its page size and how many rows share a value in the third leaf. */
    readonly threeLeaf: { readonly pageSize: number; readonly repeatInThirdLeaf: number };
    readonly tpchPageSize: number;
    readonly estimators: readonly { readonly label: string; readonly method: EstimatorName }[];
    readonly seeds: {
      readonly lcg: number;
      readonly xoshiroTransient: number;
      readonly xoshiroPersistent: number;
      readonly duj1: number;
    };
  };
  /** The 3-record-root tree's shape and every estimator's runs on it. */
  readonly threeLeaf: {
    readonly stats: { readonly records: number; readonly height: number; readonly leafPages: number };
    readonly rows: readonly EstimateRow[];
  };
  /** Every estimator (but the 32-bit page_rnd) on every sampled DBT3 index, indexes in order. */
  readonly tpch: readonly EstimateRow[];
  readonly mariadb: { readonly rows: readonly MariaDbCardinality[]; readonly version: string } | undefined;
}

export async function measure(ctx: ExperimentContext): Promise<CardinalityMeasurement> {
  const runs = 10;
  const sf = ctx.sf ?? (ctx.quick ? 0.001 : 0.1);
  const indexes = ctx.quick
    ? SAMPLED_INDEXES.filter((i) => i.index !== 'i_l_partkey' && i.index !== 'i_l_shipdate')
    : SAMPLED_INDEXES;

  ctx.log('cardinality: the 3-record-root tree');
  const small = threeLeafTree(10);
  const { records, height, leafPages } = small.tree.stats();
  const smallRows = sample(small.tree, 'three-leaf secondary', estimatorCases(ctx.seed, true), runs);
  small.close();

  const tables = new TpchTables(sf);
  const tpchRows: EstimateRow[] = [];
  for (const { table, index } of indexes) {
    ctx.log(`cardinality: ${table}.${index} at SF ${sf}`);
    const t = buildIndex(tables, table, index);
    tpchRows.push(...sample(t.tree, `${table}.${index}`, estimatorCases(ctx.seed, false), runs));
    t.close();
  }

  const mariadb = await mariaDbCardinality(sf, indexes, runs, ctx.log);

  return {
    settings: {
      runs,
      sf,
      indexes,
      threeLeaf: { pageSize: 4096, repeatInThirdLeaf: 10 },
      tpchPageSize: 16384,
      estimators: estimatorCases(ctx.seed, true).map((c) => ({ label: c.label, method: c.method })),
      seeds: {
        lcg: deriveSeed(ctx.seed, 'lcg'),
        xoshiroTransient: deriveSeed(ctx.seed, 'xoshiro-t'),
        xoshiroPersistent: deriveSeed(ctx.seed, 'xoshiro-p'),
        duj1: deriveSeed(ctx.seed, 'duj1'),
      },
    },
    threeLeaf: { stats: { records, height, leafPages }, rows: smallRows },
    tpch: tpchRows,
    mariadb,
  };
}
