import { sealPage, writePageLsn } from '../envelope.js';
import { checkInt } from '../options.js';
import { flushListInsert, flushListRemove } from './flush-list.js';
import { pageSUnlock, pageTrySLock } from './frame-latch.js';
import { MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import { counterAt, deviceOf, type PoolThread } from './thread.js';

/**
 * Dirty pages: noting a modification (the flush list, the LSN in the envelope) and writing pages
 * back (sealed copies, oldest modification first).
 */

/**
 * Writes a dirty frame (`buf_flush_write_block_low` after `buf_flush_init_for_writing`): a sealed
 * copy goes to the device; the frame leaves the flush list. REQUIRES: the caller holds the
 * instance mutex and the page is not being modified (unfixed, or S-latched by the caller).
 */
export function writePageLocked(t: PoolThread, inst: number, f: number): void {
  const L = t.L;
  const ps = L.pageSize;
  const space = L.fSpace[f]!;
  const pageNo = L.fPage[f]!;
  const buf = t.writeBuf;
  buf.set(L.bytes.subarray(f * ps, (f + 1) * ps));
  sealPage(buf, 0, ps, space, pageNo, L.fNewest[f]!);
  deviceOf(t, space).writePage(pageNo, buf, 0);
  const cb = counterAt(t, inst, 0);
  L.counters[cb + K.C_PAGES_WRITTEN]!++;
  L.counters[cb + K.C_PAGES_FLUSHED]!++;
  L.counters[cb + K.C_DATA_WRITES]!++;
  L.counters[cb + K.C_DATA_WRITTEN]! += ps;
  flushListRemove(L, inst * K.I_STRIDE, f);
  L.fOldest[f] = 0n;
}

/**
 * Writes every dirty page, oldest modification first, then syncs the devices. A page another
 * thread holds X-latched is left dirty; returns how many were (0: all written).
 * REQUIRES: the calling thread holds no X latch (its own X-latched pages would be skipped).
 */
export function flushAll(t: PoolThread): number {
  const L = t.L;
  let skipped = 0;
  for (let inst = 0; inst < L.instances; inst++) {
    const m = inst * MUTEX_SLOTS;
    mutexLock(L.latches, m, t.cfg);
    try {
      let f = L.inst[inst * K.I_STRIDE + K.I_FL_TAIL]!;
      while (f >= 0) {
        const prev = L.fFlPrev[f]!;
        if (Atomics.load(L.fIo, f) !== K.IO_NONE || !pageTrySLock(t, f)) {
          skipped++;
        } else {
          try {
            writePageLocked(t, inst, f);
          } finally {
            pageSUnlock(t, f);
          }
        }
        f = prev;
      }
    } finally {
      mutexUnlock(L.latches, m, t.cfg);
    }
  }
  for (const dev of t.devices.values()) dev.sync();
  return skipped;
}

/**
 * Notes a modification of a fixed, X-latched frame (`buf_flush_note_modification`): `lsn`
 * (default: the pool's next LSN) becomes the page's newest modification, in its envelope too;
 * the first change puts the frame on the flush list. The pool's LSN never moves backwards.
 */
export function noteModification(t: PoolThread, frame: number, lsn: bigint | undefined): void {
  const L = t.L;
  if (!(frame >= 0 && frame < L.frames) || L.fSpace[frame] === -1) {
    checkInt('frame', frame, 0, L.frames - 1);
    throw new RangeError(`frame ${frame} holds no page`);
  }
  let v: bigint;
  if (lsn === undefined) {
    v = Atomics.add(L.lsn, 0, 1n) + 1n;
  } else {
    if (typeof lsn !== 'bigint') throw new TypeError(`lsn must be a bigint, got ${String(lsn)}`);
    if (lsn <= 0n) throw new RangeError(`lsn must be > 0, got ${lsn}`);
    v = lsn;
    for (;;) {
      const cur = Atomics.load(L.lsn, 0);
      if (cur >= v || Atomics.compareExchange(L.lsn, 0, cur, v) === cur) break;
    }
  }
  const inst = Math.floor(frame / t.perInstance);
  const m = inst * MUTEX_SLOTS;
  mutexLock(L.latches, m, t.cfg);
  if (v > L.fNewest[frame]!) L.fNewest[frame] = v;
  if (L.fOldest[frame] === 0n) {
    L.fOldest[frame] = v;
    flushListInsert(L, inst * K.I_STRIDE, frame);
  }
  L.counters[counterAt(t, inst, K.C_WRITE_REQUESTS)]!++;
  mutexUnlock(L.latches, m, t.cfg);
  writePageLsn(L.bytes, frame * L.pageSize, L.pageSize, L.fNewest[frame]!);
}

/**
 * `buf_pool_get_oldest_modification`: the smallest oldest-modification LSN over every instance's
 * flush list (its tail), 0n when no page is dirty.
 */
export function oldestModification(t: PoolThread): bigint {
  const L = t.L;
  let min = 0n;
  for (let inst = 0; inst < L.instances; inst++) {
    const m = inst * MUTEX_SLOTS;
    mutexLock(L.latches, m, t.cfg);
    const f = L.inst[inst * K.I_STRIDE + K.I_FL_TAIL]!;
    const v = f >= 0 ? L.fOldest[f]! : 0n;
    mutexUnlock(L.latches, m, t.cfg);
    if (v !== 0n && (min === 0n || v < min)) min = v;
  }
  return min;
}

/**
 * `buf_flush_list(min_n, lsn_limit)`: writes dirty pages oldest modification first, from every
 * instance's tail, while their oldest modification is below `lsnLimit`, at most `maxPages` in all
 * (spread over the instances). Pages under I/O or latched by another thread are passed over.
 * Does not sync the devices. Returns the pages written.
 */
export function flushOldest(t: PoolThread, lsnLimit: bigint, maxPages: number): number {
  const L = t.L;
  let written = 0;
  const per = Math.max(1, Math.ceil(maxPages / L.instances));
  for (let inst = 0; inst < L.instances && written < maxPages; inst++) {
    const m = inst * MUTEX_SLOTS;
    mutexLock(L.latches, m, t.cfg);
    try {
      let f = L.inst[inst * K.I_STRIDE + K.I_FL_TAIL]!;
      let n = 0;
      while (f >= 0 && n < per && written < maxPages && L.fOldest[f]! < lsnLimit) {
        const prev = L.fFlPrev[f]!;
        if (Atomics.load(L.fIo, f) === K.IO_NONE && pageTrySLock(t, f)) {
          try {
            writePageLocked(t, inst, f);
          } finally {
            pageSUnlock(t, f);
          }
          n++;
          written++;
        }
        f = prev;
      }
    } finally {
      mutexUnlock(L.latches, m, t.cfg);
    }
  }
  return written;
}

/** Moves the pool's LSN forward to at least `lsn` (never backwards). */
export function advanceLsn(t: PoolThread, lsn: bigint): void {
  const L = t.L;
  for (;;) {
    const cur = Atomics.load(L.lsn, 0);
    if (cur >= lsn || Atomics.compareExchange(L.lsn, 0, cur, lsn) === cur) return;
  }
}
