// Estimator accuracy: four data sets, each estimator at a budget of about 20 leaf pages, 10 runs
// each; mean and max relative error of the leading-column n_diff, spread, pages read, and the
// legacy page_rnd vs the fixed LCG.
import { createGenerator } from '@enginekit/prng';
import { runExperiment } from '../dist/index.js';
import { dataSets, loadDataSet } from './data.js';

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
        { samplePages: 20, version: '5.1', rng: createGenerator('innodb-page-rnd') },
      ],
      [
        'transient, LCG (fixed), 20 dives',
        'transient',
        { samplePages: 20, rng: createGenerator('innodb-lcg64', { seed: 1 }) },
      ],
      [
        'persistent 5.6, A = 20',
        'persistent',
        { samplePages: 20, rng: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }) },
      ],
      [
        'duj1, 20 blocks (all their rows)',
        'duj1',
        { targetBlocks: 20, targetRows: 30000, rng: createGenerator('xoshiro128**', { seed: 4 }) },
      ],
      ['HyperLogLog p = 14 (full scan)', 'hll', { precision: 14 }],
    ];
    for (const [label, method, options] of configs) {
      const r = runExperiment(tree, method, { ...options, runs: method === 'hll' ? 1 : runs });
      const p = r.perPrefix[0];
      out.push({
        dataSet: ds.name,
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
  return out;
}
