import type { Experiment } from '../../experiment.js';
import { POSTS } from '../../posts.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const mrrQ10: Experiment = {
  name: 'mrr-q10',
  title: 'Multi-Range Read on TPC-H Q10: mrr off vs on across mrr_buffer_size, in memory and IO-bound',
  post: {
    title: 'MRR in MySQL 5.6 and MariaDB 5.5 (TPC-H Q10, SF 2)',
    sources: [POSTS.mrr],
    claim:
      'With the pool far smaller than the data and cold, MRR sorts the primary keys of a secondary-index range, so reads become sequential, read-ahead kicks in and the query drops from minutes to under one; a buffer that holds every row id needs no refill. In memory it gains nothing.',
  },
  options: '--sf N (default 1; 0.01 with --quick)',
  run: async (ctx) => present(await measure(ctx)),
};
