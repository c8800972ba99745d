import type { PoolLayout } from './layout.js';

/**
 * The page hash of one instance (InnoDB's `buf_pool->page_hash`): chained buckets of frames keyed
 * by (space, page number). Bucket heads live in `L.hash` from `hb`; chains in `fHashNext`.
 */

/** `buf_page_address_fold(space, pageNo)`, then a multiplicative hash to the bucket. */
export function bucketOf(L: PoolLayout, space: number, pageNo: number): number {
  const fold = ((space << 20) + space + pageNo) | 0;
  return Math.imul(fold, 0x9e3779b1) >>> L.hashShift;
}

export function hashGet(L: PoolLayout, hb: number, space: number, pageNo: number): number {
  let f = L.hash[hb + bucketOf(L, space, pageNo)]!;
  while (f >= 0 && (L.fPage[f] !== pageNo || L.fSpace[f] !== space)) f = L.fHashNext[f]!;
  return f;
}

export function hashInsert(L: PoolLayout, hb: number, f: number): void {
  const b = hb + bucketOf(L, L.fSpace[f]!, L.fPage[f]!);
  L.fHashNext[f] = L.hash[b]!;
  L.hash[b] = f;
}

export function hashRemove(L: PoolLayout, hb: number, f: number): void {
  const b = hb + bucketOf(L, L.fSpace[f]!, L.fPage[f]!);
  let at = L.hash[b]!;
  if (at === f) {
    L.hash[b] = L.fHashNext[f]!;
  } else {
    while (L.fHashNext[at] !== f) at = L.fHashNext[at]!;
    L.fHashNext[at] = L.fHashNext[f]!;
  }
  L.fHashNext[f] = -1;
}
