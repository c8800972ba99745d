import { exactStatistics, type StatisticsSource, type TableStatistics } from '../../storage/statistics.js';
import type { Table } from '../../storage/table.js';

/**
 * Exact statistics as a source: counts from a walk of every tree of a table, cached per table
 * until the table is written to again (its `changes` counter or row count moves). Sessions read
 * the database's own (ANALYZE TABLE's) statistics; tests that pin a plan to the true counts put
 * this source in `session.statistics`.
 */
const cache = new WeakMap<Table, { changes: number; rows: number; stats: TableStatistics }>();

export const exactStatisticsSource: StatisticsSource = {
  statistics(table: Table): TableStatistics {
    const hit = cache.get(table);
    if (hit !== undefined && hit.changes === table.changes && hit.rows === table.rows) return hit.stats;
    const stats = exactStatistics(table);
    cache.set(table, { changes: table.changes, rows: table.rows, stats });
    return stats;
  },
};
