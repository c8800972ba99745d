import {
  FIL_NULL,
  FIL_PAGE_NEXT,
  FIL_PAGE_TYPE_ALLOCATED,
  initPage,
  type LatchMode,
  readUint32BE,
  setPageType,
  writeUint32BE,
} from '@enginekit/buffer-pool';
import { HDR_FREE_FIRST, HDR_FREE_N } from './header.js';

const LATCH_X: LatchMode = 2;

/** What the free list needs of a page store: a mini-transaction's fix, dirty marking and fresh pages. */
export interface SpaceStore {
  readonly pageSize: number;
  readonly bytes: Uint8Array;
  fix(space: number, pageNo: number, latch: LatchMode): number;
  unfix(frame: number, latch: LatchMode): void;
  markDirty(frame: number): void;
}

/**
 * The database file's free pages: a list through the pages themselves (each free page's
 * FIL_PAGE_NEXT names the next one, its type is FIL_PAGE_TYPE_ALLOCATED), headed in page 0
 * (`HDR_FREE_FIRST`, `HDR_FREE_N`). Pages of dropped tables and indexes, and undo pages purge or
 * commit no longer needs, go here; page allocation takes from it before the file grows. This is a
 * page-granular version of InnoDB's file-space management (fsp0fsp: extents on FSP_FREE, pages
 * on FSP_FREE_FRAG, segments): no extents and no segments, one list. Both calls run inside the
 * caller's mini-transaction, which holds page 0 X-latched until it commits.
 */

/** Takes a page off the free list, formatted as an empty page and X-fixed in the mtr; −1 when the list is empty. */
export function takeFreePage(store: SpaceStore): number {
  const ps = store.pageSize;
  const b = store.bytes;
  const h = store.fix(0, 0, LATCH_X);
  const first = readUint32BE(b, h * ps + HDR_FREE_FIRST);
  if (first === FIL_NULL || first === 0) {
    store.unfix(h, LATCH_X);
    return -1;
  }
  const f = store.fix(0, first, LATCH_X);
  const next = readUint32BE(b, f * ps + FIL_PAGE_NEXT);
  writeUint32BE(b, h * ps + HDR_FREE_FIRST, next);
  writeUint32BE(b, h * ps + HDR_FREE_N, readUint32BE(b, h * ps + HDR_FREE_N) - 1);
  store.markDirty(h);
  store.unfix(h, LATCH_X);
  initPage(b, f * ps, ps, 0, first);
  store.markDirty(f);
  return f;
}

/** Puts page `pageNo` (no longer referenced by anything) on the free list. */
export function freePage(store: SpaceStore, pageNo: number): void {
  if (pageNo === 0 || pageNo === FIL_NULL) throw new RangeError(`page ${pageNo} cannot be freed`);
  const ps = store.pageSize;
  const b = store.bytes;
  const h = store.fix(0, 0, LATCH_X);
  const f = store.fix(0, pageNo, LATCH_X);
  // Only the type and the link change (InnoDB writes nothing to a page it frees): its old bytes
  // stay until the page is taken again and formatted, so freeing costs a few bytes of redo.
  setPageType(b, f * ps, FIL_PAGE_TYPE_ALLOCATED);
  writeUint32BE(b, f * ps + FIL_PAGE_NEXT, readUint32BE(b, h * ps + HDR_FREE_FIRST));
  writeUint32BE(b, h * ps + HDR_FREE_FIRST, pageNo);
  writeUint32BE(b, h * ps + HDR_FREE_N, readUint32BE(b, h * ps + HDR_FREE_N) + 1);
  store.markDirty(f);
  store.unfix(f, LATCH_X);
  store.markDirty(h);
  store.unfix(h, LATCH_X);
}

/** Pages on the free list (the header's count). */
export function freePageCount(store: SpaceStore): number {
  const h = store.fix(0, 0, 1);
  const n = readUint32BE(store.bytes, h * store.pageSize + HDR_FREE_N);
  store.unfix(h, 1);
  return n;
}
