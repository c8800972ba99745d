/**
 * The index latch (`dict_index_t::lock`), e.g. a `RWLock` of @enginekit/mutex-atomics living in a
 * SharedArrayBuffer. Writers hold it in X for the whole operation (so writers are serialized);
 * the estimators, `checkValid()` and `stats()` hold it in S, as InnoDB's statistics do. Point
 * reads, cursors and range scans take no index latch: they couple S page latches top-down and,
 * moving along a level, release a page before latching its sibling (re-seeking when the sibling
 * was freed meanwhile), so they never wait on a writer while holding a page it needs.
 */
export interface IndexLatch {
  sLock(): void;
  sUnlock(): void;
  xLock(): void;
  xUnlock(): void;
}
