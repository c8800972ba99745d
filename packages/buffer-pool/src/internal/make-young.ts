import { lruAddBlock, lruRemoveBlock, plainMoveToHead } from '../midpoint-lru.js';
import { MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import { counterAt, type PoolThread, stamp } from './thread.js';

/**
 * The replacement policies' decision on a re-access of a fixed page, and the move it leads to.
 * REQUIRES (all): the caller has the page fixed; none of these is called under the instance mutex
 * except `peekIfYoung`.
 */

/** True for the two midpoint policies (5.5/5.6 and built-in 5.1), which keep an old sublist. */
export function isMidpoint(policy: number): boolean {
  return policy === K.POLICY_MIDPOINT || policy === K.POLICY_MIDPOINT51;
}

/**
 * `buf_page_peek_if_too_old` (5.5/5.6): false before the first eviction; an old block is made
 * young once innodb_old_blocks_time ms have passed since its first access (counting
 * Innodb_buffer_pool_pages_not_made_young otherwise); any other block once it has drifted out
 * of the young quarter (`peekIfYoung`).
 */
export function peekIfTooOld(t: PoolThread, inst: number, f: number): boolean {
  const L = t.L;
  if (L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK] === 0) return false;
  const oldTime = L.header[K.H_OLD_TIME]!;
  if (oldTime !== 0 && L.fOld[f] === 1) {
    const at = L.fAccess[f]!;
    // Time only moves forward: if the last reading is already old enough, skip the clock.
    if (at > 0 && ((t.lastStamp >= at && t.lastStamp - at >= oldTime) || (stamp(t) - at) >>> 0 >= oldTime)) {
      return true;
    }
    L.counters[counterAt(t, inst, K.C_NOT_MADE_YOUNG)]!++;
    return false;
  }
  return !peekIfYoung(t, inst, f);
}

/**
 * `buf_block_peek_if_too_old` of the built-in InnoDB of MySQL 5.1
 * (`storage/innobase/include/buf0buf.ic`), consulted by `buf_page_get_gen` on every access:
 * promote iff `freed_page_clock ≥ block->freed_page_clock + 1 + curr_size / 4`. No access time,
 * no old-block test: a page read at the midpoint (its clock 0) is promoted by its first access
 * once a quarter of the pool has been evicted since startup.
 */
export function peekIfTooOld51(t: PoolThread, inst: number, f: number): boolean {
  const L = t.L;
  const clock = L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]! % 0x80000000;
  return clock >= L.fFreedClock[f]! + 1 + Math.floor(t.perInstance / 4);
}

/**
 * `buf_page_peek_if_young`: fewer than curr_size·(1024 − ratio)/4096 evictions since the block
 * last went to the head (≈ 15.8 % of the instance with the default ratio 378).
 */
export function peekIfYoung(t: PoolThread, inst: number, f: number): boolean {
  const L = t.L;
  const clock = L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]! % 0x80000000;
  const ratio = L.header[K.H_OLD_RATIO]!;
  return clock < L.fFreedClock[f]! + Math.floor((t.perInstance * (1024 - ratio)) / 4096);
}

/**
 * `buf_page_make_young` (midpoint policies: to the head, taking the current freed_page_clock) or
 * a move to the head (plain LRU), under the instance mutex.
 */
export function makeYoung(t: PoolThread, inst: number, f: number): void {
  const L = t.L;
  const m = inst * MUTEX_SLOTS;
  const ib = inst * K.I_STRIDE;
  const policy = L.header[K.H_POLICY]!;
  mutexLock(L.latches, m, t.cfg);
  if (isMidpoint(policy)) {
    const legacy = policy === K.POLICY_MIDPOINT51;
    if (L.fOld[f] === 1) L.counters[counterAt(t, inst, K.C_MADE_YOUNG)]!++;
    const ratio = L.header[K.H_OLD_RATIO]!;
    lruRemoveBlock(L, ib, f, ratio, legacy);
    lruAddBlock(L, ib, f, false, ratio, L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]!, legacy);
  } else {
    plainMoveToHead(L, ib, f);
  }
  mutexUnlock(L.latches, m, t.cfg);
}

/**
 * The policy's bookkeeping for an access of a fixed page: `first` is true on the access that
 * brought the page in (CLOCK then leaves the reference bit alone).
 */
export function onAccess(t: PoolThread, inst: number, f: number, first: boolean): void {
  const L = t.L;
  const policy = L.header[K.H_POLICY];
  if (policy === K.POLICY_MIDPOINT) {
    if (peekIfTooOld(t, inst, f)) makeYoung(t, inst, f);
  } else if (policy === K.POLICY_MIDPOINT51) {
    if (peekIfTooOld51(t, inst, f)) makeYoung(t, inst, f);
  } else if (policy === K.POLICY_LRU) {
    if (L.inst[inst * K.I_STRIDE + K.I_LRU_HEAD] !== f) makeYoung(t, inst, f);
  } else if (!first) {
    // CLOCK: the reference bit records re-references, not the access that brought the page in.
    L.fRef[f] = 1;
  }
}
