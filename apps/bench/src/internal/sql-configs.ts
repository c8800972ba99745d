import { round } from '../measure.js';
import { statusDelta } from '../peers/mariadb-tpch.js';
import type { SqlTarget, Start } from '../peers/sql-target.js';

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
  /** One run per configuration, in order (empty when the runs in memory were left out). */
  readonly warm: SqlRun[];
  /**
   * IO-bound, the runs whose counters the tables show: enginekit over the hdd model (modeled
   * seconds, deterministic), MariaDB on this machine's disk (it has no model).
   */
  readonly cold: SqlRun[];
  /** IO-bound on this machine's disk, the OS cache dropped: wall time. MariaDB's are its `cold`. */
  readonly disk: (SqlRun | undefined)[];
  /** The cold runs' `innodb_buffer_pool_size`. */
  readonly coldPoolBytes: number;
  /** Whether the OS page cache was dropped before every disk run (needs root). */
  readonly osCacheDropped: boolean;
  /** Whether the system acted on the switches: some run counted DS-MRR or a refill. */
  readonly acted: boolean;
}

/** The posts' proportion: a 1 GB pool over about 5 GB of data and indexes. */
export const COLD_FRACTION = 0.2;

/** The cold pool in words, for titles. */
export const COLD_POOL: string = `a cold pool at ${Math.round(COLD_FRACTION * 100)} % of the data`;

/** A counter of a run that may be missing. */
export const counterOf = (r: SqlRun | undefined, name: string): number | null => r?.counters[name] ?? null;

/** Milliseconds as seconds with two decimals, or null. */
export const seconds = (ms: number | undefined | null): number | null =>
  ms === undefined || ms === null ? null : round(ms / 1000, 2);

/** "×3.5": how many times `a` is `b`, or "—" when either is missing. */
export const timesText = (a: number | null | undefined, b: number | null | undefined): string =>
  a && b ? `×${round(a / b, 1)}` : '—';

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

export interface SqlConfigOptions {
  /** Pool of the IO-bound runs, as a fraction of the data (default {@link COLD_FRACTION}). */
  readonly coldFraction?: number;
  /** Run in memory too (default true). */
  readonly warm?: boolean;
  /** enginekit: run on the real disk too, beside the hdd model (default true). */
  readonly disk?: boolean;
}

/**
 * Every configuration on one system: in memory (one warm pool of 1.5× the data, the query run
 * once before the clock, then `runs` timed runs) and IO-bound (for each configuration a cold
 * start with a pool of `coldFraction` of the data: enginekit over the hdd model and again on the
 * real file with the OS cache dropped; MariaDB restarted with the OS cache dropped).
 */
export async function runSqlConfigs<C extends { readonly label: string }>(
  t: SqlTarget,
  configs: readonly C[],
  statements: (c: C) => string[],
  sql: string,
  dataBytes: number,
  runs: number,
  options: SqlConfigOptions = {},
): Promise<SqlConfigRuns> {
  const warm: SqlRun[] = [];
  if (options.warm !== false) {
    await t.open(Math.max(MIN_POOL, Math.ceil(dataBytes * 1.5)), 'warm');
    await t.query(sql);
    for (const c of configs) warm.push(await once(t, statements(c), sql, c.label, runs));
  }
  const coldPoolBytes = Math.max(MIN_POOL, Math.round(dataBytes * (options.coldFraction ?? COLD_FRACTION)));
  let osCacheDropped = true;
  const coldRuns = async (start: Start): Promise<SqlRun[]> => {
    const out: SqlRun[] = [];
    for (const c of configs) {
      const dropped = await t.open(coldPoolBytes, start);
      if (start === 'disk' && !dropped) osCacheDropped = false;
      out.push(await once(t, statements(c), sql, c.label, 1));
    }
    return out;
  };
  const cold = await coldRuns(t.models ? 'model' : 'disk');
  const disk = !t.models
    ? cold
    : options.disk === false
      ? configs.map(() => undefined)
      : await coldRuns('disk');
  const acted = [...warm, ...cold].some(
    (r) =>
      r !== undefined &&
      ((r.counters.Handler_mrr_init ?? 0) > 0 || (r.counters.Handler_mrr_rowid_refills ?? 0) > 0),
  );
  return { warm, cold, disk, coldPoolBytes, osCacheDropped, acted };
}

/** What the IO-bound figures of a table are, for its note. */
export function ioNote(engine: SqlConfigRuns | undefined, maria: SqlConfigRuns | undefined): string {
  const parts: string[] = [];
  if (engine !== undefined) {
    parts.push(
      `enginekit: each configuration from an empty pool of ${mib(engine.coldPoolBytes)}, first over the hdd model (10 ms seek, 5,400 rpm, 100 MB/s, one queue: modeled seconds, seeded, the same on any machine), then on the database file on this machine's disk through the OS, its page cache ${engine.osCacheDropped ? 'dropped before each run' : 'NOT dropped (not root), so those reads may come from memory'} (wall seconds)`,
    );
    if (!engine.acted) parts.push('the engine counted no DS-MRR: it did not act on the switches');
  }
  if (maria !== undefined)
    parts.push(
      `MariaDB: restarted for each configuration with a pool of ${mib(maria.coldPoolBytes)} (the same fraction of its own data), O_DIRECT, the OS cache ${maria.osCacheDropped ? 'dropped' : 'NOT dropped (not root)'}; wall seconds on the same disk`,
    );
  return parts.length === 0 ? 'No SQL system ran.' : `${parts.join('; ')}.`;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
