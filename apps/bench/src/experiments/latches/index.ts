import type { Experiment } from '../../experiment.js';
import { POSTS } from '../../posts.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const latches: Experiment = {
  name: 'latches',
  title: 'Latches: atomics vs the 5.1 rw-lock under contention',
  post: {
    title: 'InnoDB Plugin 1.0.3\'s scalability work: the atomics ("Google SMP") mutex and rw-lock',
    sources: [POSTS.googlePatch, POSTS.pluginPerformance],
    claim:
      'Replacing the mutex-guarded rw-lock with one driven by compare-and-swap let the Plugin keep its throughput as concurrent users grew, where the built-in InnoDB of MySQL 5.1 lost ground.',
  },
  run: async (ctx) => present(await measure(ctx)),
};
