import { createMrrCounters, type MrrCounters } from '@enginekit/mrr';

/**
 * Counters one join run reports. The `Handler_*` counters are `@enginekit/mrr`'s set
 * ({@link MrrCounters}: MariaDB's status names) and count calls through the row-source and
 * index-access interfaces, as the server's `handler::ha_*` wrappers do: every call, including
 * the one that finds nothing. BKA / BKAH add the counters of their MRR scans into the same
 * fields. The other fields are the join's own.
 *
 * - `Handler_read_key`: `IndexAccess.readKey` calls (and MRR's `seek`s);
 * - `Handler_read_next`: `IndexAccess.nextSame` calls (and MRR's `next`s);
 * - `Handler_read_rnd_next`: `RowSource.next` calls, the end-of-scan call included;
 * - `Handler_read_rnd`: row fetches by row id of an MRR rowid stage;
 * - `Handler_mrr_init`, `Handler_mrr_key_refills`, `Handler_mrr_rowid_refills`: from MRR.
 */
export interface JoinStats extends MrrCounters {
  /** Times a join buffer was filled (or the input ended) and joined against the inner side. */
  joinBufferFills: number;
  /** Times the join buffer grew to hold one record larger than `join_buffer_size`. */
  joinBufferGrows: number;
  /** Full scans of the inner row source (`rewind()` calls). */
  innerScans: number;
  /** Times a hash join's build side exceeded its memory budget and went to temp files. */
  spills: number;
  /** Bytes written to temp files. */
  spilledBytes: number;
  /** Partitions (pairs of temp files) a grace hash join created. */
  partitions: number;
  /** Output rows emitted. */
  rowsOut: number;
}

/** A fresh, zeroed counter object. */
export function createJoinStats(): JoinStats {
  return {
    ...createMrrCounters(),
    joinBufferFills: 0,
    joinBufferGrows: 0,
    innerScans: 0,
    spills: 0,
    spilledBytes: 0,
    partitions: 0,
    rowsOut: 0,
  };
}

/** Add `b` into `a` (for a plan made of several joins). Returns `a`. */
export function addJoinStats(a: JoinStats, b: Readonly<JoinStats>): JoinStats {
  for (const k of Object.keys(a) as (keyof JoinStats)[]) a[k] += b[k];
  return a;
}
