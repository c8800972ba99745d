import type { Chart, Claim, PostRef, Table } from './result.js';

/** What every experiment gets from the command line. */
export interface ExperimentContext {
  /** Tiny data and few repetitions: the CI smoke run. */
  readonly quick: boolean;
  /** `--sf N`: the TPC-H scale factor, for the experiments that generate TPC-H data. */
  readonly sf: number | undefined;
  /** `--all`: every query where an experiment has a short and a long list (peers: the 22). */
  readonly all?: boolean;
  /** Base seed; every generator an experiment creates is derived from it. */
  readonly seed: number;
  /** Progress lines (stderr in the CLI, silent in tests). */
  readonly log: (line: string) => void;
}

/** What an experiment hands back; the runner adds the machine, the times and the post. */
export interface ExperimentOutput {
  readonly config: Readonly<Record<string, unknown>>;
  readonly claims: readonly Claim[];
  readonly tables: readonly Table[];
  readonly charts: readonly Chart[];
  readonly data: unknown;
}

/**
 * One reproduced experiment, in a folder of its own under `src/experiments/<name>/`, listed in
 * `src/registry.ts`. The folder's `measure.ts` runs the workload and returns a typed,
 * JSON-serializable measurement; its `present.ts` turns that measurement, and nothing else, into
 * the config, claims, tables, charts and data (no workload, no I/O, no clock); its `index.ts`
 * holds this object, whose `run` is `present(await measure(context))`. Helpers only that
 * experiment uses sit in its folder; those several share sit in `src/internal/`. `run` must be
 * repeatable: the same context gives the same figures except for wall-clock times.
 */
export interface Experiment {
  readonly name: string;
  readonly title: string;
  readonly post: PostRef;
  /** Options the experiment reads besides `--quick` and `--seed` (shown by `list`). */
  readonly options?: string;
  run(context: ExperimentContext): Promise<ExperimentOutput>;
}
