import { describe, expect, it } from 'vitest';
import {
  formatInnodbStatus,
  LatchCounters,
  LockStateError,
  MUTEX_SLOTS,
  mutexInit,
  mutexIsLocked,
  mutexLock,
  mutexLockTimeout,
  mutexOwner,
  mutexTryLock,
  mutexUnlock,
  RWLOCK_SLOTS,
  rwInit,
  rwLockWord,
  rwSLock,
  rwSLockTimeout,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXLockAsync,
  rwXLockTimeout,
  rwXUnlock,
  THREAD_ID,
  X_LOCK_DECR,
} from '../src/index.js';

const shared = (n: number): Int32Array => new Int32Array(new SharedArrayBuffer(n * 4));

describe('functional mutex', () => {
  it('locks, reports its owner and unlocks', () => {
    const a = shared(MUTEX_SLOTS * 3);
    mutexInit(a, MUTEX_SLOTS);
    expect(mutexIsLocked(a, MUTEX_SLOTS)).toBe(false);
    mutexLock(a, MUTEX_SLOTS);
    expect(THREAD_ID).toBe(1);
    expect(mutexOwner(a, MUTEX_SLOTS)).toBe(THREAD_ID);
    expect(Array.from(a.subarray(MUTEX_SLOTS, 2 * MUTEX_SLOTS))).toEqual([1, 0, 1, 0]);
    expect(mutexTryLock(a, MUTEX_SLOTS)).toBe(false);
    mutexUnlock(a, MUTEX_SLOTS);
    expect(Array.from(a)).toEqual(new Array(MUTEX_SLOTS * 3).fill(0));
    expect(mutexTryLock(a, MUTEX_SLOTS)).toBe(true);
    mutexUnlock(a, MUTEX_SLOTS);
  });

  it('rejects misuse with LockStateError', () => {
    const a = shared(MUTEX_SLOTS);
    mutexInit(a, 0);
    expect(() => mutexUnlock(a, 0)).toThrow(/not locked/);
    mutexLock(a, 0);
    expect(() => mutexLock(a, 0)).toThrow(LockStateError);
    expect(() => mutexLock(a, 0)).toThrow(/not recursive/);
    a[2] = 99; // pretend thread 99 owns it
    expect(() => mutexUnlock(a, 0)).toThrow(/held by thread 99/);
  });

  it('times out and counts the wait', () => {
    const a = shared(MUTEX_SLOTS);
    mutexInit(a, 0);
    const counters = new LatchCounters();
    Atomics.store(a, 0, 1);
    a[2] = 42;
    const cfg = { spinLoops: 3, spinDelay: 1, counters };
    expect(mutexLockTimeout(a, 0, 5, cfg)).toBe(false);
    const s = counters.snapshot();
    expect(s.mutex.spinWaits).toBe(1);
    expect(s.mutex.spinRounds).toBeGreaterThanOrEqual(3);
    expect(s.mutex.osWaits).toBeGreaterThanOrEqual(1);
    expect(formatInnodbStatus(counters)).toContain('Mutex spin waits 1, rounds');
  });

  it('validates init arguments', () => {
    expect(() => mutexInit(new Int32Array(4), 0)).toThrow(TypeError);
    expect(() => mutexInit(shared(4), 1)).toThrow(RangeError);
    expect(() => mutexInit(shared(4), 0.5)).toThrow(/index must be an integer/);
    expect(() => mutexInit([] as unknown as Int32Array, 0)).toThrow(/Int32Array/);
  });
});

