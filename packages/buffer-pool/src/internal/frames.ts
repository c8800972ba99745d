import { BufferPoolFullError } from '../errors.js';
import { lruAddBlock, lruRemoveBlock, plainAddFirst, plainMoveToHead, plainRemove } from '../midpoint-lru.js';
import { writePageLocked } from './flush.js';
import { adoptFreeLatch, latchFree, tryClaimVictim } from './frame-latch.js';
import { MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import { isMidpoint } from './make-young.js';
import { hashInsert, hashRemove } from './page-hash.js';
import { counterAt, type PoolThread } from './thread.js';

/**
 * Frame allocation and eviction: the free list, the LRU list under the chosen policy, and
 * claiming a frame so no lock-free reader can pin it. Every function here runs under the
 * instance mutex (`…Locked`) unless it says otherwise.
 */

/** Adds `f` to the LRU: at the midpoint (`midpoint`) or the head. */
export function lruAddLocked(t: PoolThread, inst: number, f: number, midpoint: boolean): void {
  const L = t.L;
  const ib = inst * K.I_STRIDE;
  const policy = L.header[K.H_POLICY]!;
  if (isMidpoint(policy)) {
    lruAddBlock(
      L,
      ib,
      f,
      midpoint,
      L.header[K.H_OLD_RATIO]!,
      L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]!,
      policy === K.POLICY_MIDPOINT51,
    );
  } else {
    plainAddFirst(L, ib, f);
  }
}

export function lruRemoveLocked(t: PoolThread, inst: number, f: number): void {
  const L = t.L;
  const policy = L.header[K.H_POLICY]!;
  if (isMidpoint(policy)) {
    lruRemoveBlock(L, inst * K.I_STRIDE, f, L.header[K.H_OLD_RATIO]!, policy === K.POLICY_MIDPOINT51);
  } else {
    plainRemove(L, inst * K.I_STRIDE, f);
  }
}

/**
 * Puts a frame that now holds (space, pageNo) into the hash and the LRU at the midpoint, under
 * I/O (`buf_page_init_for_read`); `fix` is its fix count (1 for a synchronous read, 0 for
 * read-ahead). The fix count is published last, so a lock-free reader sees the new identity.
 */
export function initForReadLocked(
  t: PoolThread,
  inst: number,
  f: number,
  space: number,
  pageNo: number,
  fix: number,
): void {
  const L = t.L;
  L.fSpace[f] = space;
  L.fPage[f] = pageNo;
  Atomics.store(L.fIo, f, K.IO_READ);
  L.fAccess[f] = 0;
  L.fFreedClock[f] = 0;
  L.fRef[f] = 0;
  L.fNewest[f] = 0n;
  hashInsert(L, inst * L.hashSize, f);
  lruAddLocked(t, inst, f, true);
  L.inst[inst * K.I_STRIDE + K.I_PEND_READS]!++;
  Atomics.store(L.fFix, f, fix);
}

/**
 * Claims a frame whose fix count should be `expected`: swaps it to −1 so no lock-free reader can
 * pin it. A reader that raced in backs out within a few instructions, so this spins briefly.
 */
function claim(t: PoolThread, f: number, expected: number): void {
  const fix = t.L.fFix;
  while (Atomics.compareExchange(fix, f, expected, -1) !== expected) {
    /* a lock-free reader is backing out */
  }
}

/** A read failed: drop the page and return the frame to the free list. */
export function discardLocked(t: PoolThread, inst: number, f: number, fix: number): void {
  const L = t.L;
  claim(t, f, fix);
  hashRemove(L, inst * L.hashSize, f);
  lruRemoveLocked(t, inst, f);
  L.fSpace[f] = -1;
  Atomics.store(L.fIo, f, K.IO_NONE);
  freeListAddLocked(t, inst, f);
}

/** REQUIRES: the frame's fix count is −1 (claimed) and its X latch held (it stays held). */
function freeListAddLocked(t: PoolThread, inst: number, f: number): void {
  const L = t.L;
  const ib = inst * K.I_STRIDE;
  L.fNext[f] = L.inst[ib + K.I_FREE_HEAD]!;
  L.fPrev[f] = -1;
  L.inst[ib + K.I_FREE_HEAD] = f;
  L.inst[ib + K.I_FREE_LEN]!++;
}

/**
 * Replaceable (`buf_flush_ready_for_replace` minus the dirty test): unfixed, unlatched, no I/O.
 * A racy pre-check: `tryClaimVictim` decides.
 */
function replaceable(t: PoolThread, f: number): boolean {
  return Atomics.load(t.L.fFix, f) === 0 && Atomics.load(t.L.fIo, f) === K.IO_NONE && latchFree(t.L, f);
}

/**
 * `buf_LRU_get_free_block` without the waiting: the free list, else a clean replaceable block
 * within `innodb_lru_scan_depth` of the LRU tail, else the replaceable block nearest the tail,
 * written back first if dirty. CLOCK gives referenced blocks a second chance instead. Returns a
 * claimed frame (fix count −1, X-latched by this thread, out of the hash and the LRU), or −1 when
 * every frame is fixed, latched or under I/O.
 */
