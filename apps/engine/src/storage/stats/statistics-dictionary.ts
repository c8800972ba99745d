import type { Catalog } from '../catalog.js';
import type { TableStatistics } from '../statistics.js';
import type { Table } from '../table.js';
import { type StatsGenerators, serverGenerators } from './generators.js';
import { type StatsPlan, statsPlan, tableStatistics } from './sample.js';
import {
  DEFAULT_VARIABLES,
  type StatsSettings,
  statsSettingsFrom,
  type TableStatsOptions,
  type VariableReader,
} from './settings.js';
import {
  loadPersistent,
  loadTableOptions,
  type StoredStatistics,
  savePageCounts,
  savePersistent,
  saveTableOptions,
} from './store.js';

interface Entry {
  readonly stats: TableStatistics;
  /** The index names the statistics were made for (an index added or dropped since: redo). */
  readonly indexKey: string;
  /** The table's statistics generation they belong to (another thread recalculated since: reload). */
  readonly generation: number;
}

/**
 * How {@link StatisticsDictionary} came by the statistics it caches: `computed` (or replaced) here
 * — the counter starts again and the generation moves on; `loaded` on first use — the counter
 * starts again; `reloaded` after another thread's recalculation — nothing changes.
 */
type Kept = 'computed' | 'loaded' | 'reloaded';

/**
 * The statistics in the dictionary, as InnoDB keeps them in `dict_table_t`: computed when a table
 * is first used (`dict_stats_init` on open), by ANALYZE TABLE (`ha_innobase::analyze`), and again
 * when enough rows changed (`row_update_statistics_if_needed`); persistent ones are saved in and
 * loaded from SYS_STATS (mysql.innodb_table_stats / innodb_index_stats). One per database.
 */
export class StatisticsDictionary {
  readonly #catalog: Catalog;
  readonly #cache = new Map<number, Entry>();
  /** Table options as read from SYS_STATS once (the optimizer asks for statistics per query). */
  readonly #options = new Map<number, TableStatsOptions>();
  /** The server's random generators (replace them to make sampling repeatable). */
  generators: StatsGenerators = serverGenerators();
  /** Where the `innodb_stats_*` variables are read (the SQL layer's global variables). */
  variables: VariableReader = DEFAULT_VARIABLES;
  /** The clock for `last_update`, ms since the epoch. */
  now: () => number = Date.now;

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  settings(): StatsSettings {
    return statsSettingsFrom(this.variables);
  }

  /** The estimator and sample size this table gets now. */
  plan(table: Table): StatsPlan {
    return statsPlan(this.settings(), this.options(table.id));
  }

  /**
   * The table's statistics: cached; on first use (or after an index was added or dropped) loaded
   * from SYS_STATS or computed as `dict_stats_update(DICT_STATS_FETCH_ONLY_IF_NOT_IN_MEMORY)` does;
   * recalculated first when the modified-rows counter passed the threshold
   * ({@link changedTooMuch}).
   */
  /**
   * The cached statistics when {@link statistics} would return them without computing or saving
   * anything, else undefined.
   */
  fresh(table: Table): TableStatistics | undefined {
    const e = this.#cache.get(table.id);
    if (e === undefined || e.indexKey !== indexKey(table) || e.generation !== table.statsGeneration)
      return undefined;
    const plan = statsPlan(this.settings(), this.options(table.id));
    return changedTooMuch(table.statModifiedCounter, e.stats.rows, plan) ? undefined : e.stats;
  }

  statistics(table: Table): TableStatistics {
    const settings = this.settings();
    const plan = statsPlan(settings, this.options(table.id));
    const e = this.#cache.get(table.id);
    if (e === undefined || e.indexKey !== indexKey(table)) return this.#open(table, settings, plan);
    if (e.generation !== table.statsGeneration) return this.#reload(table, settings, plan);
    if (changedTooMuch(table.statModifiedCounter, e.stats.rows, plan))
      return this.#recalc(table, settings, plan);
    return e.stats;
  }

  /** ANALYZE TABLE: sample every index now (persistent ones are saved), reset the counter. */
  analyze(table: Table): TableStatistics {
    const settings = this.settings();
    return this.#recalc(table, settings, statsPlan(settings, this.options(table.id)));
  }

