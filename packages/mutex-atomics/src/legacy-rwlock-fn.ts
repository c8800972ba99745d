import { defaultLatchConfig, type LatchConfig, randomDelayUnits51, utDelay } from './config.js';
import { C_RESERVATIONS, C_RW_S, C_RW_X, C_SIGNALS, F_OS_WAITS, F_SPIN_WAITS } from './counters.js';
import { LockStateError, LockTimeoutError } from './errors.js';
import { mutex51Enter, mutex51Exit, mutex51Init } from './internal/mutex51.js';
import { checkRegion } from './internal/region.js';
import { MUTEX_SLOTS, mutexCheckValid } from './mutex-fn.js';
import { THREAD_ID } from './thread-id.js';

/** `writer` values of the 5.1 rw-lock. */
export const RW_LOCK_NOT_LOCKED = 350;
export const RW_LOCK_EX = 351;
export const RW_LOCK_WAIT_EX = 353;

/**
 * Int32 slots of one 5.1 rw-lock (the functional layer under {@link LegacyRWLock}, for callers
 * that keep thousands of latches in one array, as the buffer pool keeps one per frame):
 *
 * | slot | field (5.1 `rw_lock_t`) |
 * |---|---|
 * | +0..+3 | `mutex`: lock_word, waiters, owner, event (the {@link MUTEX_SLOTS} layout) |
 * | +4 | `reader_count` |
 * | +5 | `writer`: 350 not locked, 351 EX, 353 WAIT_EX |
 * | +6 | `writer_thread` |
 * | +7 | `writer_count` (X recursion depth) |
 * | +8 | `waiters` |
 * | +9 | event signal count |
 * | +10 | the mutex's `os_fast_mutex` (a pthread mutex's futex word: 0, 1, 2) |
 *
 * Fields +4..+8 are read and written with plain accesses under the mutex (as InnoDB 5.1 did);
 * only the spin loops peek at `writer` / `reader_count` without it, through `Atomics.load`.
 * Pass a config with 5.1's spin defaults (`DEFAULT_SPIN_LOOPS_51`, `DEFAULT_SPIN_WAIT_DELAY_51`)
 * to get 5.1's behaviour; the thread default config is the Plugin's.
 */
export const LEGACY_RWLOCK_SLOTS = 11;
const READERS = 4;
const WRITER = 5;
const WRITER_THREAD = 6;
const WRITER_COUNT = 7;
const WAITERS = 8;
const EVENT = 9;
const FUTEX = 10;

/** Make slots [index, index + LEGACY_RWLOCK_SLOTS) a free 5.1 rw-lock. */
export function legacyRwInit(a: Int32Array, i: number): void {
  checkRegion('legacyRwInit', a, i, LEGACY_RWLOCK_SLOTS);
  mutex51Init(a, i, i + FUTEX);
  for (let s = MUTEX_SLOTS; s < FUTEX; s++) Atomics.store(a, i + s, 0);
  Atomics.store(a, i + WRITER, RW_LOCK_NOT_LOCKED);
}

/** `rw_lock_s_lock_low`, under the mutex. */
function sLow(a: Int32Array, i: number): boolean {
  if (a[i + WRITER] !== RW_LOCK_NOT_LOCKED) return false;
  a[i + READERS] = a[i + READERS]! + 1;
  return true;
}

/** Try an S lock without waiting (`rw_lock_s_lock_nowait`): one trip through the mutex. */
export function legacyRwTrySLock(
  a: Int32Array,
  i: number,
  config: LatchConfig = defaultLatchConfig,
): boolean {
  mutex51Enter(a, i, i + FUTEX, config);
  const ok = sLow(a, i);
  mutex51Exit(a, i, i + FUTEX, config);
  return ok;
}

/**
 * S lock, blocking (`rw_lock_s_lock` → `rw_lock_s_lock_spin`), or waiting at most `timeoutMs`
 * (LockTimeoutError). LockStateError if the caller holds the X lock (that would deadlock).
 */
