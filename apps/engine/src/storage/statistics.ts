import { estimateExact } from '@enginekit/btree-sampler';
import type { Table, TableIndex } from './table.js';

/**
 * What the optimizer knows about a stored table: the fields of InnoDB's `dict_table_t` and
 * `dict_index_t` statistics. ANALYZE TABLE (or the first use of a table never analyzed) fills them;
 * the cost model reads them only through this interface.
 */
export interface IndexStatistics {
  readonly name: string;
  /** `stat_n_diff_key_vals`: distinct values of the first i + 1 fields, for every n_uniq field. */
  readonly nDiff: readonly number[];
  /** `stat_n_leaf_pages`. */
  readonly leafPages: number;
  /** `stat_index_size`: all pages of the index. */
  readonly sizePages: number;
  /** Levels of the tree, when the statistics were made (not an InnoDB statistic; `enginekit info`). */
  readonly height?: number;
  /** `stat_n_sample_sizes`: pages each n_diff is based on (mysql.innodb_index_stats.sample_size). */
  readonly sampleSize?: readonly number[];
  /**
   * `stat_n_non_null_key_vals` (transient statistics under `innodb_stats_method=nulls_ignored`):
   * rows whose first i + 1 fields hold no NULL. When present, {@link recPerKey} leaves NULL rows out.
   */
  readonly nNonNull?: readonly number[];
}

export interface TableStatistics {
  /** `stat_n_rows`. */
  readonly rows: number;
  /** `stat_clustered_index_size`, pages. */
  readonly clusteredPages: number;
  /** `stat_sum_of_other_index_sizes`, pages. */
  readonly otherPages: number;
  readonly indexes: ReadonlyMap<string, IndexStatistics>;
  /** How the numbers were made: sampled and stored (5.6 persistent), sampled in memory, or counted. */
  readonly method?: 'persistent' | 'transient' | 'exact';
  /** When they were made, ms since the epoch (mysql.innodb_table_stats.last_update). */
  readonly lastUpdate?: number;
}

/** Where the optimizer gets statistics from (the database's dictionary, or a test's fixture). */
export interface StatisticsSource {
  statistics(table: Table): TableStatistics;
}

/**
 * Rows per key value for a key prefix of `parts` fields, as `ha_innobase::info` computes
 * `rec_per_key`: `n_rows / n_diff`, then halved (the "rows per key are usually overestimated"
 * correction), never below 1. An n_diff of 0 (empty index) counts as n_rows.
 */
export function recPerKey(table: TableStatistics, index: IndexStatistics, parts: number): number {
  return Math.max(1, Math.floor(innodbRecPerKey(table.rows, index, parts) / 2));
}

/**
 * `innodb_rec_per_key` (ha_innodb.cc, 5.5/5.6) before the halving: `records / n_diff`, or `records`
 * when n_diff is 0; with non-NULL counts (`nulls_ignored`) the NULL rows are left out:
 * n_null = max(0, records − n_non_null), 1 when n_diff ≤ n_null, else
 * ⌊(records − n_null) / (n_diff − n_null)⌋.
 */
export function innodbRecPerKey(records: number, index: IndexStatistics, parts: number): number {
  const nDiff = index.nDiff[parts - 1];
  if (nDiff === undefined)
    throw new RangeError(`index ${index.name} has ${index.nDiff.length} key fields, not ${parts}`);
  if (nDiff === 0) return records;
  const nonNull = index.nNonNull?.[parts - 1];
  if (nonNull !== undefined) {
    const nNull = records < nonNull ? 0 : records - nonNull;
    if (nDiff <= nNull) return 1;
    return Math.floor((records - nNull) / (nDiff - nNull));
  }
  return Math.floor(records / nDiff);
}

/**
 * SHOW INDEX's Cardinality of a key prefix, as `get_schema_stat_record` (sql_show.cc):
 * ⌊table rows / rec_per_key⌋ with the halved {@link recPerKey}.
 */
export function cardinality(table: TableStatistics, index: IndexStatistics, parts: number): number {
  return Math.floor(table.rows / recPerKey(table, index, parts));
}

/** Exact statistics from a full scan of every tree of a table (the ground truth estimators are judged by). */
export function exactStatistics(table: Table): TableStatistics {
  const indexes = new Map<string, IndexStatistics>();
  let rows = 0;
  let clusteredPages = 0;
  let otherPages = 0;
  for (const ix of [table.primary, ...table.secondary] as TableIndex[]) {
    const e = estimateExact(ix.tree);
    const pages = ix.tree.stats().totalPages;
    if (ix.primary) {
      rows = e.rows;
      clusteredPages = pages;
    } else otherPages += pages;
    indexes.set(ix.name, { name: ix.name, nDiff: e.nDiff, leafPages: e.leafPages, sizePages: pages });
  }
  return { rows, clusteredPages, otherPages, indexes, method: 'exact' };
}
