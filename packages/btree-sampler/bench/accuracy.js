// Estimator accuracy: four data sets, each estimator at a budget of about 20 leaf pages, 10 runs
// each; mean and max relative error of the leading-column n_diff, spread, pages read, and the
// legacy page_rnd vs the fixed LCG.
import { createGenerator } from '@enginekit/prng';
import { runExperiment } from '../dist/index.js';
import { dataSets, int1, loadDataSet } from './data.js';

export function runAccuracy(rows, runs = 10) {
  const out = [];
  for (const ds of dataSets(rows)) {
    // 4 KiB pages so a 200k-row index has a few hundred leaves and three levels.
    const tree = loadDataSet(ds, 4096);
    const st = tree.stats();
    const configs = [
      [
        'transient, page_rnd (5.1 legacy), 20 dives',
        'transient',
        { innodb_stats_transient_sample_pages: 20, version: '5.1', rng: createGenerator('innodb-page-rnd') },
      ],
      [
        'transient, LCG (fixed), 20 dives',
        'transient',
        { innodb_stats_transient_sample_pages: 20, rng: createGenerator('innodb-lcg64', { seed: 1 }) },
      ],
      [
        'persistent 5.6, A = 20',
        'persistent',
        {
          innodb_stats_persistent_sample_pages: 20,
          rng: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }),
        },
      ],
      [
        'duj1, 20 blocks (all their rows)',
        'duj1',
        { targetBlocks: 20, targetRows: 30000, rng: createGenerator('xoshiro128**', { seed: 4 }) },
      ],
      [
        'duj1, PostgreSQL default (30000 rows)',
        'duj1',
        { rng: createGenerator('xoshiro128**', { seed: 4 }) },
      ],
      ['HyperLogLog p = 14 (full scan)', 'hll', { precision: 14 }],
    ];
    for (const [label, method, options] of configs) {
      const r = runExperiment(tree, method, { ...options, runs: method === 'hll' ? 1 : runs });
      // The leading column; for the composite primary key also the whole key (a, b).
      const prefixes = ds.unique ? [0, 1] : [0];
      for (const j of prefixes) {
        const p = r.perPrefix[j];
        out.push({
          dataSet: ds.unique
            ? `${ds.name} ${j === 0 ? '(l_orderkey)' : '(l_orderkey, l_linenumber)'}`
            : ds.name,
          leafPages: st.pagesPerLevel[0],
          height: st.height,
          estimator: label,
          exact: p.exact,
          mean: p.mean,
          min: p.min,
          max: p.max,
          meanRelError: p.meanRelError,
          maxRelError: p.maxRelError,
          distinctLeaves: r.distinctLeaves,
          identicalRuns: r.identicalRuns,
          pagesRead: r.meanPagesRead,
        });
      }
    }
  }
  return out;
}

/**
 * Bug #43660's shape: a root with 3 node pointers over 3 leaves of different density (the first
 * two unique values, the third 10 rows per value). page_rnd always takes the third leaf.
 */
export function runBugScenario(runs = 10) {
  const entries = [];
  const pk = (i) => Uint8Array.of(i >>> 24, (i >>> 16) & 255, (i >>> 8) & 255, i & 255);
  // 16 KiB pages, 13-byte records + 2-byte slots, no reserve (secondary): 1086 per leaf.
  for (let i = 0; i < 2172; i++) entries.push([int1.encode([i]), pk(i)]);
  for (let i = 0; i < 1000; i++) entries.push([int1.encode([10000 + Math.floor(i / 10)]), pk(100000 + i)]);
  const tree = loadDataSet({ name: 'bug', unique: false, entries }, 16384);
  const st = tree.stats();
  const out = [];
  for (const [label, rng] of [
    ['page_rnd (legacy, 5.1 default)', createGenerator('innodb-page-rnd')],
    ['page_rnd, 32-bit ulint', createGenerator('innodb-page-rnd', { wordBits: 32 })],
    [
      'LCG (innodb_use_legacy_cardinality_algorithm=OFF)',
      createGenerator('innodb-lcg64', { seed: 20090417 }),
    ],
  ]) {
    const r = runExperiment(tree, 'transient', { runs, rng, version: '5.1' });
    const p = r.perPrefix[0];
    out.push({
      label,
      exact: p.exact,
      estimates: r.runs.map((x) => x.nDiff[0]),
      meanRelError: p.meanRelError,
      distinctLeaves: r.distinctLeaves,
    });
  }
  return { stats: st, rows: out };
}
