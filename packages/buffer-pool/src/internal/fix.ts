import { initPage } from '../envelope.js';
import type { LatchMode } from '../page-store.js';
import { lruAddLocked, takeFrameLocked } from './frames.js';
import { noteModification } from './flush.js';
import { latchAt, pageSLock, pageSUnlock, pageXLock, pageXUnlock } from './frame-latch.js';
import { MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import { onAccess } from './make-young.js';
import { fixMiss } from './miss.js';
import { bucketOf, hashInsert } from './page-hash.js';
import { linearReadAhead } from './read-ahead-io.js';
import { appendPageNo } from './spaces.js';
import { counterAt, instanceOfPage, type PoolThread, stamp } from './thread.js';

/**
 * The general path of `fix()`/`unfix()` and page creation: whatever the class's inlined hit paths
 * leave out (argument errors, misses, first accesses, X latches, waits for a latch).
 */

/**
 * `buf_page_get_gen`: counts the read request, pins the page (lock-free on a hit, else
 * `fixMiss`), then `afterFix`. Returns the frame.
 */
export function fixGeneral(t: PoolThread, space: number, pageNo: number, latch: LatchMode): number {
  const inst = instanceOfPage(t.L.instances, space, pageNo);
  if (latch !== 0 && latch !== 1 && latch !== 2) {
    throw new RangeError(`latch must be 0, 1 or 2, got ${String(latch)}`);
  }
  t.L.counters[counterAt(t, inst, K.C_READ_REQUESTS)]!++;
  let f = tryFixHit(t, inst, space, pageNo);
  if (f < 0) f = fixMiss(t, inst, space, pageNo);
  return afterFix(t, inst, f, space, pageNo, latch);
}

/** The lock-free hit: −1 when the page is absent, under I/O, or changing identity. */
function tryFixHit(t: PoolThread, inst: number, space: number, pageNo: number): number {
  const L = t.L;
  let f = L.hash[inst * L.hashSize + bucketOf(L, space, pageNo)]!;
  if (!t.shared) {
    // One thread: hashed frames have fix ≥ 0 and nothing changes under us.
    while (f >= 0 && (L.fPage[f] !== pageNo || L.fSpace[f] !== space)) f = L.fHashNext[f]!;
    if (f < 0 || L.fIo[f] !== K.IO_NONE) return -1;
    L.fFix[f]!++;
    return f;
  }
  // Chains may change under us; a bounded walk that misses just takes the slow path.
  for (let steps = 0; f >= 0 && steps < 64; steps++) {
    if (L.fPage[f] === pageNo && L.fSpace[f] === space) {
      for (;;) {
        const c = Atomics.load(L.fFix, f);
        if (c < 0) return -1;
        if (Atomics.compareExchange(L.fFix, f, c, c + 1) === c) break;
      }
      if (L.fPage[f] === pageNo && L.fSpace[f] === space && Atomics.load(L.fIo, f) === K.IO_NONE) return f;
      Atomics.sub(L.fFix, f, 1);
      return -1;
    }
    f = L.fHashNext[f]!;
  }
  return -1;
}

/**
 * After the frame is pinned: first-access time (`buf_page_set_accessed` keeps the first), the
 * policy's make-young decision (the mutex only if the block moves), the page latch, and linear
 * read-ahead on a first access.
 */
function afterFix(
  t: PoolThread,
  inst: number,
  f: number,
  space: number,
  pageNo: number,
  latch: LatchMode,
): number {
  const L = t.L;
  const first = L.fAccess[f] === 0;
  if (first) L.fAccess[f] = stamp(t);
  onAccess(t, inst, f, first);
  try {
    if (latch === 1) {
      const i = latchAt(L, f);
      const w = L.latches[i]!;
      // Unshared atomics latch: an S lock is lock_word − 1 while the word is positive
      // (rw_lock_lock_word_decr).
      if (!t.shared && !L.legacy && w > 0) {
        L.latches[i] = w - 1;
        L.fFix[f]!--;
      } else {
        pageSLock(t, f);
        // The S latch pins the frame from here on (frame-latch.ts): give the fix back.
        Atomics.sub(L.fFix, f, 1);
      }
    } else if (latch === 2) {
      pageXLock(t, f);
    }
  } catch (e) {
    // E.g. LockStateError: S requested on a page this thread holds X. Give the fix back.
    Atomics.sub(L.fFix, f, 1);
    throw e;
  }
  if (first && L.header[K.H_LINEAR_RA] === 1) linearReadAhead(t, space, pageNo, f);
  return f;
}

/**
 * Releases the latch, then the fix (an S latch holds no fix: it pinned the frame by itself);
 * RangeError for a bad latch mode or an unfixed frame.
 */
export function unfixGeneral(t: PoolThread, frame: number, latch: LatchMode): void {
  const L = t.L;
  if (latch === 1) {
    if (!(frame >= 0 && frame < L.frames)) throw new RangeError(`frame ${String(frame)} is not fixed`);
    pageSUnlock(t, frame);
    return;
  }
  if (latch === 2) pageXUnlock(t, frame);
  else if (latch !== 0) throw new RangeError(`latch must be 0, 1 or 2, got ${String(latch)}`);
  if (Atomics.sub(L.fFix, frame, 1) <= 0) {
    Atomics.add(L.fFix, frame, 1);
    throw new RangeError(`frame ${String(frame)} is not fixed`);
  }
}

/**
 * Appends a new page to `space` (`fsp` allocation + `buf_page_create`): a free or evicted frame
 * gets a fresh envelope, enters the LRU at the head, is marked dirty, and is returned fixed with
 * an X latch. Not a read request (as `buf_page_create`); counts Innodb_pages_created.
 */
export function createPage(t: PoolThread, space: number, lsn?: bigint): number {
  const L = t.L;
  const pageNo = appendPageNo(t, space);
  const inst = instanceOfPage(L.instances, space, pageNo);
  const m = inst * MUTEX_SLOTS;
  mutexLock(L.latches, m, t.cfg);
  // The frame comes X-latched by this thread (frame-latch.ts): it is returned that way.
  const f = takeFrameLocked(t, inst);
  L.fSpace[f] = space;
  L.fPage[f] = pageNo;
  Atomics.store(L.fIo, f, K.IO_NONE);
  L.fRef[f] = 0;
  L.fNewest[f] = 0n;
  L.fAccess[f] = stamp(t);
  hashInsert(L, inst * L.hashSize, f);
  lruAddLocked(t, inst, f, false);
  Atomics.store(L.fFix, f, 1);
  L.counters[counterAt(t, inst, K.C_PAGES_CREATED)]!++;
  mutexUnlock(L.latches, m, t.cfg);
  initPage(L.bytes, f * L.pageSize, L.pageSize, space, pageNo);
  noteModification(t, f, lsn);
  return f;
}
