import type { BTree } from './btree.js';
import { type Duj1Options, estimateDuj1 } from './estimators/duj1.js';
import type { Estimate } from './estimators/estimate.js';
import { estimateExact } from './estimators/exact.js';
import { estimateHll, type HllOptions } from './estimators/hll.js';
import { estimatePersistent, type PersistentOptions } from './estimators/persistent.js';
import { estimateTransient, type TransientOptions } from './estimators/transient.js';

export type EstimatorName = 'transient' | 'persistent' | 'duj1' | 'exact' | 'hll';

export type EstimatorOptions = TransientOptions & PersistentOptions & Duj1Options & HllOptions;

/** Run one estimator by name. */
export function estimate(tree: BTree, method: EstimatorName, options: EstimatorOptions = {}): Estimate {
  switch (method) {
    case 'transient':
      return estimateTransient(
        tree,
        pick(options, [
          'rng',
          'innodb_use_legacy_cardinality_algorithm',
          'innodb_stats_transient_sample_pages',
          'version',
          'innodb_stats_method',
        ]),
      );
    case 'persistent':
      return estimatePersistent(tree, pick(options, ['rng', 'innodb_stats_persistent_sample_pages']));
    case 'duj1':
      return estimateDuj1(tree, pick(options, ['rng', 'targetRows', 'targetBlocks']));
    case 'exact':
      return estimateExact(tree);
    case 'hll':
      return estimateHll(tree, pick(options, ['precision']));
    default:
      throw new RangeError(
        `method must be one of transient, persistent, duj1, exact, hll; got ${String(method)}`,
      );
  }
}

function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Spread of one prefix's estimates over the runs, and their error against the exact count. */
export interface PrefixSummary {
  exact: number;
  mean: number;
  min: number;
  max: number;
  /** Population standard deviation of the estimates. */
  stddev: number;
  /** Mean and max of |estimate − exact| / exact over the runs (0 when exact is 0 and so is the estimate). */
  meanRelError: number;
  maxRelError: number;
}

export interface ExperimentResult {
  method: EstimatorName;
  runs: Estimate[];
  /** Exact distinct counts per prefix. */
  exact: number[];
  perPrefix: PrefixSummary[];
  /** Distinct leaf pages analyzed over all runs, and per run. */
  distinctLeaves: number;
  distinctLeavesPerRun: number[];
  /** Every run produced the same estimates (the legacy bug's signature). */
  identicalRuns: boolean;
  /** Mean pages read per run. */
  meanPagesRead: number;
}

/**
 * Run an estimator `runs` times on the same tree (with the same generator object, so its state
 * carries from run to run as the server's static did) and summarize: estimates, spread, distinct
 * leaves visited and error against {@link estimateExact}.
 *
 * @example
 * ```ts
 * const legacy = createGenerator('innodb-page-rnd');
 * const r = runExperiment(tree, 'transient', { runs: 10, rng: legacy });
 * r.identicalRuns; // true on a 3-record root of height 2: every dive lands on the same leaf
 * ```
 */
export function runExperiment(
  tree: BTree,
  method: EstimatorName,
  options: EstimatorOptions & { runs?: number } = {},
): ExperimentResult {
  const k = options.runs ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`runs must be an integer ≥ 1, got ${String(k)}`);
  const exact = estimateExact(tree).nDiff;
  const runs: Estimate[] = [];
  for (let i = 0; i < k; i++) runs.push(estimate(tree, method, options));
  const perPrefix = exact.map((ex, j): PrefixSummary => {
    const xs = runs.map((r) => r.nDiff[j]!);
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const errs = xs.map((x) => (ex === 0 ? (x === 0 ? 0 : Number.POSITIVE_INFINITY) : Math.abs(x - ex) / ex));
    return {
      exact: ex,
      mean,
      min: Math.min(...xs),
      max: Math.max(...xs),
      stddev: Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length),
      meanRelError: errs.reduce((a, x) => a + x, 0) / errs.length,
      maxRelError: Math.max(...errs),
    };
  });
  const all = new Set<number>();
  for (const r of runs) for (const p of r.leaves) all.add(p);
  const first = runs[0]!.nDiff.join(',');
  return {
    method,
    runs,
    exact,
    perPrefix,
    distinctLeaves: all.size,
    distinctLeavesPerRun: runs.map((r) => new Set(r.leaves).size),
    identicalRuns: runs.every((r) => r.nDiff.join(',') === first),
    meanPagesRead: runs.reduce((a, r) => a + r.pagesRead, 0) / runs.length,
  };
}
