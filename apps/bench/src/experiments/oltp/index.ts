import type { Experiment } from '../../experiment.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const oltp: Experiment = {
  name: 'oltp',
  title: 'sysbench point_select, read_only, write_only and read_write against enginekit serve and MariaDB',
  post: {
    title: 'sysbench OLTP against the server over its unix socket',
    sources: [],
    claim:
      'TPS, p95, lock waits and deadlocks per thread count, MariaDB beside the engine, and the ratio; writers at ≥ 0.7× MariaDB from 4 threads.',
  },
  options: 'needs sysbench on PATH (skipped otherwise); MariaDB columns when mariadbd is installed',
  run: async (ctx) => present(await measure(ctx)),
};