export function legacyRwSLock(
  a: Int32Array,
  i: number,
  config: LatchConfig = defaultLatchConfig,
  timeoutMs?: number,
): void {
  if (a[i + WRITER] === RW_LOCK_EX && a[i + WRITER_THREAD] === THREAD_ID) {
    throw new LockStateError(
      `legacy rw-lock at ${i}: thread ${THREAD_ID} holds the X lock; an S request would deadlock`,
    );
  }
  if (legacyRwTrySLock(a, i, config)) return;
  const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
  const counters = config.counters;
  for (;;) {
    if (counters !== null) counters.add(C_RW_S + F_SPIN_WAITS, 1);
    let r = 0;
    while (r < config.spinLoops && Atomics.load(a, i + WRITER) !== RW_LOCK_NOT_LOCKED) {
      if (config.spinDelay > 0) utDelay(randomDelayUnits51(config.spinDelay));
      r++;
    }
    mutex51Enter(a, i, i + FUTEX, config);
    if (sLow(a, i)) {
      mutex51Exit(a, i, i + FUTEX, config);
      return;
    }
    const signal = Atomics.load(a, i + EVENT);
    a[i + WAITERS] = 1;
    mutex51Exit(a, i, i + FUTEX, config);
    sleep(a, i, config, signal, deadline, 'LegacyRWLock.sLock', timeoutMs ?? 0, C_RW_S);
  }
}

function sleep(
  a: Int32Array,
  i: number,
  config: LatchConfig,
  signal: number,
  deadline: number,
  what: string,
  timeoutMs: number,
  cls: number,
): void {
  const counters = config.counters;
  let wait = Infinity;
  if (deadline !== Infinity) {
    wait = deadline - performance.now();
    if (wait <= 0) throw new LockTimeoutError(what, timeoutMs);
  }
  if (counters !== null) {
    counters.add(C_RESERVATIONS, 1);
    counters.add(cls + F_OS_WAITS, 1);
  }
  Atomics.wait(a, i + EVENT, signal, wait);
}

/** Wake every sleeper (os_event_set); called with `waiters` seen set, outside the mutex. */
function signalAll(a: Int32Array, i: number, config: LatchConfig): void {
  Atomics.add(a, i + EVENT, 1);
  Atomics.notify(a, i + EVENT);
  if (config.counters !== null) config.counters.add(C_SIGNALS, 1);
}

/** Release one S lock (`rw_lock_s_unlock`). LockStateError if no S lock is held. */
export function legacyRwSUnlock(a: Int32Array, i: number, config: LatchConfig = defaultLatchConfig): void {
  mutex51Enter(a, i, i + FUTEX, config);
  const left = a[i + READERS]! - 1;
  if (left < 0) {
    mutex51Exit(a, i, i + FUTEX, config);
    throw new LockStateError(`legacy rw-lock at ${i} holds no S lock`);
  }
  a[i + READERS] = left;
  let sg = false;
  if (left === 0 && a[i + WAITERS] !== 0) {
    a[i + WAITERS] = 0;
    sg = true;
  }
  mutex51Exit(a, i, i + FUTEX, config);
  if (sg) signalAll(a, i, config);
}

/** `rw_lock_x_lock_low`, under the mutex. */
function xLow(a: Int32Array, i: number): number {
  const writer = a[i + WRITER];
  if (writer === RW_LOCK_NOT_LOCKED) {
    a[i + WRITER_THREAD] = THREAD_ID;
    if (a[i + READERS] === 0) {
      a[i + WRITER] = RW_LOCK_EX;
      a[i + WRITER_COUNT] = 1;
      return RW_LOCK_EX;
    }
    a[i + WRITER] = RW_LOCK_WAIT_EX;
    return RW_LOCK_WAIT_EX;
  }
  if (writer === RW_LOCK_WAIT_EX && a[i + WRITER_THREAD] === THREAD_ID) {
    if (a[i + READERS] === 0) {
      a[i + WRITER] = RW_LOCK_EX;
      a[i + WRITER_COUNT] = 1;
      return RW_LOCK_EX;
    }
    return RW_LOCK_WAIT_EX;
  }
  if (writer === RW_LOCK_EX && a[i + WRITER_THREAD] === THREAD_ID) {
    a[i + WRITER_COUNT] = a[i + WRITER_COUNT]! + 1;
    return RW_LOCK_EX;
  }
  return RW_LOCK_NOT_LOCKED;
}

