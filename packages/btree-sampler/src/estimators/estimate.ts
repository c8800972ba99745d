/** The estimators' common result. Arrays are per key prefix: index i is the prefix of i + 1 fields. */
export interface Estimate {
  method: 'transient' | 'persistent' | 'duj1' | 'exact' | 'hll';
  /** Estimated distinct values of each key prefix (`stat_n_diff_key_vals`). */
  nDiff: number[];
  /** Pages (or, for duj1, rows) the estimate for each prefix is based on (`stat_n_sample_sizes`). */
  sampleSize: number[];
  /** Pages fixed while estimating (page reads, logical). */
  pagesRead: number;
  /** Random dives made. */
  dives: number;
  /** Leaf pages analyzed, in order (repeats kept). */
  leaves: number[];
  /** Leaf pages of the index (`stat_n_leaf_pages`). */
  leafPages: number;
}
