import type { BufferPoolStats } from '../stats.js';
import { addStats, readInstanceStats } from '../stats.js';
import { checkInstance } from './check.js';
import { type LatchCounters, MUTEX_SLOTS, mutexLock, mutexUnlock } from './latch.js';
import * as K from './layout.js';
import type { PoolThread } from './thread.js';

/** Status counters summed over the instances (what SHOW GLOBAL STATUS shows). */
export function poolStats(t: PoolThread): BufferPoolStats {
  let s = readInstanceStats(t.L, 0);
  for (let i = 1; i < t.L.instances; i++) s = addStats(s, readInstanceStats(t.L, i));
  return s;
}

/**
 * Zeroes every thread's counters and the latch counters (not the gauges, not freed_page_clock).
 * A thread counting at the same moment may keep one increment.
 */
export function resetStats(t: PoolThread): void {
  t.L.counters.fill(0);
  (t.cfg.counters as LatchCounters).reset();
}

/** The frames of an instance's LRU list from head to tail, with their old flags. */
export function lruList(t: PoolThread, inst: number): { frames: number[]; old: boolean[]; oldLen: number } {
  const L = t.L;
  const ib = inst * K.I_STRIDE;
  const frames: number[] = [];
  const old: boolean[] = [];
  mutexLock(L.latches, inst * MUTEX_SLOTS, t.cfg);
  for (let f = L.inst[ib + K.I_LRU_HEAD]!; f >= 0; f = L.fNext[f]!) {
    frames.push(f);
    old.push(L.fOld[f] === 1);
  }
  const oldLen = L.inst[ib + K.I_LRU_OLD_LEN]!;
  mutexUnlock(L.latches, inst * MUTEX_SLOTS, t.cfg);
  return { frames, old, oldLen };
}

/** Checks every instance's invariants under its mutex; throws on the first violation. */
export function checkAll(t: PoolThread): void {
  const L = t.L;
  for (let inst = 0; inst < L.instances; inst++) {
    mutexLock(L.latches, inst * MUTEX_SLOTS, t.cfg);
    try {
      checkInstance(L, inst);
    } finally {
      mutexUnlock(L.latches, inst * MUTEX_SLOTS, t.cfg);
    }
  }
}
