import {
  legacyRwAdoptX,
  legacyRwInit,
  legacyRwIsFree,
  legacyRwSLock,
  legacyRwSUnlock,
  legacyRwTrySLock,
  legacyRwTryXLock,
  legacyRwXLock,
  legacyRwXUnlock,
  RWLOCK_SLOTS,
  rwSLock,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXUnlock,
  THREAD_ID,
  X_LOCK_DECR,
} from './latch.js';
import type { PoolLayout } from './layout.js';
import type { PoolThread } from './thread.js';

/**
 * Page latches: the one place the pool's general paths take them, as the atomics rw-lock
 * (InnoDB Plugin 1.0.3+) or the 5.1 rw-lock behind its inner mutex (`latches: 'legacy'`,
 * `L.legacy`). The class's inlined hit paths use the atomics encoding directly and are skipped
 * for legacy latches.
 *
 * How a latch pins. An S latch pins a frame by itself (its fix count does not move): eviction
 * must take the frame's X latch as well as claim its fix count, so a frame some thread holds S
 * can never be evicted, and the shared hit path costs one compare-and-swap on the latch to fix
 * and one to unfix. The fix count pins what holds no S latch: no-latch fixes, X holders, a
 * synchronous read.
 *
 * A frame that holds no page, or whose page is being read in, is X-latched by the pool (as
 * `buf_page_init_for_read` X-latches the block until `buf_page_io_complete`): free frames sit on
 * the free list X-latched, the thread that takes one adopts the latch, and a read releases it
 * once the page is in and verified. So a lock-free reader whose S compare-and-swap succeeds has
 * synchronized with the X release that published the frame's identity and bytes.
 */

/** Index of frame `f`'s rw-lock in `L.latches`. */
export function latchAt(L: PoolLayout, f: number): number {
  return L.rwBase + f * L.rwSlots;
}

/** At creation: frame `f` is free, X-latched by the pool. */
export function initFreeLatch(L: PoolLayout, f: number): void {
  const i = latchAt(L, f);
  if (L.legacy) {
    legacyRwInit(L.latches, i);
    legacyRwTryXLock(L.latches, i);
    return;
  }
  for (let s = 1; s < RWLOCK_SLOTS; s++) L.latches[i + s] = 0;
  L.latches[i + 2] = THREAD_ID; // writer_thread, recursive: as rwTryXLock leaves them
  L.latches[i + 3] = 1;
  Atomics.store(L.latches, i, 0);
}

/** This thread takes over the X latch of a free frame (another thread may have freed it). */
export function adoptFreeLatch(L: PoolLayout, f: number): void {
  if (L.legacy) legacyRwAdoptX(L.latches, latchAt(L, f));
  else L.latches[latchAt(L, f) + 2] = THREAD_ID;
}

/** True when frame `f`'s latch is free (a racy pre-check before `tryClaimVictim`). */
export function latchFree(L: PoolLayout, f: number): boolean {
  const i = latchAt(L, f);
  return L.legacy ? legacyRwIsFree(L.latches, i) : Atomics.load(L.latches, i) === X_LOCK_DECR;
}

/** True when frame `f`'s latch is X-held (by the pool, for a free frame); racy. */
export function latchHeldX(L: PoolLayout, f: number): boolean {
  const i = latchAt(L, f);
  // legacy: writer === RW_LOCK_EX (351) with writer_count 1
  return L.legacy
    ? Atomics.load(L.latches, i + 5) === 351 && Atomics.load(L.latches, i + 7) === 1
    : Atomics.load(L.latches, i) === 0;
}

/**
 * Claims an LRU frame for eviction: its fix count 0 → −1, then its X latch without waiting. False
 * (and the fix count restored) if any thread fixed or latched it. REQUIRES: the instance mutex.
 */
export function tryClaimVictim(t: PoolThread, f: number): boolean {
  const L = t.L;
  if (Atomics.compareExchange(L.fFix, f, 0, -1) !== 0) return false;
  if (pageTryXLock(t, f)) return true;
  Atomics.store(L.fFix, f, 0);
  return false;
}

/** A read finished (the page is in and verified, IO_NONE stored): other threads may latch it. */
export function releaseReadLatch(t: PoolThread, f: number): void {
  pageXUnlock(t, f);
}

export function pageSLock(t: PoolThread, f: number): void {
  const L = t.L;
  if (L.legacy) legacyRwSLock(L.latches, latchAt(L, f), t.cfg);
  else rwSLock(L.latches, latchAt(L, f), t.cfg);
}

export function pageTrySLock(t: PoolThread, f: number): boolean {
  const L = t.L;
  return L.legacy ? legacyRwTrySLock(L.latches, latchAt(L, f), t.cfg) : rwTrySLock(L.latches, latchAt(L, f));
}

export function pageSUnlock(t: PoolThread, f: number): void {
  const L = t.L;
  if (L.legacy) legacyRwSUnlock(L.latches, latchAt(L, f), t.cfg);
  else rwSUnlock(L.latches, latchAt(L, f));
}

export function pageXLock(t: PoolThread, f: number): void {
  const L = t.L;
  if (L.legacy) legacyRwXLock(L.latches, latchAt(L, f), t.cfg);
  else rwXLock(L.latches, latchAt(L, f), t.cfg);
}

export function pageTryXLock(t: PoolThread, f: number): boolean {
  const L = t.L;
  return L.legacy ? legacyRwTryXLock(L.latches, latchAt(L, f), t.cfg) : rwTryXLock(L.latches, latchAt(L, f));
}

export function pageXUnlock(t: PoolThread, f: number): void {
  const L = t.L;
  if (L.legacy) legacyRwXUnlock(L.latches, latchAt(L, f), t.cfg);
  else rwXUnlock(L.latches, latchAt(L, f), t.cfg);
}