/** Give up a WAIT_EX reservation after a timeout (under the mutex); true if sleepers need a signal. */
function abandon(a: Int32Array, i: number): boolean {
  if (a[i + WRITER] === RW_LOCK_WAIT_EX && a[i + WRITER_THREAD] === THREAD_ID) {
    a[i + WRITER] = RW_LOCK_NOT_LOCKED;
    a[i + WRITER_THREAD] = 0;
    if (a[i + WAITERS] !== 0) {
      a[i + WAITERS] = 0;
      return true;
    }
  }
  return false;
}

/**
 * Try the X lock without waiting: free with no readers → EX, or recurse as the owner. A free lock
 * with readers is left alone (no WAIT_EX reservation is made).
 */
export function legacyRwTryXLock(
  a: Int32Array,
  i: number,
  config: LatchConfig = defaultLatchConfig,
): boolean {
  mutex51Enter(a, i, i + FUTEX, config);
  let ok = false;
  const writer = a[i + WRITER];
  if (
    writer === RW_LOCK_NOT_LOCKED
      ? a[i + READERS] === 0
      : writer === RW_LOCK_EX && a[i + WRITER_THREAD] === THREAD_ID
  ) {
    ok = xLow(a, i) === RW_LOCK_EX;
  }
  mutex51Exit(a, i, i + FUTEX, config);
  return ok;
}

/**
 * Exclusive lock, blocking (`rw_lock_x_lock_func` of 5.1), or waiting at most `timeoutMs`
 * (LockTimeoutError, the reservation given back); recursive for the owner. The caller must not
 * hold an S lock on it (the functional layer keeps no per-thread S count to refuse that).
 */
export function legacyRwXLock(
  a: Int32Array,
  i: number,
  config: LatchConfig = defaultLatchConfig,
  timeoutMs?: number,
): void {
  const counters = config.counters;
  const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
  for (;;) {
    mutex51Enter(a, i, i + FUTEX, config);
    let state = xLow(a, i);
    mutex51Exit(a, i, i + FUTEX, config);
    if (state === RW_LOCK_EX) return;
    let r = 0;
    if (state === RW_LOCK_NOT_LOCKED) {
      while (r < config.spinLoops && Atomics.load(a, i + WRITER) !== RW_LOCK_NOT_LOCKED) {
        if (config.spinDelay > 0) utDelay(randomDelayUnits51(config.spinDelay));
        r++;
      }
    } else {
      while (r < config.spinLoops && Atomics.load(a, i + READERS) !== 0) {
        if (config.spinDelay > 0) utDelay(randomDelayUnits51(config.spinDelay));
        r++;
      }
    }
    if (counters !== null) counters.add(C_RW_X + F_SPIN_WAITS, 1);
    mutex51Enter(a, i, i + FUTEX, config);
    state = xLow(a, i);
    if (state === RW_LOCK_EX) {
      mutex51Exit(a, i, i + FUTEX, config);
      return;
    }
    const signal = Atomics.load(a, i + EVENT);
    a[i + WAITERS] = 1;
    if (deadline !== Infinity && deadline - performance.now() <= 0) {
      const sg = abandon(a, i);
      mutex51Exit(a, i, i + FUTEX, config);
      if (sg) signalAll(a, i, config);
      throw new LockTimeoutError('LegacyRWLock.xLock', timeoutMs ?? 0);
    }
    mutex51Exit(a, i, i + FUTEX, config);
    try {
      sleep(a, i, config, signal, deadline, 'LegacyRWLock.xLock', timeoutMs ?? 0, C_RW_X);
    } catch (e) {
      mutex51Enter(a, i, i + FUTEX, config);
      const sg = abandon(a, i);
      mutex51Exit(a, i, i + FUTEX, config);
      if (sg) signalAll(a, i, config);
      throw e;
    }
  }
}

