import { type LatchConfig, randomDelayUnits51, utDelay } from '../config.js';
import { C_MUTEX, C_RESERVATIONS, C_SIGNALS, F_OS_WAITS, F_SPIN_ROUNDS, F_SPIN_WAITS } from '../counters.js';
import { THREAD_ID } from '../thread-id.js';

/**
 * The InnoDB mutex of the built-in InnoDB of MySQL 5.1 on Linux, as `LegacyRWLock` embeds it.
 * Without atomic builtins (the built-in 5.1 used its own x86 assembly only on Windows),
 * `mutex_test_and_set` is `os_fast_mutex_trylock` — `pthread_mutex_trylock` on a
 * `pthread_mutex_t` — and, when it succeeds, a plain store of 1 into `lock_word`;
 * `mutex_reset_lock_word` stores 0 and calls `os_fast_mutex_unlock` (`pthread_mutex_unlock`)
 * (`storage/innobase/include/sync0sync.ic`). Spinning and sleeping are `mutex_spin_wait`'s
 * (`storage/innobase/sync/sync0sync.c`), reading the plain `lock_word`, not the pthread mutex.
 *
 * The pthread mutex is modelled as glibc's futex word (`nptl/lowlevellock.h`): 0 free, 1 locked,
 * 2 locked with a sleeper. `pthread_mutex_trylock` is CAS 0→1; `pthread_mutex_unlock` exchanges
 * in 0 and wakes one sleeper if the old value was 2 (`lll_unlock`); `pthread_mutex_lock`
 * (`lll_lock`) CASes 0→1, else exchanges in 2 and sleeps until it reads 0 back. InnoDB only ever
 * try-locks it, so the word never reaches 2 on this path and unlock never wakes anyone — but the
 * two atomic read-modify-writes per enter/exit pair, on top of the plain `lock_word` stores, are
 * what the 5.1 mutex cost.
 *
 * Slots, relative to `index` (compatible with the atomic mutex's first four, plus one):
 *
 * | slot | field |
 * |---|---|
 * | +0 | `lock_word` (plain; 1 while held) |
 * | +1 | `waiters` |
 * | +2 | owner thread id |
 * | +3 | event signal count |
 * | +`futex` | the `pthread_mutex_t`'s futex word |
 */

/** Retries of the test-and-set after the waiters flag is set (`mutex_spin_wait`: 4). */
const RETRIES_AFTER_RESERVE = 4;
const WAITERS = 1;
const OWNER = 2;
const EVENT = 3;

/** `pthread_mutex_trylock` (glibc `lll_trylock`): CAS 0→1. False if it is held (EBUSY). */
export function fastMutexTryLock(int32: Int32Array, futex: number): boolean {
  return Atomics.compareExchange(int32, futex, 0, 1) === 0;
}

/** `pthread_mutex_lock` (glibc `lll_lock`): CAS 0→1, else mark it contended (2) and sleep. */
export function fastMutexLock(int32: Int32Array, futex: number): void {
  if (Atomics.compareExchange(int32, futex, 0, 1) === 0) return;
  while (Atomics.exchange(int32, futex, 2) !== 0) Atomics.wait(int32, futex, 2);
}

/** `pthread_mutex_unlock` (glibc `lll_unlock`): exchange in 0; wake one sleeper if it was 2. */
export function fastMutexUnlock(int32: Int32Array, futex: number): void {
  if (Atomics.exchange(int32, futex, 0) > 1) Atomics.notify(int32, futex, 1);
}

/** `mutex_create`: all five slots zero. */
export function mutex51Init(int32: Int32Array, index: number, futex: number): void {
  for (let s = 0; s <= EVENT; s++) Atomics.store(int32, index + s, 0);
  Atomics.store(int32, futex, 0);
}

/** `mutex_enter`: one `mutex_test_and_set`, else `mutex_spin_wait`. */
export function mutex51Enter(int32: Int32Array, index: number, futex: number, config: LatchConfig): void {
  if (fastMutexTryLock(int32, futex)) int32[index] = 1;
  else spinWait(int32, index, futex, config);
  int32[index + OWNER] = THREAD_ID;
}

/**
 * `mutex_exit`: `lock_word` = 0, `pthread_mutex_unlock`, then, if the waiters flag is set, clear
 * it and signal the event (`mutex_signal_object`).
 */
export function mutex51Exit(int32: Int32Array, index: number, futex: number, config: LatchConfig): void {
  int32[index + OWNER] = 0;
  int32[index] = 0;
  fastMutexUnlock(int32, futex);
  if (Atomics.load(int32, index + WAITERS) !== 0) {
    Atomics.store(int32, index + WAITERS, 0);
    Atomics.add(int32, index + EVENT, 1);
    Atomics.notify(int32, index + EVENT);
    if (config.counters !== null) config.counters.add(C_SIGNALS, 1);
  }
}

/** `mutex_test_and_set` over the pthread mutex: trylock, then the plain lock_word store. */
function testAndSet(int32: Int32Array, index: number, futex: number): boolean {
  if (!fastMutexTryLock(int32, futex)) return false;
  int32[index] = 1;
  return true;
}

/** `mutex_spin_wait` (5.1) after one failed test-and-set; returns once the mutex is held. */
function spinWait(int32: Int32Array, index: number, futex: number, config: LatchConfig): void {
  const counters = config.counters;
  const rounds = config.spinLoops;
  const delay = config.spinDelay;
  if (counters !== null) counters.add(C_MUTEX + F_SPIN_WAITS, 1);
  for (;;) {
    let i = 0;
    for (;;) {
      // Spin on the plain lock_word (`mutex_get_lock_word`), not on the pthread mutex.
      while (i < rounds && Atomics.load(int32, index) !== 0) {
        if (delay > 0) utDelay(randomDelayUnits51(delay));
        i++;
      }
      if (counters !== null && i > 0) counters.add(C_MUTEX + F_SPIN_ROUNDS, i);
      if (testAndSet(int32, index, futex)) return;
      i++;
      if (i >= rounds) break;
    }
    // sync_array_reserve_cell: remember the signal count, then announce a waiter.
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.store(int32, index + WAITERS, 1);
    if (counters !== null) counters.add(C_RESERVATIONS, 1);
    for (let k = 0; k < RETRIES_AFTER_RESERVE; k++) {
      if (testAndSet(int32, index, futex)) return;
    }
    if (counters !== null) counters.add(C_MUTEX + F_OS_WAITS, 1);
    Atomics.wait(int32, index + EVENT, signal);
  }
}
