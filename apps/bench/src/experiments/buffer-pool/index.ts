import type { Experiment } from '../../experiment.js';
import { POSTS } from '../../posts.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const bufferPool: Experiment = {
  name: 'buffer-pool',
  title: 'Buffer pool: scan resistance, read-ahead, instances',
  post: {
    title: 'Read-ahead under sequential access (the MRR post) and buffer pool instances (the sysbench post)',
    sources: [POSTS.mrr, POSTS.sysbench],
    claim:
      'When rows are fetched in page order InnoDB notices the sequential pattern and reads ahead (high Innodb_buffer_pool_read_ahead); read-only sysbench was run with 16 pool instances. The midpoint LRU with innodb_old_blocks_time is what keeps such scans from evicting the working set.',
  },
  run: async (ctx) => present(await measure(ctx)),
};
