import type { Experiment } from '../../experiment.js';
import { POSTS } from '../../posts.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const bkaQ3: Experiment = {
  name: 'bka-q3',
  title: 'Batched Key Access on TPC-H Q3: BNL/NLJ vs BKA vs BKAH, buffer and pool sweeps',
  post: {
    title: 'Join optimizations in MySQL 5.6 and MariaDB 5.5 (TPC-H Q3 with FORCE INDEX (i_l_orderkey), SF 2)',
    sources: [POSTS.joins],
    claim:
      'IO-bound, BKA batches the lineitem lookups and reads them through MRR in primary-key order: the query falls from 2534 s to under a minute, provided both join_buffer_size and mrr_buffer_size are raised; in memory it changes little, and hash join or key-ordered scan add nothing.',
  },
  options: '--sf N (default 1; 0.01 with --quick)',
  run: async (ctx) => present(await measure(ctx)),
};
