import type { Experiment } from './experiment.js';
import { bufferPool } from './experiments/buffer-pool/index.js';
import { bkaQ3 } from './experiments/bka-q3/index.js';
import { cardinality } from './experiments/cardinality/index.js';
import { indexBuild } from './experiments/index-build/index.js';
import { latches } from './experiments/latches/index.js';
import { mrrQ10 } from './experiments/mrr-q10/index.js';
import { oltp } from './experiments/oltp/index.js';
import { peers } from './experiments/peers/index.js';
import { prngBias } from './experiments/prng-bias/index.js';

/**
 * Every experiment the CLI can run. A new experiment is a folder under `src/experiments/`
 * (`measure.ts`, `present.ts`, and an `index.ts` exporting its {@link Experiment}), plus one
 * line here.
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