/** Release one level of the exclusive lock. LockStateError unless the caller holds it. */
export function legacyRwXUnlock(a: Int32Array, i: number, config: LatchConfig = defaultLatchConfig): void {
  mutex51Enter(a, i, i + FUTEX, config);
  if (a[i + WRITER] !== RW_LOCK_EX || a[i + WRITER_THREAD] !== THREAD_ID) {
    const writer = a[i + WRITER];
    const owner = a[i + WRITER_THREAD];
    mutex51Exit(a, i, i + FUTEX, config);
    throw new LockStateError(
      writer === RW_LOCK_EX
        ? `LegacyRWLock.xUnlock: X-locked by thread ${owner}, not by the caller (thread ${THREAD_ID})`
        : 'LegacyRWLock.xUnlock: not X-locked',
    );
  }
  let sg = false;
  const depth = a[i + WRITER_COUNT]! - 1;
  a[i + WRITER_COUNT] = depth;
  if (depth === 0) {
    a[i + WRITER] = RW_LOCK_NOT_LOCKED;
    a[i + WRITER_THREAD] = 0;
    if (a[i + WAITERS] !== 0) {
      a[i + WAITERS] = 0;
      sg = true;
    }
  }
  mutex51Exit(a, i, i + FUTEX, config);
  if (sg) signalAll(a, i, config);
}

/** True while the caller holds the X lock (a plain read of the owner fields). */
export function legacyRwIsXOwner(a: Int32Array, i: number): boolean {
  return a[i + WRITER] === RW_LOCK_EX && a[i + WRITER_THREAD] === THREAD_ID;
}

/** Hand an X-locked 5.1 rw-lock to the calling thread (the lock stays held; for a pool's free frames). */
export function legacyRwAdoptX(a: Int32Array, i: number): void {
  a[i + WRITER_THREAD] = THREAD_ID;
}

/** A racy look: no writer and no readers. */
export function legacyRwIsFree(a: Int32Array, i: number): boolean {
  return Atomics.load(a, i + WRITER) === RW_LOCK_NOT_LOCKED && Atomics.load(a, i + READERS) === 0;
}

/**
 * Throw if the fields break an invariant (5.1's `rw_lock_validate` and more).
 * REQUIRES: no thread inside a lock/unlock call.
 */
export function legacyRwCheckValid(a: Int32Array, i: number): void {
  mutexCheckValid(a, i);
  const readers = Atomics.load(a, i + READERS);
  const writer = Atomics.load(a, i + WRITER);
  const count = Atomics.load(a, i + WRITER_COUNT);
  if (Atomics.load(a, i) !== 0) throw new Error('LegacyRWLock: inner mutex held between calls');
  if (Atomics.load(a, i + FUTEX) !== 0)
    throw new Error('LegacyRWLock: inner pthread mutex held between calls');
  if (readers < 0) throw new Error(`LegacyRWLock: reader_count ${readers} < 0`);
  if (writer !== RW_LOCK_NOT_LOCKED && writer !== RW_LOCK_EX && writer !== RW_LOCK_WAIT_EX) {
    throw new Error(`LegacyRWLock: writer ${writer} is not 350, 351 or 353`);
  }
  if (writer === RW_LOCK_EX && (readers !== 0 || count < 1)) {
    throw new Error(`LegacyRWLock: EX with reader_count ${readers}, writer_count ${count}`);
  }
  if (writer === RW_LOCK_NOT_LOCKED && count !== 0)
    throw new Error(`LegacyRWLock: free with writer_count ${count}`);
}
