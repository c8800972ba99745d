import { defaultLatchConfig, type LatchConfig, randomDelayUnits, utDelay } from './config.js';
import { C_MUTEX, C_RESERVATIONS, C_SIGNALS, F_OS_WAITS, F_SPIN_ROUNDS, F_SPIN_WAITS } from './counters.js';
import { LockStateError } from './errors.js';
import { checkRegion } from './internal/region.js';
import { waitAsync } from './internal/wait-async.js';
import { THREAD_ID } from './thread-id.js';

/**
 * Int32 slots one mutex occupies, starting at its `index`:
 *
 * | slot | name | values |
 * |---|---|---|
 * | +0 | lock_word | bit 0: held (InnoDB's `lock_word`); bit 1: waiters (InnoDB's `waiters`) |
 * | +1 | (reserved) | 0 |
 * | +2 | owner     | owner's thread id (worker threadId + 1), 0 when free |
 * | +3 | event     | signal count: bumped by every wake-up; sleepers wait on it (os_event's `signal_count`) |
 *
 * InnoDB keeps `waiters` in a field of its own and reads it with a plain load after the
 * releasing exchange, which x86's locked exchange orders. JavaScript's memory model gives a plain
 * read no such order, and every `Atomics` call on Node 20 is a call into a V8 builtin (it is not
 * inlined), so a separate sequentially consistent read of `waiters` would be a third builtin call
 * per lock+unlock. With both in one word, unlock is one exchange that releases the mutex and
 * returns the waiters flag at once, and lock+unlock costs two atomics, the floor.
 */
export const MUTEX_SLOTS = 4;
const OWNER = 2;
const EVENT = 3;
/** lock_word bits. */
const HELD = 1;
const WAITERS_BIT = 2;

/** Number of test-and-set retries after setting the waiters flag (InnoDB: 4). */
const RETRIES_AFTER_RESERVE = 4;

/**
 * Make slots [index, index + MUTEX_SLOTS) a free mutex. Call once, before any thread uses it.
 * REQUIRES: `int32` views a SharedArrayBuffer.
 */
export function mutexInit(int32: Int32Array, index: number): void {
  checkRegion('mutexInit', int32, index, MUTEX_SLOTS);
  for (let s = 0; s < MUTEX_SLOTS; s++) Atomics.store(int32, index + s, 0);
}

/**
 * Acquire without waiting (`mutex_enter_nowait`). Returns false if any thread holds it,
 * including the caller.
 */
export function mutexTryLock(int32: Int32Array, index: number): boolean {
  if (Atomics.compareExchange(int32, index, 0, HELD) !== 0 && !testAndSet(int32, index)) return false;
  int32[index + OWNER] = THREAD_ID;
  return true;
}

/**
 * `mutex_test_and_set` when the word may carry the waiters bit: set the held bit if it is clear,
 * keeping the waiters bit. True if this call took the mutex.
 */
function testAndSet(int32: Int32Array, index: number): boolean {
  for (;;) {
    const w = Atomics.load(int32, index);
    if ((w & HELD) !== 0) return false;
    if (Atomics.compareExchange(int32, index, w, w | HELD) === w) return true;
  }
}

/**
 * Acquire, blocking the thread (`mutex_enter`): one compare-and-swap; if it fails, spin up to
 * `innodb_sync_spin_loops` rounds of random `ut_delay`, then set the waiters flag and sleep in
 * `Atomics.wait`. Throws LockStateError if the caller already holds it (mutexes are not recursive).
 */
export function mutexLock(int32: Int32Array, index: number, config: LatchConfig = defaultLatchConfig): void {
  if (Atomics.compareExchange(int32, index, 0, HELD) !== 0) mutexSpinWait(int32, index, config, Infinity);
  int32[index + OWNER] = THREAD_ID;
}

/**
 * Acquire, waiting at most `timeoutMs` milliseconds. Returns false on timeout (the mutex is not
 * held then). `timeoutMs` 0 is a single try after spinning.
 */
