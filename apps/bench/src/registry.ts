import type { Experiment } from './experiment.js';
import { bufferPool } from './experiments/buffer-pool.js';
import { bkaQ3 } from './experiments/bka-q3.js';
import { cardinality } from './experiments/cardinality.js';
import { latches } from './experiments/latches.js';
import { mrrQ10 } from './experiments/mrr-q10.js';
import { prngBias } from './experiments/prng-bias.js';

/**
 * Every experiment the CLI can run. A new experiment is a file under `src/experiments/`
 * exporting an {@link Experiment}, plus one line here.
 */
export const EXPERIMENTS: readonly Experiment[] = [prngBias, cardinality, bufferPool, latches, mrrQ10, bkaQ3];

/**
 * Experiments of the posts that need the SQL engine (parser, planner, optimizer, server); they
 * are listed so `experiment <name>` can say why they do not run yet.
 */
export const PLANNED: Readonly<Record<string, string>> = {
  'index-build':
    'ALTER TABLE ADD INDEX / ADD COLUMN with expand_fast_index_creation: needs the query engine (DDL)',
  peers: 'TPC-H queries in enginekit, SQLite and DuckDB side by side: needs the query engine',
  oltp: 'sysbench point_select / read_only / read_write: needs the server',
};

/** The experiment called `name`, or undefined. */
export function findExperiment(name: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}
