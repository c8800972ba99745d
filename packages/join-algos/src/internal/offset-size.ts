/**
 * MariaDB's `offset_size` (sql/sql_join_cache.cc): bytes needed to store an offset or a length
 * below `n` — 1 below 256, 2 below 65536, else 4.
 */
export function offsetSize(n: number): number {
  if (n < 256) return 1;
  if (n < 65536) return 2;
  return 4;
}
