import { exactStatistics, type StatisticsSource, type TableStatistics } from '../../storage/statistics.js';
import type { Table } from '../../storage/table.js';

/**
 * The statistics the optimizer reads when nothing else is given: exact counts from a walk of every
 * tree of a table, cached per table until the table is written to again (its `changes` counter or
 * row count moves). This one file is where the database's own ANALYZE statistics plug in.
 */
const cache = new WeakMap<Table, { changes: number; rows: number; stats: TableStatistics }>();

export const defaultStatistics: StatisticsSource = {
  statistics(table: Table): TableStatistics {
    const hit = cache.get(table);
    if (hit !== undefined && hit.changes === table.changes && hit.rows === table.rows) return hit.stats;
    const stats = exactStatistics(table);
    cache.set(table, { changes: table.changes, rows: table.rows, stats });
    return stats;
  },
};