export function getFreeLocked(t: PoolThread, inst: number): number {
  const L = t.L;
  const ib = inst * K.I_STRIDE;
  const head = L.inst[ib + K.I_FREE_HEAD]!;
  if (head >= 0) {
    L.inst[ib + K.I_FREE_HEAD] = L.fNext[head]!;
    L.inst[ib + K.I_FREE_LEN]!--;
    L.fNext[head] = -1;
    adoptFreeLatch(L, head);
    return head;
  }
  let victim = -1;
  if (L.header[K.H_POLICY] === K.POLICY_CLOCK) {
    // The hand sweeps from the tail: a referenced block loses its bit and goes to the head; past
    // the head it comes round to the tail again (the block just passed over may be the one left)
    let budget = 2 * L.inst[ib + K.I_LRU_LEN]! + 1;
    for (let b = L.inst[ib + K.I_LRU_TAIL]!; b >= 0 && budget-- > 0; ) {
      const prev = L.fPrev[b]!;
      if (replaceable(t, b)) {
        if (L.fRef[b] === 0) {
          if (tryClaimVictim(t, b)) {
            victim = b;
            break;
          }
        } else {
          L.fRef[b] = 0;
          plainMoveToHead(L, ib, b);
        }
      }
      b = prev >= 0 ? prev : L.inst[ib + K.I_LRU_TAIL]!;
    }
  } else {
    let depth = L.header[K.H_SCAN_DEPTH]!;
    let dirty = -1;
    for (let b = L.inst[ib + K.I_LRU_TAIL]!; b >= 0; b = L.fPrev[b]!) {
      if (replaceable(t, b)) {
        if (L.fOldest[b] === 0n) {
          if (tryClaimVictim(t, b)) {
            victim = b;
            break;
          }
        } else if (dirty < 0) {
          dirty = b;
        }
      }
      if (--depth <= 0 && dirty >= 0) break;
    }
    if (victim < 0 && dirty >= 0 && tryClaimVictim(t, dirty)) victim = dirty;
  }
  if (victim < 0) return -1;
  if (L.fOldest[victim] !== 0n) writePageLocked(t, inst, victim);
  // buf_LRU_free_from_common_LRU_list + buf_LRU_block_remove_hashed_page.
  if (L.fAccess[victim] === 0) L.counters[counterAt(t, inst, K.C_READ_AHEAD_EVICTED)]!++;
  hashRemove(L, inst * L.hashSize, victim);
  lruRemoveLocked(t, inst, victim);
  L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]!++;
  L.fSpace[victim] = -1;
  return victim;
}

/**
 * No frame: count a wait, sleep a millisecond, or give up after `freeWaitMs`
 * (BufferPoolFullError). Unlocks and relocks the instance mutex; returns the deadline to pass to
 * the next call (−1 on the first).
 */
export function waitFree(t: PoolThread, inst: number, deadline: number): number {
  const L = t.L;
  const m = inst * MUTEX_SLOTS;
  L.counters[counterAt(t, inst, K.C_WAIT_FREE)]!++;
  const wait = L.header[K.H_FREE_WAIT]!;
  const now = performance.now();
  const end = deadline < 0 ? now + wait : deadline;
  mutexUnlock(L.latches, m, t.cfg);
  if (now >= end) throw new BufferPoolFullError(inst, t.perInstance, wait);
  Atomics.wait(L.header, K.H_SLEEP, 0, Math.min(1, end - now));
  mutexLock(L.latches, m, t.cfg);
  return end;
}

/** A free or evicted frame of `inst`, waiting for one as `waitFree` does. Under the mutex. */
export function takeFrameLocked(t: PoolThread, inst: number): number {
  let deadline = -1;
  let f = getFreeLocked(t, inst);
  while (f < 0) {
    deadline = waitFree(t, inst, deadline);
    f = getFreeLocked(t, inst);
  }
  return f;
}

/**
 * Evicts every page that is not fixed (writing dirty ones first), as a restart would; frames go
 * back to the free list. Takes each instance mutex. Returns the number of pages still in the pool.
 */
export function evictAll(t: PoolThread): number {
  const L = t.L;
  let left = 0;
  for (let inst = 0; inst < L.instances; inst++) {
    const m = inst * MUTEX_SLOTS;
    const ib = inst * K.I_STRIDE;
    mutexLock(L.latches, m, t.cfg);
    try {
      let f = L.inst[ib + K.I_LRU_TAIL]!;
      while (f >= 0) {
        const prev = L.fPrev[f]!;
        if (replaceable(t, f) && tryClaimVictim(t, f)) {
          if (L.fOldest[f] !== 0n) writePageLocked(t, inst, f);
          hashRemove(L, inst * L.hashSize, f);
          lruRemoveLocked(t, inst, f);
          L.fSpace[f] = -1;
          freeListAddLocked(t, inst, f);
        } else {
          left++;
        }
        f = prev;
      }
    } finally {
      mutexUnlock(L.latches, m, t.cfg);
    }
  }
  return left;
}