  /**
   * Replace a table's statistics with given numbers, saved as persistent ones — what editing
   * mysql.innodb_table_stats / innodb_index_stats and FLUSH TABLE does in MySQL, to make the
   * optimizer see chosen (for instance wrong) statistics. Every index of the table must be there,
   * with one n_diff per key field InnoDB counts (n_uniq). Resets the modified-rows counter.
   */
  put(table: Table, stats: TableStatistics): TableStatistics {
    for (const ix of [table.primary, ...table.secondary]) {
      const st = stats.indexes.get(ix.name);
      if (st === undefined)
        throw new RangeError(`stats.indexes: no statistics for index ${ix.name} of ${table.name}`);
      const nUniq = ix.primary || ix.unique ? ix.columns.length : ix.entryColumns.length;
      if (st.nDiff.length !== nUniq)
        throw new RangeError(
          `stats.indexes: index ${ix.name} of ${table.name} counts ${nUniq} key fields, got ${st.nDiff.length} n_diff values`,
        );
      for (const v of [...st.nDiff, st.leafPages, st.sizePages])
        if (!Number.isSafeInteger(v) || v < 0)
          throw new RangeError(
            `stats.indexes: index ${ix.name} has a value that is not a count: ${String(v)}`,
          );
    }
    for (const v of [stats.rows, stats.clusteredPages, stats.otherPages])
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(`stats: ${table.name} has a value that is not a count: ${String(v)}`);
    const s: TableStatistics = { ...stats, method: 'persistent', lastUpdate: this.now() };
    savePersistent(this.#catalog, table, s);
    return this.#keep(table, s, 'computed');
  }

  /** The statistics in memory, without computing or recalculating anything (undefined: none yet). */
  cached(table: Table): TableStatistics | undefined {
    const e = this.#cache.get(table.id);
    return e !== undefined && e.indexKey === indexKey(table) && e.generation === table.statsGeneration
      ? e.stats
      : undefined;
  }

  /** The persistent statistics saved for a table (what mysql.innodb_*_stats show), or undefined. */
  stored(table: Table): StoredStatistics | undefined {
    return loadPersistent(this.#catalog, table);
  }

  /** A table's STATS_* options (absent ones: DEFAULT). */
  options(tableId: number): TableStatsOptions {
    let o = this.#options.get(tableId);
    if (o === undefined) {
      o = loadTableOptions(this.#catalog, tableId);
      this.#options.set(tableId, o);
    }
    return o;
  }

  /** CREATE / ALTER TABLE … STATS_PERSISTENT, STATS_SAMPLE_PAGES, STATS_AUTO_RECALC. */
  setOptions(tableId: number, o: TableStatsOptions): void {
    if (o.statsSamplePages !== undefined && (!Number.isInteger(o.statsSamplePages) || o.statsSamplePages < 1))
      throw new RangeError(`STATS_SAMPLE_PAGES must be an integer ≥ 1, got ${String(o.statsSamplePages)}`);
    saveTableOptions(this.#catalog, tableId, o);
    this.#options.set(tableId, { ...o });
    this.#cache.delete(tableId);
  }

  /** Forget the cached statistics of a table (dropped). */
  forget(tableId: number): void {
    this.#cache.delete(tableId);
    this.#options.delete(tableId);
  }

  #open(table: Table, settings: StatsSettings, plan: StatsPlan): TableStatistics {
    if (plan.persistent) {
      const stored = loadPersistent(this.#catalog, table);
      if (stored !== undefined && stored.missing.length === 0)
        return this.#keep(table, stored.table, 'loaded');
      // an index without stored rows (added since): sampled and saved alone, as
      // dict_stats_update_for_index after ALTER TABLE … ADD INDEX
      if (stored !== undefined) return this.#recalc(table, settings, plan, stored);
      // never saved: dict_stats_update recalculates when auto-recalc is on, else uses transient
      if (plan.autoRecalc) return this.#recalc(table, settings, plan);
      return this.#recalc(table, settings, {
        ...plan,
        persistent: false,
        samplePages: settings.innodb_stats_transient_sample_pages,
      });
    }
    return this.#recalc(table, settings, plan);
  }

  #recalc(
    table: Table,
    settings: StatsSettings,
    plan: StatsPlan,
    stored?: StoredStatistics,
  ): TableStatistics {
    const s = tableStatistics(table, plan, settings, this.generators, this.now(), stored?.indexes);
    if (plan.persistent) savePersistent(this.#catalog, table, s);
    else savePageCounts(this.#catalog, table, s);
    return this.#keep(table, s, 'computed');
  }

  /**
   * Another thread recalculated the table's statistics since this one cached them (worker
   * threads share the counter and the generation): persistent ones are read again as saved,
   * transient ones sampled again here; neither resets the counter nor moves the generation.
   */
  #reload(table: Table, settings: StatsSettings, plan: StatsPlan): TableStatistics {
    if (plan.persistent) {
      const stored = loadPersistent(this.#catalog, table);
      if (stored !== undefined && stored.missing.length === 0)
        return this.#keep(table, stored.table, 'reloaded');
    }
    const s = tableStatistics(table, plan, settings, this.generators, this.now());
    return this.#keep(table, s, 'reloaded');
  }

  #keep(table: Table, s: TableStatistics, how: Kept): TableStatistics {
    if (how !== 'reloaded') table.statModifiedCounter = 0;
    if (how === 'computed') table.statsGeneration++;
    this.#cache.set(table.id, { stats: s, indexKey: indexKey(table), generation: table.statsGeneration });
    return s;
  }
}

function indexKey(table: Table): string {
  return [table.primary, ...table.secondary].map((i) => `${i.id}`).join(',');
}

/**
 * `row_update_statistics_if_needed` (row0mysql.cc 5.6; row0mysql.c 5.1), which compares the counter
 * as it was before the latest change (`counter = stat_modified_counter++`) with `n_rows`, the
 * statistics' row estimate: persistent, with auto-recalc, when counter > n_rows / 10 (5.6 queues
 * the table for the background recalculation); transient when counter > 16 + n_rows / 16, or, as
 * 5.1, counter > 2,000,000,000. Integer division as the C.
 */
export function changedTooMuch(modified: number, rows: number, plan: StatsPlan): boolean {
  const counter = modified - 1;
  if (counter < 0) return false;
  if (plan.persistent) return plan.autoRecalc && counter > Math.floor(rows / 10);
  return counter > 2_000_000_000 || counter > 16 + Math.floor(rows / 16);
}
