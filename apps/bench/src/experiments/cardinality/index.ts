import type { Experiment } from '../../experiment.js';
import { POSTS } from '../../posts.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const cardinality: Experiment = {
  name: 'cardinality',
  title: 'Index statistics: ANALYZE estimates vs exact distinct counts',
  post: {
    title: 'InnoDB\'s "mistaken identity" and the statistics the optimizer plans with',
    sources: [POSTS.randomSelections],
    claim:
      'Sampled statistics depend on which pages the dives reach: with the legacy generator a 3-record root made every ANALYZE read the same leaf and report the same number; with a sound generator estimates move from run to run around the truth.',
  },
  options: '--sf N (TPC-H scale factor; default 0.1, 0.001 with --quick)',
  run: async (ctx) => present(await measure(ctx)),
};