describe('functional rw-lock (lock_word scheme)', () => {
  it('walks the lock_word states', () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    expect(rwLockWord(a, 0)).toBe(X_LOCK_DECR);
    rwSLock(a, 0);
    rwSLock(a, 0);
    expect(rwLockWord(a, 0)).toBe(X_LOCK_DECR - 2);
    expect(rwTryXLock(a, 0)).toBe(false);
    rwSUnlock(a, 0);
    rwSUnlock(a, 0);
    expect(() => rwSUnlock(a, 0)).toThrow(/holds no S lock/);
    rwXLock(a, 0);
    expect(rwLockWord(a, 0)).toBe(0);
    expect(rwTrySLock(a, 0)).toBe(false);
    rwXLock(a, 0);
    expect(rwTryXLock(a, 0)).toBe(true);
    expect(rwLockWord(a, 0)).toBe(-2 * X_LOCK_DECR);
    expect(() => rwSLock(a, 0)).toThrow(/would deadlock/);
    rwXUnlock(a, 0);
    rwXUnlock(a, 0);
    expect(rwLockWord(a, 0)).toBe(0);
    rwXUnlock(a, 0);
    expect(Array.from(a)).toEqual([X_LOCK_DECR, 0, 0, 0, 0, 0]);
    expect(() => rwXUnlock(a, 0)).toThrow(/not X-locked/);
  });

  it('rejects an X unlock by a non-owner', () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    rwXLock(a, 0);
    a[2] = 77;
    expect(() => rwXUnlock(a, 0)).toThrow(/X-locked by thread 77/);
  });

  it('times out in wait-ex and gives the reservation back', () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    rwSLock(a, 0); // a reader that never leaves
    const cfg = { spinLoops: 2, spinDelay: 1, counters: new LatchCounters() };
    expect(rwXLockTimeout(a, 0, 5, cfg)).toBe(false);
    expect(rwLockWord(a, 0)).toBe(X_LOCK_DECR - 1);
    expect(a[3]).toBe(0);
    expect(cfg.counters.snapshot().rwExcl.osWaits).toBeGreaterThanOrEqual(1);
    rwSUnlock(a, 0);
    expect(rwLockWord(a, 0)).toBe(X_LOCK_DECR);
  });

  it('S times out behind a writer', () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    Atomics.store(a, 0, 0); // X-locked by a foreign thread
    a[2] = 5;
    a[3] = 1;
    const cfg = { spinLoops: 2, spinDelay: 1, counters: new LatchCounters() };
    expect(rwSLockTimeout(a, 0, 3, cfg)).toBe(false);
    expect(rwXLockTimeout(a, 0, 3, cfg)).toBe(false);
    const s = cfg.counters.snapshot();
    expect(s.rwShared.spinWaits).toBe(1);
    expect(s.rwExcl.spinWaits).toBe(1);
  });

  it('a stray S unlock on an X-locked word is refused without touching lock_word', () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    rwXLock(a, 0);
    expect(() => rwSUnlock(a, 0)).toThrow(/holds no S lock \(lock_word 0\)/);
    expect(rwLockWord(a, 0)).toBe(0);
    expect(rwTrySLock(a, 0)).toBe(false);
    rwXUnlock(a, 0);
  });

  it('async X reserves (wait-ex), blocks new readers, and gets in when the reader leaves', async () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    rwSLock(a, 0);
    const x = rwXLockAsync(a, 0, 5000);
    expect(rwLockWord(a, 0)).toBe(-1); // reserved: one reader still inside
    expect(rwTrySLock(a, 0)).toBe(false);
    setTimeout(() => rwSUnlock(a, 0), 5);
    expect(await x).toBe(true);
    expect(rwLockWord(a, 0)).toBe(0);
    rwXUnlock(a, 0);
    expect(rwLockWord(a, 0)).toBe(X_LOCK_DECR);
  });

  it('async X gives the reservation back on timeout', async () => {
    const a = shared(RWLOCK_SLOTS);
    rwInit(a, 0);
    rwSLock(a, 0);
    expect(await rwXLockAsync(a, 0, 5)).toBe(false);
    expect(rwLockWord(a, 0)).toBe(X_LOCK_DECR - 1);
    rwSUnlock(a, 0);
  });
});
