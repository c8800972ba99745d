/**
 * Counters one join run reports. The `Handler_*` names are MySQL/MariaDB status variables and
 * count calls through the row-source and index-access interfaces, as the server's `handler::ha_*`
 * wrappers do (§5.5 of the reference): every call, including the one that finds nothing.
 */
export interface JoinStats {
  /** `IndexAccess.readKey` calls (plus key lookups an MRR strategy reports). */
  Handler_read_key: number;
  /** `IndexAccess.nextSame` calls (plus those an MRR strategy reports). */
  Handler_read_next: number;
  /** `RowSource.next` calls, the end-of-scan call included. */
  Handler_read_rnd_next: number;
  /** Rowid fetches (`rnd_pos`) an MRR strategy reports. */
  Handler_read_rnd: number;
  /** Times a join buffer was filled (or the input ended) and joined against the inner side. */
  joinBufferFills: number;
  /** Times the join buffer grew to hold one record larger than `join_buffer_size`. */
  joinBufferGrows: number;
  /** Full scans of the inner row source (`rewind()` calls). */
  innerScans: number;
  /** DS-MRR scans started (BKA / BKAH: one per buffer fill), from MRR's counters. */
  Handler_mrr_init: number;
  /** MRR key-buffer refills after the first, per scan (MariaDB 10.0). */
  Handler_mrr_key_refills: number;
  /** MRR rowid-buffer refills after the first, per scan (MariaDB 10.0). */
  Handler_mrr_rowid_refills: number;
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
    Handler_read_key: 0,
    Handler_read_next: 0,
    Handler_read_rnd_next: 0,
    Handler_read_rnd: 0,
    joinBufferFills: 0,
    joinBufferGrows: 0,
    innerScans: 0,
    Handler_mrr_init: 0,
    Handler_mrr_key_refills: 0,
    Handler_mrr_rowid_refills: 0,
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
