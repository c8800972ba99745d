import { statusDelta } from '../peers/mariadb-tpch.js';
import type { SqlTarget } from '../peers/sql-target.js';

/** The counters of the posts' tables, in their order. */
export const Q10_COUNTERS = [
  'Handler_mrr_init',
  'Handler_mrr_key_refills',
  'Handler_mrr_rowid_refills',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd',
  'Handler_read_rnd_next',
  'Innodb_buffer_pool_read_ahead',
  'Innodb_buffer_pool_read_requests',
  'Innodb_buffer_pool_reads',
  'Innodb_data_read',
  'Innodb_data_reads',
  'Innodb_pages_read',
  'Innodb_rows_read',
  'Select_scan',
  'Sort_scan',
] as const;

/** One configuration run through SQL on one system. */
export interface SqlRun {
  readonly config: string;
  /** SHOW SESSION STATUS deltas around the (first timed) run. */
  readonly counters: Readonly<Record<string, number>>;
  /** Wall milliseconds: the median of the timed runs. */
  readonly ms: number;
  /** enginekit: modeled disk milliseconds of the run (hdd model); undefined for MariaDB. */
  readonly modeledMs: number | undefined;
  readonly answer: readonly (readonly string[])[];
  /** SET statements the system refused (a variable it does not have), with its error. */
  readonly rejected: readonly string[];
}

export interface SqlConfigRuns {
  /** One run per configuration, in order; undefined where the configuration was skipped. */
  readonly warm: (SqlRun | undefined)[];
  readonly cold: (SqlRun | undefined)[];
  /** Whether the system acted on the switches: some run counted DS-MRR or a refill. */
  readonly acted: boolean;
}

/** Smallest pool the runs ask for: MariaDB refuses less than a few MiB. */
const MIN_POOL = 6 << 20;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[s.length >> 1] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

async function once(
  t: SqlTarget,
  statements: readonly string[],
  sql: string,
  label: string,
  runs: number,
): Promise<SqlRun> {
  const rejected: string[] = [];
  for (const s of statements) {
    try {
      await t.exec(s);
    } catch (e) {
      rejected.push(`${s}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const before = await t.status();
  const m0 = t.modeledMs();
  const t0 = performance.now();
  const answer = await t.query(sql);
  const times = [performance.now() - t0];
  const m1 = t.modeledMs();
  const after = await t.status();
  for (let i = 1; i < runs; i++) {
    const t1 = performance.now();
    await t.query(sql);
    times.push(performance.now() - t1);
  }
  return {
    config: label,
    counters: statusDelta(before, after, [...new Set([...Q10_COUNTERS, ...Object.keys(after)])]),
    ms: median(times),
    modeledMs: m0 === undefined || m1 === undefined ? undefined : m1 - m0,
    answer,
    rejected,
  };
}

/**
 * Every configuration on one system: in memory (one warm pool of 1.5× the data, the query run
 * once before the clock) and IO-bound (for each configuration a cold start with a pool of
 * `coldFraction` of the data; enginekit through the hdd model).
 */
export async function runSqlConfigs<C extends { readonly label: string }>(
  t: SqlTarget,
  configs: readonly C[],
  statements: (c: C) => string[],
  sql: string,
  dataBytes: number,
  runs: number,
  options: { readonly coldFraction?: number; readonly only?: (index: number) => boolean } = {},
): Promise<SqlConfigRuns> {
  const only = options.only ?? (() => true);
  const warm: (SqlRun | undefined)[] = [];
  await t.open(Math.max(MIN_POOL, Math.ceil(dataBytes * 1.5)), false);
  await t.query(sql);
  for (const [i, c] of configs.entries())
    warm.push(only(i) ? await once(t, statements(c), sql, c.label, runs) : undefined);
  const cold: (SqlRun | undefined)[] = [];
  const coldPool = Math.max(MIN_POOL, Math.round(dataBytes * (options.coldFraction ?? 0.08)));
  for (const [i, c] of configs.entries()) {
    if (!only(i)) {
      cold.push(undefined);
      continue;
    }
    await t.open(coldPool, true);
    cold.push(await once(t, statements(c), sql, c.label, 1));
  }
  const acted = [...warm, ...cold].some(
    (r) =>
      r !== undefined &&
      ((r.counters.Handler_mrr_init ?? 0) > 0 || (r.counters.Handler_mrr_rowid_refills ?? 0) > 0),
  );
  return { warm, cold, acted };
}

/** What a table says about the engine's SQL path. */
export function sqlNote(engine: SqlConfigRuns | undefined): string {
  if (engine === undefined) return 'The engine SQL path did not run.';
  return engine.acted
    ? "Engine SQL path: the post's statements (SET optimizer_switch, the buffer variables) through @enginekit/engine's Session; it counted DS-MRR (Handler_mrr_init), so it acts on them."
    : "Engine SQL path: the post's statements through @enginekit/engine's Session run, but its optimizer does not act on these switches yet, so no run counts Handler_mrr_init and the configurations read the same pages (give or take the pool's clock-based aging); the package path is the one that measures the technique.";
}
