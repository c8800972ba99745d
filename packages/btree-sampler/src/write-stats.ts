/**
 * How the writes of one `BTree` object went (each thread opens its own object, so these count
 * that thread's writes). A write that had to restart counts once in `restarts` and once in
 * `pessimistic`.
 */
export interface WriteStats {
  /** Writes done on the leaf alone: the index latch in S, S latches down, the leaf X-latched. */
  optimistic: number;
  /** Optimistic attempts given up (a split, a merge or an emptied leaf, a value of another length). */
  restarts: number;
  /** Writes under the index latch in X with the path from the root X-latched. */
  pessimistic: number;
}
