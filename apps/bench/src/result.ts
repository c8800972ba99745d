import type { Citation } from './posts.js';

/**
 * The JSON an experiment writes, and the report reads. One shape for every experiment: its
 * configuration, the post's claims beside ours, tables (what the CLI prints) and charts (what the
 * report draws), plus the experiment's own raw data.
 */

/** Format tag of a result file; bumped when the shape changes incompatibly. */
export const RESULT_SCHEMA = 'enginekit-bench/experiment@1';

export type Cell = string | number | boolean | null;

export interface Column {
  /** Key of the value in each row. */
  readonly key: string;
  /** Header text. */
  readonly label: string;
  /** Digits after the decimal point for numbers (default: integers as is, others 2). */
  readonly digits?: number;
}

export interface Table {
  readonly id: string;
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: readonly Readonly<Record<string, Cell>>[];
  /** One or two sentences under the table: what to read in it. */
  readonly note?: string;
}

/** One bar or one curve point; `low`/`high` draw the spread (min–max of the runs) when given. */
export interface ChartPoint {
  readonly x: string | number;
  readonly y: number;
  readonly low?: number;
  readonly high?: number;
}

export interface ChartSeries {
  readonly name: string;
  readonly points: readonly ChartPoint[];
}

/**
 * `bars`: categories on x (the points' `x` labels, in the first series' order), one bar per
 * series in each category. `lines`: numeric x, one curve per series.
 */
export interface Chart {
  readonly id: string;
  readonly kind: 'bars' | 'lines';
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** `lines` only: `log` spaces x logarithmically (buffer sizes that grow by factors). Default linear. */
  readonly xScale?: 'linear' | 'log';
  readonly series: readonly ChartSeries[];
}

/** A figure of the post beside ours. `holds`: the verdict computed from the run, null where the run cannot judge it. */
export interface Claim {
  readonly text: string;
  readonly post: string;
  readonly ours: string;
  readonly holds: boolean | null;
}

export interface PostRef {
  /** What the experiment reproduces, in our words. */
  readonly title: string;
  /** The posts it comes from (title, author, date, address); none for the project's own comparisons. */
  readonly sources?: readonly Citation[];
  /** What the post claims, in one or two sentences of our own. */
  readonly claim: string;
}

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly nodeVersion: string;
  readonly platform: string;
  readonly arch: string;
  readonly totalMemoryBytes: number;
  /** `os.loadavg()` when the experiment started: 1, 5 and 15 minutes. */
  readonly loadAverage: readonly number[];
  /** `os.loadavg()` when it ended. */
  readonly loadAverageAfter?: readonly number[];
  /** `git rev-parse HEAD` of the working tree, or null outside a git checkout. */
  readonly gitCommit: string | null;
  /** Uncommitted changes in the working tree (null when unknown). */
  readonly gitDirty: boolean | null;
}

export interface ExperimentResult {
  readonly schema: typeof RESULT_SCHEMA;
  readonly experiment: string;
  readonly title: string;
  readonly post: PostRef;
  /** Every setting the run used (sizes, seeds, runs, scale factor). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly quick: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly machine: MachineInfo;
  readonly claims: readonly Claim[];
  readonly tables: readonly Table[];
  readonly charts: readonly Chart[];
  /** The experiment's own raw figures (shape per experiment). */
  readonly data: unknown;
}

/** Throws a TypeError naming the first field that does not fit {@link ExperimentResult}. */
export function checkResult(value: unknown, where: string): ExperimentResult {
  const fail = (what: string): never => {
    throw new TypeError(`${where}: not an enginekit-bench result (${what})`);
  };
  if (typeof value !== 'object' || value === null) return fail('not a JSON object');
  const r = value as Record<string, unknown>;
  if (r.schema !== RESULT_SCHEMA) fail(`schema is ${JSON.stringify(r.schema)}, expected "${RESULT_SCHEMA}"`);
  for (const key of ['experiment', 'title', 'startedAt'] as const) {
    if (typeof r[key] !== 'string') fail(`${key} is not a string`);
  }
  for (const key of ['claims', 'tables', 'charts'] as const) {
    if (!Array.isArray(r[key])) fail(`${key} is not an array`);
  }
  if (typeof r.post !== 'object' || r.post === null) fail('post is missing');
  if (typeof r.machine !== 'object' || r.machine === null) fail('machine is missing');
  for (const c of r.charts as unknown[]) {
    const chart = c as Partial<Chart>;
    if (chart.kind !== 'bars' && chart.kind !== 'lines')
      fail(`chart ${String(chart.id)} has kind ${String(chart.kind)}`);
    if (!Array.isArray(chart.series)) fail(`chart ${String(chart.id)} has no series`);
  }
  return value as ExperimentResult;
}
