import { FIL_PAGE_NEXT, FIL_PAGE_PREV, readUint32BE, verifyPage } from '../envelope.js';
import { releaseReadLatch } from './frame-latch.js';
import { discardLocked, getFreeLocked, initForReadLocked } from './frames.js';
import { MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import { peekIfYoung } from './make-young.js';
import { hashGet } from './page-hash.js';
import { accessedInOrder, countRecent, linearTarget } from './read-ahead.js';
import { spaceSize } from './spaces.js';
import { counterAt, deviceOf, instanceOfPage, type PoolThread } from './thread.js';

/** `BUF_READ_AHEAD_AREA` cap: one extent. */
const READ_AHEAD_AREA_MAX = 64;

/**
 * `buf_read_ahead_linear` (5.5/5.6), on the first access of a page at either border of its
 * area: if the area was accessed in order (at most 64 − innodb_read_ahead_threshold failures)
 * and the page's FIL_PAGE_PREV/NEXT points into the neighbouring area in the same direction,
 * read that whole area. `f` is the page's frame, fixed by the caller. Returns pages read.
 */
export function linearReadAhead(t: PoolThread, space: number, pageNo: number, f: number): number {
  const L = t.L;
  const area = t.area;
  const low = Math.floor(pageNo / area) * area;
  if (pageNo !== low && pageNo !== low + area - 1) return 0;
  const size = spaceSize(L, space);
  if (low + area > size) return 0;
  const inst = instanceOfPage(L.instances, space, pageNo);
  const m = inst * MUTEX_SLOTS;
  const threshold = Math.min(64 - L.header[K.H_RA_THRESHOLD]!, area);
  mutexLock(L.latches, m, t.cfg);
  // BUF_READ_AHEAD_PEND_LIMIT: not while more than half the instance is being read.
  const ok =
    L.inst[inst * K.I_STRIDE + K.I_PEND_READS]! <= t.perInstance / 2 &&
    accessedInOrder(L, inst * L.hashSize, space, low, area, pageNo === low ? -1 : 1, threshold);
  mutexUnlock(L.latches, m, t.cfg);
  if (!ok) return 0;
  // The page is fixed by the caller; InnoDB reads these two fields without the latch too.
  const base = f * L.pageSize;
  const prev = readUint32BE(L.bytes, base + FIL_PAGE_PREV);
  const next = readUint32BE(L.bytes, base + FIL_PAGE_NEXT);
  const low2 = linearTarget(pageNo, low, area, prev, next, size);
  if (low2 < 0) return 0;
  const count = readArea(t, space, low2, low2 + area);
  // Counters are this thread's own slots: no mutex needed.
  L.counters[counterAt(t, instanceOfPage(L.instances, space, low2), K.C_READ_AHEAD)]! += count;
  return count;
}

/**
 * `buf_read_ahead_random` (5.5/5.6, innodb_random_read_ahead): after a miss, if at least
 * 5 + area/8 pages of the page's area are cached, accessed and young, read the rest of the area.
 */
export function randomReadAhead(t: PoolThread, space: number, pageNo: number, size: number): number {
  const L = t.L;
  const area = t.area;
  const low = Math.floor(pageNo / area) * area;
  const high = Math.min(low + area, size);
  const inst = instanceOfPage(L.instances, space, pageNo);
  const m = inst * MUTEX_SLOTS;
  const threshold = 5 + Math.floor(area / 8);
  mutexLock(L.latches, m, t.cfg);
  const recent =
    L.inst[inst * K.I_STRIDE + K.I_PEND_READS]! <= t.perInstance / 2
      ? countRecent(L, inst * L.hashSize, space, low, high, threshold, (g) => peekIfYoung(t, inst, g))
      : 0;
  mutexUnlock(L.latches, m, t.cfg);
  if (recent < threshold) return 0;
  const count = readArea(t, space, low, high);
  const cb = counterAt(t, inst, 0);
  L.counters[cb + K.C_READ_AHEAD_RND]! += count;
  L.counters[cb + K.C_READS]! += count;
  return count;
}

/**
 * Reads the pages of [low, high) that are not cached, one device request per run of consecutive
 * missing pages. They enter the LRU at the midpoint, unaccessed. Stops early (quietly) when no
 * frame can be freed; a page that fails verification is dropped (a later `fix()` reports it).
 */
function readArea(t: PoolThread, space: number, low: number, high: number): number {
  const L = t.L;
  const ps = L.pageSize;
  const inst = instanceOfPage(L.instances, space, low);
  const m = inst * MUTEX_SLOTS;
  const hb = inst * L.hashSize;
  const dev = deviceOf(t, space);
  const frames: number[] = [];
  const runs: number[] = []; // pairs: first page, count
  mutexLock(L.latches, m, t.cfg);
  for (let p = low; p < high; p++) {
    if (hashGet(L, hb, space, p) >= 0) continue;
    const f = getFreeLocked(t, inst);
    if (f < 0) break;
    initForReadLocked(t, inst, f, space, p, 0);
    frames.push(f);
    const r = runs.length;
    if (r > 0 && runs[r - 2]! + runs[r - 1]! === p) runs[r - 1]!++;
    else runs.push(p, 1);
  }
  mutexUnlock(L.latches, m, t.cfg);
  if (frames.length === 0) return 0;
  if (t.runBuf === null || t.runBuf.length < READ_AHEAD_AREA_MAX * ps) {
    t.runBuf = new Uint8Array(READ_AHEAD_AREA_MAX * ps);
  }
  const buf = t.runBuf;
  const good = new Uint8Array(frames.length);
  let k = 0;
  let requests = 0;
  for (let r = 0; r < runs.length; r += 2) {
    const first = runs[r]!;
    const count = runs[r + 1]!;
    let ok = true;
    try {
      dev.readPages(first, count, buf, 0);
      requests++;
    } catch {
      ok = false;
    }
    for (let j = 0; j < count; j++, k++) {
      if (!ok) continue;
      const f = frames[k]!;
      if (verifyPage(buf, j * ps, ps, space, first + j) !== null) continue;
      L.bytes.set(buf.subarray(j * ps, (j + 1) * ps), f * ps);
      good[k] = 1;
    }
  }
  let n = 0;
  mutexLock(L.latches, m, t.cfg);
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    L.inst[inst * K.I_STRIDE + K.I_PEND_READS]!--;
    if (good[i] === 1) {
      Atomics.store(L.fIo, f, K.IO_NONE);
      n++;
    } else {
      discardLocked(t, inst, f, 0);
    }
  }
  const cb = counterAt(t, inst, 0);
  L.counters[cb + K.C_PAGES_READ]! += n;
  L.counters[cb + K.C_DATA_READS]! += requests;
  L.counters[cb + K.C_DATA_READ]! += n * ps;
  mutexUnlock(L.latches, m, t.cfg);
  // Frames read in stay X-latched by this thread until here; discarded ones stay latched on the free list.
  for (let i = 0; i < frames.length; i++) if (good[i] === 1) releaseReadLatch(t, frames[i]!);
  for (const f of frames) Atomics.notify(L.fIo, f);
  return n;
}
