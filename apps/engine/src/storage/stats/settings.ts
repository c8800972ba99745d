/**
 * The system variables that steer ANALYZE TABLE and the statistics InnoDB computes when it opens a
 * table, with MySQL's names and defaults (5.6 for the persistent and transient ones, 5.1's built-in
 * InnoDB for `innodb_use_legacy_cardinality_algorithm`, 5.5+ for `innodb_stats_method`).
 */
export interface StatsSettings {
  /** ON: ANALYZE runs 5.6's `dict_stats_analyze_index` and stores the result; OFF: transient dives. */
  readonly innodb_stats_persistent: boolean;
  /** Leaf pages per key prefix for persistent statistics (A), unless the table sets STATS_SAMPLE_PAGES. */
  readonly innodb_stats_persistent_sample_pages: number;
  /** Random dives per index for transient statistics. */
  readonly innodb_stats_transient_sample_pages: number;
  /** ON: transient dives use 5.1's `page_rnd` (bug #43660); OFF: the LCG of its fix. */
  readonly innodb_use_legacy_cardinality_algorithm: boolean;
  /** How transient statistics compare NULLs. */
  readonly innodb_stats_method: StatsMethod;
  /** Recalculate once enough of a table changed (persistent: 10 %; transient always 1/16 + 16). */
  readonly innodb_stats_auto_recalc: boolean;
}

export type StatsMethod = 'nulls_equal' | 'nulls_unequal' | 'nulls_ignored';

export const STATS_METHODS: readonly StatsMethod[] = ['nulls_equal', 'nulls_unequal', 'nulls_ignored'];

export const DEFAULT_STATS_SETTINGS: StatsSettings = {
  innodb_stats_persistent: true,
  innodb_stats_persistent_sample_pages: 20,
  innodb_stats_transient_sample_pages: 8,
  innodb_use_legacy_cardinality_algorithm: true,
  innodb_stats_method: 'nulls_equal',
  innodb_stats_auto_recalc: true,
};

/** Something that answers a variable by name (the session layer's global `Variables`). */
export interface VariableReader {
  get(name: string): string | number;
}

/** Read the settings from system variables (booleans are 0/1, the method a string). */
export function statsSettingsFrom(vars: VariableReader): StatsSettings {
  const method = String(vars.get('innodb_stats_method')).toLowerCase();
  if (!STATS_METHODS.includes(method as StatsMethod))
    throw new RangeError(`innodb_stats_method: ${method} is not one of ${STATS_METHODS.join(', ')}`);
  return {
    innodb_stats_persistent: Number(vars.get('innodb_stats_persistent')) !== 0,
    innodb_stats_persistent_sample_pages: Number(vars.get('innodb_stats_persistent_sample_pages')),
    innodb_stats_transient_sample_pages: Number(vars.get('innodb_stats_transient_sample_pages')),
    innodb_use_legacy_cardinality_algorithm:
      Number(vars.get('innodb_use_legacy_cardinality_algorithm')) !== 0,
    innodb_stats_method: method as StatsMethod,
    innodb_stats_auto_recalc: Number(vars.get('innodb_stats_auto_recalc')) !== 0,
  };
}

/** A defaults-only reader, for a database no session has configured. */
export const DEFAULT_VARIABLES: VariableReader = {
  get(name: string): string | number {
    const v = (DEFAULT_STATS_SETTINGS as unknown as Record<string, unknown>)[name];
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'number' || typeof v === 'string') return v;
    throw new RangeError(`unknown statistics variable ${name}`);
  },
};

/**
 * Per-table options of CREATE TABLE (`STATS_PERSISTENT`, `STATS_SAMPLE_PAGES`,
 * `STATS_AUTO_RECALC`); undefined = DEFAULT (the global variable decides).
 */
export interface TableStatsOptions {
  readonly statsPersistent?: boolean;
  readonly statsSamplePages?: number;
  readonly statsAutoRecalc?: boolean;
}
