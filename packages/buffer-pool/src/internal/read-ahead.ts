import { FIL_NULL } from '../envelope.js';
import type { PoolLayout } from './layout.js';
import { hashGet } from './page-hash.js';

/**
 * The decisions of InnoDB's read-ahead (`buf/buf0rea.c`, same in 5.5/5.6/MariaDB 10.0); the pool
 * does the I/O.
 */

/** `BUF_READ_AHEAD_AREA`: min(64, the power of two ≥ instance pages / 32). */
export function readAheadArea(instancePages: number): number {
  const n = Math.max(1, Math.floor(instancePages / 32));
  let p = 1;
  while (p < n) p *= 2;
  return Math.min(64, p);
}

/**
 * `buf_read_ahead_linear` step 3: walks [low, low + area) and counts a failure for every page not
 * cached or never accessed, and for every accessed page whose first-access time goes against the
 * scan direction (`ascOrDesc` −1 descending, +1 ascending; equal times are fine). True while the
 * failures stay ≤ `threshold` = min(64 − innodb_read_ahead_threshold, area).
 * REQUIRES: the caller holds the instance mutex; `hb` is the instance's hash base.
 */
export function accessedInOrder(
  L: PoolLayout,
  hb: number,
  space: number,
  low: number,
  area: number,
  ascOrDesc: number,
  threshold: number,
): boolean {
  let fails = 0;
  let pred = 0;
  for (let i = low; i < low + area; i++) {
    const g = hashGet(L, hb, space, i);
    const at = g >= 0 ? L.fAccess[g]! : 0;
    if (at === 0) {
      fails++;
    } else if (pred !== 0) {
      const cmp = at > pred ? 1 : at < pred ? -1 : 0;
      if (cmp !== 0 && cmp !== ascOrDesc) fails++;
    }
    if (fails > threshold) return false;
    if (at !== 0) pred = at;
  }
  return true;
}

/**
 * `buf_read_ahead_linear` steps 4–5: from the border page's FIL_PAGE_PREV/NEXT, the first page of
 * the neighbouring area to read, or −1. Descending (page at `low`, next = page + 1) follows prev;
 * ascending (page at high − 1, prev = page − 1) follows next; the target must be a border page of
 * its own area, and that area must lie inside the space (`size` pages).
 */
export function linearTarget(
  pageNo: number,
  low: number,
  area: number,
  prev: number,
  next: number,
  size: number,
): number {
  let target: number;
  if (pageNo === low && next === pageNo + 1) target = prev;
  else if (pageNo === low + area - 1 && prev === pageNo - 1) target = next;
  else return -1;
  if (target === FIL_NULL) return -1;
  const low2 = Math.floor(target / area) * area;
  if (target !== low2 && target !== low2 + area - 1) return -1;
  if (low2 + area > size) return -1;
  return low2;
}

/**
 * `buf_read_ahead_random`: pages of [low, high) that are cached, accessed and young (by `isYoung`),
 * counted up to `threshold` = 5 + area/8. REQUIRES: the caller holds the instance mutex.
 */
export function countRecent(
  L: PoolLayout,
  hb: number,
  space: number,
  low: number,
  high: number,
  threshold: number,
  isYoung: (frame: number) => boolean,
): number {
  let recent = 0;
  for (let i = low; i < high && recent < threshold; i++) {
    const g = hashGet(L, hb, space, i);
    if (g >= 0 && L.fAccess[g] !== 0 && isYoung(g)) recent++;
  }
  return recent;
}
