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
}

export interface TableStatistics {
  /** `stat_n_rows`. */
  readonly rows: number;
  /** `stat_clustered_index_size`, pages. */
  readonly clusteredPages: number;
  /** `stat_sum_of_other_index_sizes`, pages. */
  readonly otherPages: number;
  readonly indexes: ReadonlyMap<string, IndexStatistics>;
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
  const nDiff = index.nDiff[parts - 1];
  if (nDiff === undefined)
    throw new RangeError(`index ${index.name} has ${index.nDiff.length} key fields, not ${parts}`);
  const perKey = nDiff === 0 ? table.rows : Math.floor(table.rows / nDiff);
  return Math.max(1, Math.floor(perKey / 2));
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
  return { rows, clusteredPages, otherPages, indexes };
}
