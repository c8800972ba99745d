/**
 * The page-store contract of `docs/architecture.md`, restated structurally so this package
 * compiles against any implementation (the buffer pool's `BufferPool`, or a test double).
 */

/** 0: no latch, 1: S (shared), 2: X (exclusive). */
export type LatchMode = 0 | 1 | 2;

export const LATCH_NONE: LatchMode = 0;
export const LATCH_S: LatchMode = 1;
export const LATCH_X: LatchMode = 2;

export interface PageStore {
  /** Bytes per page. */
  readonly pageSize: number;
  /** Every frame: frame f is bytes[f·pageSize, (f+1)·pageSize). */
  readonly bytes: Uint8Array;
  /** Fix a page in a frame (reading it on a miss) and latch it; returns the frame. */
  fix(space: number, pageNo: number, latch: LatchMode): number;
  unfix(frame: number, latch: LatchMode): void;
  /** A new page of the space, fixed with an X latch; returns the frame. */
  allocatePage(space: number): number;
  markDirty(frame: number, lsn?: bigint): void;
}
