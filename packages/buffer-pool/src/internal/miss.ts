import { verifyPage } from '../envelope.js';
import { CorruptionError } from '../errors.js';
import { releaseReadLatch } from './frame-latch.js';
import { discardLocked, getFreeLocked, initForReadLocked, waitFree } from './frames.js';
import { MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import { hashGet } from './page-hash.js';
import { randomReadAhead } from './read-ahead-io.js';
import { checkReadable } from './spaces.js';
import { counterAt, deviceOf, type PoolThread } from './thread.js';

/**
 * The slow half of `fix()`, under the instance mutex (`buf_page_get_gen` after the page-hash
 * miss): wait for a read another thread has in progress, or take a frame (free list, else evict)
 * and read the page into it synchronously (`buf_read_page`), verifying its envelope. Random
 * read-ahead may follow a read. Returns the frame, fixed once, not yet latched.
 *
 * Throws CorruptionError if the page read does not verify (the frame goes back to the free list),
 * BufferPoolFullError if no frame frees up within freeWaitMs, RangeError for an unregistered
 * space or a page past its end.
 */
export function fixMiss(t: PoolThread, inst: number, space: number, pageNo: number): number {
  const L = t.L;
  const m = inst * MUTEX_SLOTS;
  const hb = inst * L.hashSize;
  let deadline = -1;
  mutexLock(L.latches, m, t.cfg);
  for (;;) {
    let f = hashGet(L, hb, space, pageNo);
    if (f >= 0) {
      if (Atomics.load(L.fIo, f) !== K.IO_NONE) {
        // Another thread is reading it: wait for the read to finish, then look again.
        mutexUnlock(L.latches, m, t.cfg);
        Atomics.wait(L.fIo, f, K.IO_READ, 50);
        mutexLock(L.latches, m, t.cfg);
        continue;
      }
      // In the hash and not being evicted (the evictor would hold this mutex): fix ≥ 0.
      Atomics.add(L.fFix, f, 1);
      mutexUnlock(L.latches, m, t.cfg);
      return f;
    }
    const size = checkReadable(t, space, pageNo, m);
    f = getFreeLocked(t, inst);
    if (f < 0) {
      // The page may have come in while the mutex was released: look again after waiting.
      deadline = waitFree(t, inst, deadline);
      continue;
    }
    initForReadLocked(t, inst, f, space, pageNo, 1);
    mutexUnlock(L.latches, m, t.cfg);
    readInto(t, inst, f, space, pageNo);
    if (L.header[K.H_RANDOM_RA] === 1) randomReadAhead(t, space, pageNo, size);
    return f;
  }
}

/** Reads and verifies the page into frame `f` (fixed, under IO_READ), then publishes it. */
function readInto(t: PoolThread, inst: number, f: number, space: number, pageNo: number): void {
  const L = t.L;
  const m = inst * MUTEX_SLOTS;
  const ps = L.pageSize;
  const dev = deviceOf(t, space);
  let err: unknown = null;
  try {
    dev.readPages(pageNo, 1, L.bytes, f * ps);
    const bad = verifyPage(L.bytes, f * ps, ps, space, pageNo);
    if (bad !== null) err = new CorruptionError(dev.name, space, pageNo, bad);
  } catch (e) {
    err = e;
  }
  mutexLock(L.latches, m, t.cfg);
  L.inst[inst * K.I_STRIDE + K.I_PEND_READS]!--;
  if (err !== null) {
    discardLocked(t, inst, f, 1);
    mutexUnlock(L.latches, m, t.cfg);
    Atomics.notify(L.fIo, f);
    throw err;
  }
  Atomics.store(L.fIo, f, K.IO_NONE);
  mutexUnlock(L.latches, m, t.cfg);
  releaseReadLatch(t, f);
  Atomics.notify(L.fIo, f);
  const cb = counterAt(t, inst, 0);
  L.counters[cb + K.C_READS]!++;
  L.counters[cb + K.C_PAGES_READ]!++;
  L.counters[cb + K.C_DATA_READS]!++;
  L.counters[cb + K.C_DATA_READ]! += ps;
}
