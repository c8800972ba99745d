/**
 * The index latch (`dict_index_t::lock`), e.g. a `RWLock` of @enginekit/mutex-atomics living in a
 * SharedArrayBuffer, shared by every thread that opens the tree.
 *
 * - S: optimistic writes — an insert that fits its leaf, a delete that leaves its leaf above the
 *   merge threshold, a same-length update, a delete mark — which S-latch the pages down to the
 *   leaf and X-latch the leaf alone, so writers of different leaves run in parallel; and the
 *   estimators, `checkValid()` and `stats()`, as InnoDB's statistics.
 * - X: pessimistic writes (splits, merges, root raise and lift), which X-latch the path from the
 *   root, one at a time and with no optimistic writer running. MySQL 5.7 takes SX here, which
 *   still admits S holders; this interface has no SX mode, so a structure change waits for the
 *   optimistic writers under way and holds new ones back until it ends. SX would gain little
 *   here: the pessimistic path holds the root X-latched from start to end, so an optimistic
 *   writer it let in would wait at the root latch instead (only writers already past the root
 *   would finish sooner).
 *
 * Point reads, cursors and range scans take no index latch: they couple S page latches top-down
 * and, moving along a level, release a page before latching its sibling (re-seeking when the
 * sibling was freed meanwhile), so they never wait on a writer while holding a page it needs.
 * The full latch order is written down on the pessimistic write path (`PathModifier`).
 */
export interface IndexLatch {
  sLock(): void;
  sUnlock(): void;
  xLock(): void;
  xUnlock(): void;
}
