import type { Catalog } from '../catalog.js';
import type { IndexStatistics, TableStatistics } from '../statistics.js';
import type { Table } from '../table.js';
import type { TableStatsOptions } from './settings.js';

/** SYS_STATS rows of a table (not of one index) live under this index id; user indexes start at 16. */
export const TABLE_ROW = 0;

/** `n_diff_pfx01` … as mysql.innodb_index_stats names them. */
export function nDiffName(prefix: number): string {
  return `n_diff_pfx${String(prefix).padStart(2, '0')}`;
}

function sampleName(prefix: number): string {
  return `sample_pfx${String(prefix).padStart(2, '0')}`;
}

/**
 * What every ANALYZE records per index, whichever estimator ran: pages (`size`), leaf pages, height
 * and entries (the table's exact row count: every index has one entry per row). `enginekit info`
 * reads these instead of walking the trees.
 */
export function savePageCounts(catalog: Catalog, table: Table, s: TableStatistics): void {
  for (const ix of [table.primary, ...table.secondary]) {
    const st = s.indexes.get(ix.name);
    if (st === undefined) continue;
    catalog.putStat(table.id, ix.id, 'size', st.sizePages);
    catalog.putStat(table.id, ix.id, 'n_leaf_pages', st.leafPages);
    catalog.putStat(table.id, ix.id, 'height', st.height ?? ix.tree.shape().height);
    catalog.putStat(table.id, ix.id, 'n_rows', table.rows);
  }
}

/**
 * Persistent statistics into SYS_STATS (`dict_stats_save`: mysql.innodb_table_stats and
 * mysql.innodb_index_stats): per index and key prefix n_diff with its sample size, leaf pages and
 * size; per table n_rows, both size sums and the time.
 */
export function savePersistent(catalog: Catalog, table: Table, s: TableStatistics): void {
  savePageCounts(catalog, table, s);
  for (const ix of [table.primary, ...table.secondary]) {
    const st = s.indexes.get(ix.name);
    if (st === undefined) continue;
    for (let i = 0; i < st.nDiff.length; i++) {
      catalog.putStat(table.id, ix.id, nDiffName(i + 1), st.nDiff[i]!);
      catalog.putStat(table.id, ix.id, sampleName(i + 1), st.sampleSize?.[i] ?? 0);
    }
  }
  catalog.putStat(table.id, TABLE_ROW, 'n_rows', s.rows);
  catalog.putStat(table.id, TABLE_ROW, 'clustered_index_size', s.clusteredPages);
  catalog.putStat(table.id, TABLE_ROW, 'sum_of_other_index_sizes', s.otherPages);
  catalog.putStat(table.id, TABLE_ROW, 'last_update', Math.floor((s.lastUpdate ?? Date.now()) / 1000));
}

/** Stored persistent statistics of a table, and the indexes that have none (added after them). */
export interface StoredStatistics {
  readonly table: TableStatistics;
  /** Index name → its stored statistics. */
  readonly indexes: ReadonlyMap<string, IndexStatistics>;
  readonly missing: readonly string[];
}

/**
 * `dict_stats_fetch_from_ps`: the persistent statistics of a table, or undefined when none were
 * ever saved (no `last_update` row).
 */
export function loadPersistent(catalog: Catalog, table: Table): StoredStatistics | undefined {
  const t = catalog.indexStats(table.id, TABLE_ROW);
  const last = t.get('last_update');
  if (last === undefined) return undefined;
  const indexes = new Map<string, IndexStatistics>();
  const missing: string[] = [];
  for (const ix of [table.primary, ...table.secondary]) {
    const rows = catalog.indexStats(table.id, ix.id);
    const nDiff: number[] = [];
    const sampleSize: number[] = [];
    for (let p = 1; rows.has(nDiffName(p)); p++) {
      nDiff.push(rows.get(nDiffName(p))!);
      sampleSize.push(rows.get(sampleName(p)) ?? 0);
    }
    const leafPages = rows.get('n_leaf_pages');
    const sizePages = rows.get('size');
    if (nDiff.length === 0 || leafPages === undefined || sizePages === undefined) {
      missing.push(ix.name);
      continue;
    }
    indexes.set(ix.name, { name: ix.name, nDiff, sampleSize, leafPages, sizePages });
  }
  return {
    table: {
      rows: t.get('n_rows') ?? 0,
      clusteredPages: t.get('clustered_index_size') ?? 0,
      otherPages: t.get('sum_of_other_index_sizes') ?? 0,
      indexes,
      method: 'persistent',
      lastUpdate: last * 1000,
    },
    indexes,
    missing,
  };
}

const OPTION_ROWS = {
  statsPersistent: 'stats_persistent',
  statsAutoRecalc: 'stats_auto_recalc',
  statsSamplePages: 'stats_sample_pages',
} as const;

/** A table's STATS_* options (absent ones: DEFAULT). */
export function loadTableOptions(catalog: Catalog, tableId: number): TableStatsOptions {
  const t = catalog.indexStats(tableId, TABLE_ROW);
  const p = t.get(OPTION_ROWS.statsPersistent);
  const r = t.get(OPTION_ROWS.statsAutoRecalc);
  const n = t.get(OPTION_ROWS.statsSamplePages);
  return {
    ...(p === undefined ? {} : { statsPersistent: p !== 0 }),
    ...(r === undefined ? {} : { statsAutoRecalc: r !== 0 }),
    ...(n === undefined ? {} : { statsSamplePages: n }),
  };
}

export function saveTableOptions(catalog: Catalog, tableId: number, o: TableStatsOptions): void {
  const put = (name: string, v: number | boolean | undefined): void => {
    if (v === undefined) catalog.deleteStat(tableId, TABLE_ROW, name);
    else catalog.putStat(tableId, TABLE_ROW, name, typeof v === 'boolean' ? (v ? 1 : 0) : v);
  };
  put(OPTION_ROWS.statsPersistent, o.statsPersistent);
  put(OPTION_ROWS.statsAutoRecalc, o.statsAutoRecalc);
  put(OPTION_ROWS.statsSamplePages, o.statsSamplePages);
}
