import type { Experiment } from '../../experiment.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const peers: Experiment = {
  name: 'peers',
  title: 'TPC-H in enginekit, SQLite and DuckDB on the same data: answers, times, load and size',
  post: {
    title: 'The engine beside the embedded databases a user would otherwise pick',
    sources: [],
    claim: 'Every answer matches; the times and ratios say where the engine stands.',
  },
  options: '--sf N (default 0.1; 0.01 with --quick), --all (the 22 queries)',
  run: async (ctx) => present(await measure(ctx)),
};
