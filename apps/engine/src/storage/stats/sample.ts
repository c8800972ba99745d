import { estimatePersistent, estimateTransient } from '@enginekit/btree-sampler';
import type { IndexStatistics, TableStatistics } from '../statistics.js';
import type { Table, TableIndex } from '../table.js';
import type { StatsGenerators } from './generators.js';
import type { StatsSettings, TableStatsOptions } from './settings.js';

/** Which estimator a table gets, from the global variables and its own options. */
export interface StatsPlan {
  readonly persistent: boolean;
  /** Persistent: A, the leaf pages per key prefix. Transient: the dives per index. */
  readonly samplePages: number;
  readonly autoRecalc: boolean;
}

/**
 * `dict_stats_is_persistent_enabled` and `dict_stats_auto_recalc_is_enabled` (dict0stats.ic, 5.6):
 * a table's STATS_PERSISTENT / STATS_AUTO_RECALC win over the global variables; `N_SAMPLE_PAGES`:
 * STATS_SAMPLE_PAGES when set, else innodb_stats_persistent_sample_pages. Transient statistics
 * always take innodb_stats_transient_sample_pages (5.6 ignores STATS_SAMPLE_PAGES there).
 */
export function statsPlan(settings: StatsSettings, options: TableStatsOptions): StatsPlan {
  const persistent = options.statsPersistent ?? settings.innodb_stats_persistent;
  return {
    persistent,
    samplePages: persistent
      ? (options.statsSamplePages ?? settings.innodb_stats_persistent_sample_pages)
      : settings.innodb_stats_transient_sample_pages,
    autoRecalc: options.statsAutoRecalc ?? settings.innodb_stats_auto_recalc,
  };
}

/**
 * One index's statistics with the estimator the plan names, on the engine's tree.
 *
 * - persistent: `dict_stats_analyze_index` (dict0stats.cc, 5.6) with A = `plan.samplePages` and
 *   `ut_rnd_interval` from `gens.utRnd`; NULLs compare equal whatever `innodb_stats_method` says,
 *   as in 5.6.
 * - transient: `btr_estimate_number_of_different_key_vals` (btr0cur.c). With
 *   `innodb_use_legacy_cardinality_algorithm=ON` the dives follow 5.1's built-in InnoDB: `page_rnd`
 *   and always that many dives, even on an index of fewer pages; OFF: the LCG of the fix and
 *   min(dives, index pages), as the plugin and 5.5+. `innodb_stats_method` decides NULL equality
 *   and, for `nulls_ignored`, the non-NULL counts.
 *
 * Page counts come from the non-leaf levels and the free list (`BTree.shape`, as `btr_get_size`
 * reads segment headers; `size` counts the free-list pages too, as the segment still holds them):
 * ANALYZE reads the sampled leaves only.
 */
export function sampleIndex(
  ix: TableIndex,
  plan: StatsPlan,
  settings: StatsSettings,
  gens: StatsGenerators,
): IndexStatistics {
  const shape = ix.tree.shape();
  if (plan.persistent) {
    const e = estimatePersistent(ix.tree, {
      innodb_stats_persistent_sample_pages: plan.samplePages,
      rng: gens.utRnd,
    });
    return {
      name: ix.name,
      nDiff: e.nDiff,
      sampleSize: e.sampleSize,
      leafPages: e.leafPages,
      sizePages: shape.totalPages,
      height: shape.height,
    };
  }
  const legacy = settings.innodb_use_legacy_cardinality_algorithm;
  const e = estimateTransient(ix.tree, {
    rng: legacy ? gens.pageRnd : gens.lcg,
    innodb_stats_transient_sample_pages: plan.samplePages,
    version: legacy ? '5.1' : '5.5',
    innodb_stats_method: settings.innodb_stats_method,
  });
  return {
    name: ix.name,
    nDiff: e.nDiff,
    sampleSize: e.sampleSize,
    ...(e.nNonNull === undefined ? {} : { nNonNull: e.nNonNull }),
    leafPages: e.leafPages,
    sizePages: shape.totalPages,
    height: shape.height,
  };
}

/**
 * A table's statistics from its indexes' (`dict_stats_update_persistent` /
 * `dict_stats_update_transient`): `stat_n_rows` = the clustered index's n_diff of its whole key,
 * `stat_clustered_index_size` its pages, `stat_sum_of_other_index_sizes` the secondaries' pages.
 * `known` holds indexes already computed (the others are sampled now).
 */
export function tableStatistics(
  table: Table,
  plan: StatsPlan,
  settings: StatsSettings,
  gens: StatsGenerators,
  now: number,
  known: ReadonlyMap<string, IndexStatistics> = new Map(),
): TableStatistics {
  const indexes = new Map<string, IndexStatistics>();
  let otherPages = 0;
  for (const ix of [table.primary, ...table.secondary]) {
    const s = known.get(ix.name) ?? sampleIndex(ix, plan, settings, gens);
    indexes.set(ix.name, s);
    if (!ix.primary) otherPages += s.sizePages;
  }
  const pk = indexes.get(table.primary.name)!;
  return {
    rows: pk.nDiff[pk.nDiff.length - 1] ?? 0,
    clusteredPages: pk.sizePages,
    otherPages,
    indexes,
    method: plan.persistent ? 'persistent' : 'transient',
    lastUpdate: now,
  };
}
