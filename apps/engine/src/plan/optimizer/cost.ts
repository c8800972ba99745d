/**
 * MySQL 5.6's cost constants and InnoDB's handler cost functions (sql/sql_const.h,
 * storage/innobase/handler/ha_innodb.cc). A cost is "pages read + rows evaluated × 0.2".
 */

/** ROW_EVALUATE_COST: evaluating the WHERE on one row (sql_const.h, 5.6: 0.20). */
export const ROW_EVALUATE_COST = 0.2;
/** IO_BLOCK_READ_COST: one page read (5.6's implicit unit). */
export const IO_BLOCK_READ_COST = 1;
/** Tie breaker MySQL adds to a range plan so an equal-cost ref wins (opt_range.cc, 0.01). */
export const RANGE_TIE_BREAK = 0.01;

/** `ha_innobase::scan_time()`: the clustered index's pages. */
export function scanTime(clusteredPages: number): number {
  return Math.max(1, clusteredPages) * IO_BLOCK_READ_COST;
}

/**
 * `ha_innobase::read_time(index, ranges, rows)`: on a secondary index `handler::read_time`, one
 * seek per range and per row (each row is a clustered lookup); on the primary key at most 2 rows
 * cost their count, else `ranges + rows / total_rows × scan_time()`.
 */
export function readTime(
  primary: boolean,
  ranges: number,
  rows: number,
  totalRows: number,
  clusteredPages: number,
): number {
  if (!primary) return ranges + rows;
  if (rows <= 2) return rows;
  const scan = scanTime(clusteredPages);
  if (totalRows < rows) return scan;
  return ranges + (rows / Math.max(1, totalRows)) * scan;
}

/**
 * `worst_seeks` of best_access_path (5.6 `make_join_statistics`): a ref never costs more seeks
 * than a tenth of the table's rows, nor than three table scans; at least 2.
 */
export function worstSeeks(foundRecords: number, clusteredPages: number): number {
  return Math.max(2, Math.min(foundRecords / 10, scanTime(clusteredPages) * 3));
}

/**
 * A full scan after `recordCount` outer rows with a join buffer: the table is read once per
 * buffer fill (best_access_path: `scan_time × (1 + ⌊record_length × record_count / join_buffer_size⌋)`);
 * without a buffer, once per outer row.
 */
export function scanCost(
  clusteredPages: number,
  recordCount: number,
  recordLength: number,
  joinBufferSize: number,
  buffered: boolean,
): number {
  const scan = scanTime(clusteredPages);
  if (!buffered) return recordCount * scan;
  return scan * (1 + Math.floor((recordLength * recordCount) / Math.max(1, joinBufferSize)));
}