export function mutexLockTimeout(
  int32: Int32Array,
  index: number,
  timeoutMs: number,
  config: LatchConfig = defaultLatchConfig,
): boolean {
  if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be >= 0, got ${timeoutMs}`);
  if (Atomics.compareExchange(int32, index, 0, HELD) !== 0) {
    if (!mutexSpinWait(int32, index, config, performance.now() + timeoutMs)) return false;
  }
  int32[index + OWNER] = THREAD_ID;
  return true;
}

/**
 * Release (`mutex_exit`): clear the owner, then exchange 0 into the lock word, which releases
 * the mutex and clears the waiters bit in one atomic step; only if that bit was set, bump the
 * event and wake the sleepers (`mutex_signal_object`; the notify costs tens of ns, so the
 * uncontended path skips it). Throws LockStateError if the mutex is free or held by another thread.
 */
export function mutexUnlock(
  int32: Int32Array,
  index: number,
  config: LatchConfig = defaultLatchConfig,
): void {
  if (int32[index + OWNER] !== THREAD_ID) throw notOwner(int32, index);
  int32[index + OWNER] = 0;
  if (Atomics.exchange(int32, index, 0) !== HELD) {
    Atomics.add(int32, index + EVENT, 1);
    Atomics.notify(int32, index + EVENT);
    if (config.counters !== null) config.counters.add(C_SIGNALS, 1);
  }
}

/** True if some thread holds the mutex (a racy snapshot, for assertions and monitors). */
export function mutexIsLocked(int32: Int32Array, index: number): boolean {
  return (Atomics.load(int32, index) & HELD) !== 0;
}

/** The owner's thread id, 0 when free (a racy snapshot). */
export function mutexOwner(int32: Int32Array, index: number): number {
  return (Atomics.load(int32, index) & HELD) === 0 ? 0 : Atomics.load(int32, index + OWNER);
}

/**
 * Check the slots' invariants and throw an Error describing the first one broken.
 * REQUIRES: no thread is inside lock/unlock on this mutex (a quiescent moment), since the owner
 * slot is written just after the lock word.
 */
export function mutexCheckValid(int32: Int32Array, index: number): void {
  const lw = Atomics.load(int32, index);
  const owner = Atomics.load(int32, index + OWNER);
  const spare = Atomics.load(int32, index + 1);
  if ((lw & ~(HELD | WAITERS_BIT)) !== 0) throw new Error(`mutex at ${index}: lock_word ${lw} is not 0..3`);
  if (spare !== 0 && spare !== 1) throw new Error(`mutex at ${index}: slot +1 is ${spare}, not 0 or 1`);
  if ((lw & HELD) === 0 && owner !== 0) throw new Error(`mutex at ${index}: free but owner is ${owner}`);
  if ((lw & HELD) !== 0 && owner <= 0) throw new Error(`mutex at ${index}: held but owner is ${owner}`);
}

function notOwner(int32: Int32Array, index: number): LockStateError {
  if ((Atomics.load(int32, index) & HELD) === 0) {
    return new LockStateError(`mutexUnlock: mutex at index ${index} is not locked`);
  }
  const owner = Atomics.load(int32, index + OWNER);
  return new LockStateError(
    `mutexUnlock: mutex at index ${index} is held by thread ${owner}, not by the caller (thread ${THREAD_ID})`,
  );
}

/**
 * `mutex_spin_wait` after one failed test-and-set. Returns true once acquired, false when
 * `deadline` (a `performance.now()` time) passes first.
 */
function mutexSpinWait(int32: Int32Array, index: number, config: LatchConfig, deadline: number): boolean {
  if (int32[index + OWNER] === THREAD_ID && (Atomics.load(int32, index) & HELD) !== 0) {
    throw new LockStateError(
      `mutexLock: thread ${THREAD_ID} already holds the mutex at index ${index} (mutexes are not recursive)`,
    );
  }
  const counters = config.counters;
  const rounds = config.spinLoops;
  const delay = config.spinDelay;
  if (counters !== null) counters.add(C_MUTEX + F_SPIN_WAITS, 1);
  for (;;) {
    let i = 0;
    for (;;) {
      while (i < rounds && (Atomics.load(int32, index) & HELD) !== 0) {
        if (delay > 0) utDelay(randomDelayUnits(delay));
        i++;
      }
      if (counters !== null && i > 0) counters.add(C_MUTEX + F_SPIN_ROUNDS, i);
      if (testAndSet(int32, index)) return true;
      i++;
      if (i >= rounds) break;
    }
    // sync_array_reserve_cell: remember the signal count, then announce a waiter (the bit stays
    // until the next unlock clears it, even if a retry below takes the mutex, as in InnoDB).
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.or(int32, index, WAITERS_BIT);
    if (counters !== null) counters.add(C_RESERVATIONS, 1);
    for (let k = 0; k < RETRIES_AFTER_RESERVE; k++) {
      if (testAndSet(int32, index)) return true;
    }
    let wait = Infinity;
    if (deadline !== Infinity) {
      wait = deadline - performance.now();
      if (wait <= 0) return false;
    }
    if (counters !== null) counters.add(C_MUTEX + F_OS_WAITS, 1);
    Atomics.wait(int32, index + EVENT, signal, wait);
  }
}

/**
 * Acquire without blocking the event loop: try, then announce a waiter and sleep in
 * `Atomics.waitAsync` on the event; no busy spinning (it would stall the loop). Resolves true
 * once held, false if `timeoutMs` passed first. Ownership is per thread, so two async tasks of
 * one thread queue on each other rather than deadlock; either may unlock.
 */
export async function mutexLockAsync(
  int32: Int32Array,
  index: number,
  timeoutMs: number = Infinity,
  config: LatchConfig = defaultLatchConfig,
): Promise<boolean> {
  if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be >= 0, got ${timeoutMs}`);
  const deadline = performance.now() + timeoutMs;
  const counters = config.counters;
  let first = true;
  for (;;) {
    if (mutexTryLock(int32, index)) return true;
    if (first && counters !== null) counters.add(C_MUTEX + F_SPIN_WAITS, 1);
    first = false;
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.or(int32, index, WAITERS_BIT);
    if (counters !== null) counters.add(C_RESERVATIONS, 1);
    if (mutexTryLock(int32, index)) return true;
    const wait = deadline - performance.now();
    if (wait <= 0) return false;
    if (counters !== null) counters.add(C_MUTEX + F_OS_WAITS, 1);
    const pending = waitAsync(int32, index + EVENT, signal, wait);
    if (pending !== null) await pending;
  }
}
