/**
 * The page-store contract (docs/architecture.md): what a B+tree or any other page user needs from
 * a buffer pool. {@link BufferPool} implements it; a test double may too.
 */

/**
 * Latch mode of {@link PageStore.fix} / {@link PageStore.unfix}: {@link LATCH_NONE} (buffer-fix
 * only), {@link LATCH_S} (shared) or {@link LATCH_X} (exclusive), as InnoDB's `RW_NO_LATCH`,
 * `RW_S_LATCH` and `RW_X_LATCH`.
 */
export type LatchMode = 0 | 1 | 2;

/** Buffer-fix only: the page stays in its frame, nothing stops concurrent writers. */
export const LATCH_NONE = 0 as const;
/** Shared latch: readers only. */
export const LATCH_S = 1 as const;
/** Exclusive latch: the one writer. */
export const LATCH_X = 2 as const;

/**
 * A store of fixed-size pages addressed by (space, page number), handed out as frames of one
 * shared byte array: frame f is `bytes[f·pageSize, (f+1)·pageSize)`.
 */
export interface PageStore {
  /** Bytes per page (see `checkPageSize` for the rule). */
  readonly pageSize: number;
  /** Every frame, back to back. */
  readonly bytes: Uint8Array;
  /** Fixes page `pageNo` of `space` in a frame (reading it on a miss), latches it, returns the frame. */
  fix(space: number, pageNo: number, latch: LatchMode): number;
  /** Releases a fix taken with the same latch mode. */
  unfix(frame: number, latch: LatchMode): void;
  /** Appends a fresh page to `space`; returns its frame, fixed with an X latch and dirty. */
  allocatePage(space: number): number;
  /** Notes a change to an X-latched frame, with the LSN of the change (default: the store's next). */
  markDirty(frame: number, lsn?: bigint): void;
}
