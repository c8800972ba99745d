/** What a DBA asks of an index: shape, fill and size. Arrays are indexed by level (0 = leaves). */
export interface TreeStats {
  /** Levels, 1 when the root is a leaf. */
  height: number;
  pagesPerLevel: number[];
  recordsPerLevel: number[];
  /** Entries (leaf records), delete-marked ones included. */
  records: number;
  /** Leaf records carrying the delete mark (InnoDB's REC_INFO_DELETED_FLAG). */
  deletedRecords: number;
  leafPages: number;
  /** Pages in the tree plus pages on its free list. */
  totalPages: number;
  freePages: number;
  /** Bytes of live records and slots on leaves / bytes leaves offer, in [0, 1]. */
  leafFill: number;
  /** totalPages · pageSize. */
  sizeBytes: number;
}

/** The counts {@link BTree.shape} reads from the non-leaf levels and the free list. */
export interface TreeShape {
  /** Levels, 1 when the root is a leaf. */
  height: number;
  /** Leaf pages (at least 1). */
  leafPages: number;
  /** Pages in the tree, leaves included. */
  indexPages: number;
  /** Pages on the tree's free list. */
  freePages: number;
  /** indexPages + freePages: every page the tree holds, as `stats().totalPages`. */
  totalPages: number;
}
