import type { Experiment } from './experiment.js';
import { bufferPool } from './experiments/buffer-pool.js';
import { bkaQ3 } from './experiments/bka-q3.js';
import { cardinality } from './experiments/cardinality.js';
import { indexBuild } from './experiments/index-build.js';
import { latches } from './experiments/latches.js';
import { mrrQ10 } from './experiments/mrr-q10.js';
import { oltp } from './experiments/oltp.js';
import { peers } from './experiments/peers.js';
import { prngBias } from './experiments/prng-bias.js';

/**
 * Every experiment the CLI can run. A new experiment is a file under `src/experiments/`
 * exporting an {@link Experiment}, plus one line here.
 */
export const EXPERIMENTS: readonly Experiment[] = [
  prngBias,
  cardinality,
  bufferPool,
  latches,
  mrrQ10,
  bkaQ3,
  indexBuild,
  peers,
  oltp,
];

/**
 * Experiments of the posts that are not here yet; listed so `experiment <name>` can say why.
 */
export const PLANNED: Readonly<Record<string, string>> = {};

/** The experiment called `name`, or undefined. */
export function findExperiment(name: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}
