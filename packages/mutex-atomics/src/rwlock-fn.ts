import { defaultLatchConfig, type LatchConfig, randomDelayUnits, utDelay } from './config.js';
import {
  C_RESERVATIONS,
  C_RW_S,
  C_RW_X,
  C_SIGNALS,
  F_OS_WAITS,
  F_SPIN_ROUNDS,
  F_SPIN_WAITS,
} from './counters.js';
import { LockStateError } from './errors.js';
import { checkRegion } from './internal/region.js';
import { waitAsync } from './internal/wait-async.js';
import { THREAD_ID } from './thread-id.js';

/**
 * `X_LOCK_DECR` (InnoDB Plugin 1.0.3+, 5.5, 5.6, MariaDB 10.0): the initial lock_word, what an X
 * lock subtracts, and the most concurrent S holders minus one.
 */
export const X_LOCK_DECR = 0x00100000;

/**
 * Int32 slots one rw-lock occupies, starting at its `index`:
 *
 * | slot | name | meaning |
 * |---|---|---|
 * | +0 | lock_word | see below |
 * | +1 | waiters | 1 when some thread may sleep on `event` |
 * | +2 | writer_thread | X owner's thread id; trusted only while `recursive` is 1 |
 * | +3 | recursive | 1 while an X holder (or wait-ex writer) owns the lock and may re-enter |
 * | +4 | event | signal count of the S/X waiters' event (bumped by the X unlock that frees the lock) |
 * | +5 | wait_ex_event | signal count of the reserving writer's event (bumped by the last S unlock) |
 *
 * lock_word (InnoDB's `lock_word`, 5.5 recursion encoding):
 * - `X_LOCK_DECR`: free
 * - `(0, X_LOCK_DECR)`: `X_LOCK_DECR − w` readers, no writer
 * - `0`: X-locked once
 * - `(−X_LOCK_DECR, 0)`: wait-ex: a writer reserved the lock and waits for `−w` readers to leave
 * - `≤ −X_LOCK_DECR`: X-locked recursively, depth `−w / X_LOCK_DECR + 1`
 */
export const RWLOCK_SLOTS = 6;
const WAITERS = 1;
const WRITER = 2;
const RECURSIVE = 3;
const EVENT = 4;
const WAIT_EX_EVENT = 5;

/** Deepest recursive X lock the 32-bit lock_word can encode. */
export const RW_MAX_X_RECURSION = 2048;
const MIN_WORD = -(RW_MAX_X_RECURSION - 1) * X_LOCK_DECR;

/** Make slots [index, index + RWLOCK_SLOTS) a free rw-lock (lock_word = X_LOCK_DECR). */
export function rwInit(int32: Int32Array, index: number): void {
  checkRegion('rwInit', int32, index, RWLOCK_SLOTS);
  for (let s = 1; s < RWLOCK_SLOTS; s++) Atomics.store(int32, index + s, 0);
  Atomics.store(int32, index, X_LOCK_DECR);
}

/**
 * `rw_lock_lock_word_decr`: CAS w → w − amount while w > 0. The first expected value is a plain
 * read: every `Atomics` call is a builtin call on Node 20, and a stale guess only makes the CAS
 * fail (and return the current word) or sends the caller to its spin loop, which reads atomically.
 */
function decr(int32: Int32Array, index: number, amount: number): boolean {
  let w = int32[index]!;
  while (w > 0) {
    const seen = Atomics.compareExchange(int32, index, w, w - amount);
    if (seen === w) return true;
    w = seen;
  }
  return false;
}

/** Wake S/X sleepers after the lock became free (x-unlock, or an abandoned wait-ex). */
function signalEvent(int32: Int32Array, index: number, config: LatchConfig): void {
  if (Atomics.load(int32, index + WAITERS) !== 0) {
    Atomics.store(int32, index + WAITERS, 0);
    Atomics.add(int32, index + EVENT, 1);
    Atomics.notify(int32, index + EVENT);
    if (config.counters !== null) config.counters.add(C_SIGNALS, 1);
  }
}

/** True while the caller holds the lock in X mode (recursive flag set and writer is the caller). */
export function rwIsXOwner(int32: Int32Array, index: number): boolean {
  // Plain reads are enough: only the owner itself ever writes its own id here, and a thread
  // always sees its own writes in order, so a stale value can never falsely equal THREAD_ID.
  return int32[index + RECURSIVE] !== 0 && int32[index + WRITER] === THREAD_ID;
}

// ---------------------------------------------------------------- S

/** Try an S lock without waiting (`rw_lock_s_lock_nowait`). */
export function rwTrySLock(int32: Int32Array, index: number): boolean {
  return decr(int32, index, 1);
}

/**
 * S lock, blocking (`rw_lock_s_lock`): decrement lock_word by 1 while positive; otherwise spin,
 * then sleep. Throws LockStateError if the caller holds the X lock (that would deadlock).
 */
export function rwSLock(int32: Int32Array, index: number, config: LatchConfig = defaultLatchConfig): void {
  if (!decr(int32, index, 1)) sSpin(int32, index, config, Infinity);
}

/** S lock waiting at most `timeoutMs`; false on timeout. */
export function rwSLockTimeout(
  int32: Int32Array,
  index: number,
  timeoutMs: number,
  config: LatchConfig = defaultLatchConfig,
): boolean {
  if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be >= 0, got ${timeoutMs}`);
  return decr(int32, index, 1) || sSpin(int32, index, config, performance.now() + timeoutMs);
}

/** `rw_lock_s_lock_spin`. */
function sSpin(int32: Int32Array, index: number, config: LatchConfig, deadline: number): boolean {
  if (rwIsXOwner(int32, index)) {
    throw new LockStateError(
      `rwSLock: thread ${THREAD_ID} holds the X lock at index ${index}; an S request would deadlock`,
    );
  }
  const counters = config.counters;
  const rounds = config.spinLoops;
  const delay = config.spinDelay;
  if (counters !== null) counters.add(C_RW_S + F_SPIN_WAITS, 1);
  for (;;) {
    let i = 0;
    for (;;) {
      while (i < rounds && Atomics.load(int32, index) <= 0) {
        if (delay > 0) utDelay(randomDelayUnits(delay));
        i++;
      }
      if (decr(int32, index, 1)) {
        if (counters !== null && i > 0) counters.add(C_RW_S + F_SPIN_ROUNDS, i);
        return true;
      }
      if (i >= rounds) break;
    }
    if (counters !== null) {
      counters.add(C_RW_S + F_SPIN_ROUNDS, i);
      counters.add(C_RESERVATIONS, 1);
    }
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.store(int32, index + WAITERS, 1); // set before the final retry so x-unlock signals
    if (decr(int32, index, 1)) return true;
    let wait = Infinity;
    if (deadline !== Infinity) {
      wait = deadline - performance.now();
      if (wait <= 0) return false;
    }
    if (counters !== null) counters.add(C_RW_S + F_OS_WAITS, 1);
    Atomics.wait(int32, index + EVENT, signal, wait);
  }
}

/**
 * Release an S lock: add 1 to lock_word; if that makes it 0, a reserving writer was waiting for
 * the last reader, so wake it. Throws LockStateError if the lock holds no S lock.
 */
export function rwSUnlock(int32: Int32Array, index: number): void {
  // A CAS loop rather than a blind add, so an unlock with no S lock held is refused before it can
  // corrupt lock_word (a stray +1 on an X-locked word would let a reader in beside the writer).
  // The first guess is a plain read: this thread's own S lock is in it (its own write), so a
  // holder never sees a word without readers, and the CAS checks the rest.
  let w = int32[index]!;
  for (;;) {
    if (!((w > 0 && w < X_LOCK_DECR) || (w < 0 && w > -X_LOCK_DECR))) {
      throw new LockStateError(`rwSUnlock: rw-lock at index ${index} holds no S lock (lock_word ${w})`);
    }
    const seen = Atomics.compareExchange(int32, index, w, w + 1);
    if (seen === w) break;
    w = seen;
  }
  if (w === -1) {
    Atomics.add(int32, index + WAIT_EX_EVENT, 1);
    Atomics.notify(int32, index + WAIT_EX_EVENT);
  }
}

// ---------------------------------------------------------------- X

/** Try an X lock without waiting (`rw_lock_x_lock_func_nowait`): free → 0, or recurse as owner. */
export function rwTryXLock(int32: Int32Array, index: number): boolean {
  if (Atomics.compareExchange(int32, index, X_LOCK_DECR, 0) === X_LOCK_DECR) {
    int32[index + WRITER] = THREAD_ID;
    int32[index + RECURSIVE] = 1;
    return true;
  }
  if (rwIsXOwner(int32, index)) {
    recurse(int32, index);
    return true;
  }
  return false;
}

function recurse(int32: Int32Array, index: number): void {
  const w = Atomics.load(int32, index);
  if (w <= MIN_WORD) {
    throw new RangeError(`rwXLock: recursion depth at index ${index} would exceed ${RW_MAX_X_RECURSION}`);
  }
  Atomics.sub(int32, index, X_LOCK_DECR);
}

/**
 * `rw_lock_x_lock_low`: reserve with decr(X_LOCK_DECR), then wait for readers to drain
 * (wait-ex); or re-enter as the recursive owner. Returns 1 acquired, 0 not acquired, −1 reserved
 * but the deadline passed while readers drained (the reservation is undone).
 */
function xLockLow(int32: Int32Array, index: number, config: LatchConfig, deadline: number): number {
  let w = Atomics.load(int32, index);
  while (w > 0) {
    const seen = Atomics.compareExchange(int32, index, w, w - X_LOCK_DECR);
    if (seen === w) {
      // InnoDB writes the writer id with a CAS (as a barrier) before the recursion flag; here the
      // next seq-cst operation on lock_word publishes these plain writes.
      int32[index + WRITER] = THREAD_ID;
      int32[index + RECURSIVE] = 1;
      if (w < X_LOCK_DECR && !xLockWait(int32, index, config, deadline)) {
        int32[index + RECURSIVE] = 0;
        int32[index + WRITER] = 0;
        // give the reservation back; readers it held off may be asleep on the event
        Atomics.add(int32, index, X_LOCK_DECR);
        signalEvent(int32, index, config);
        return -1;
      }
      return 1;
    }
    w = seen;
  }
  if (rwIsXOwner(int32, index)) {
    recurse(int32, index);
    return 1;
  }
  return 0;
}

/** `rw_lock_x_lock_wait`: the reserving writer waits until lock_word reaches 0. */
function xLockWait(int32: Int32Array, index: number, config: LatchConfig, deadline: number): boolean {
  const counters = config.counters;
  const rounds = config.spinLoops;
  const delay = config.spinDelay;
  let i = 0;
  let spun = 0;
  while (Atomics.load(int32, index) < 0) {
    if (i < rounds) {
      if (delay > 0) utDelay(randomDelayUnits(delay));
      i++;
      spun++;
      continue;
    }
    const signal = Atomics.load(int32, index + WAIT_EX_EVENT);
    if (counters !== null) counters.add(C_RESERVATIONS, 1);
    if (Atomics.load(int32, index) < 0) {
      let wait = Infinity;
      if (deadline !== Infinity) {
        wait = deadline - performance.now();
        if (wait <= 0) break;
      }
      if (counters !== null) counters.add(C_RW_X + F_OS_WAITS, 1);
      Atomics.wait(int32, index + WAIT_EX_EVENT, signal, wait);
    }
    i = 0;
  }
  if (counters !== null && spun > 0) counters.add(C_RW_X + F_SPIN_ROUNDS, spun);
  return Atomics.load(int32, index) === 0;
}

/**
 * X lock, blocking (`rw_lock_x_lock_func`). A writer that finds only readers reserves the lock
 * (new readers are held off) and waits for them to leave, so writers are not starved. The owner
 * may re-enter (recursive X). An S holder asking for X would wait for itself forever: the
 * functional layer keeps no per-thread S bookkeeping, so that S→X upgrade check lives in `RWLock`.
 */
export function rwXLock(int32: Int32Array, index: number, config: LatchConfig = defaultLatchConfig): void {
  if (Atomics.compareExchange(int32, index, X_LOCK_DECR, 0) === X_LOCK_DECR) {
    int32[index + WRITER] = THREAD_ID;
    int32[index + RECURSIVE] = 1;
    return;
  }
  if (xLockLow(int32, index, config, Infinity) !== 1) xSpin(int32, index, config, Infinity);
}

/** X lock waiting at most `timeoutMs`; false on timeout (nothing held, no reservation left). */
export function rwXLockTimeout(
  int32: Int32Array,
  index: number,
  timeoutMs: number,
  config: LatchConfig = defaultLatchConfig,
): boolean {
  if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be >= 0, got ${timeoutMs}`);
  const deadline = performance.now() + timeoutMs;
  const r = xLockLow(int32, index, config, deadline);
  if (r === 1) return true;
  if (r === -1) return false;
  return xSpin(int32, index, config, deadline);
}

function xSpin(int32: Int32Array, index: number, config: LatchConfig, deadline: number): boolean {
  const counters = config.counters;
  const rounds = config.spinLoops;
  const delay = config.spinDelay;
  if (counters !== null) counters.add(C_RW_X + F_SPIN_WAITS, 1);
  let i = 0;
  for (;;) {
    // spin while the lock is held (lock_word <= 0), retrying as soon as it looks free
    while (i < rounds && Atomics.load(int32, index) <= 0) {
      if (delay > 0) utDelay(randomDelayUnits(delay));
      i++;
    }
    if (i < rounds) {
      const r = xLockLow(int32, index, config, deadline);
      if (r === 1) {
        if (counters !== null && i > 0) counters.add(C_RW_X + F_SPIN_ROUNDS, i);
        return true;
      }
      if (r === -1) return false;
      continue;
    }
    if (counters !== null) {
      counters.add(C_RW_X + F_SPIN_ROUNDS, i);
      counters.add(C_RESERVATIONS, 1);
    }
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.store(int32, index + WAITERS, 1);
    const r = xLockLow(int32, index, config, deadline);
    if (r === 1) return true;
    if (r === -1) return false;
    let wait = Infinity;
    if (deadline !== Infinity) {
      wait = deadline - performance.now();
      if (wait <= 0) return false;
    }
    if (counters !== null) counters.add(C_RW_X + F_OS_WAITS, 1);
    Atomics.wait(int32, index + EVENT, signal, wait);
    i = 0;
  }
}

/**
 * Release one level of X lock (`rw_lock_x_unlock`): the last level clears the recursion flag,
 * then lock_word += X_LOCK_DECR; if the lock became free and someone waits, wake them.
 * Throws LockStateError if the lock is not X-locked or the caller is not the owner.
 */
export function rwXUnlock(int32: Int32Array, index: number, config: LatchConfig = defaultLatchConfig): void {
  if (!rwIsXOwner(int32, index)) throw notXOwner(int32, index);
  const w = Atomics.load(int32, index);
  if (w === 0) {
    int32[index + RECURSIVE] = 0; // cleared before the lock can be re-granted
    int32[index + WRITER] = 0;
  } else if (w > -X_LOCK_DECR) {
    throw notXOwner(int32, index);
  }
  if (Atomics.add(int32, index, X_LOCK_DECR) === 0) signalEvent(int32, index, config);
}

function notXOwner(int32: Int32Array, index: number): LockStateError {
  const w = Atomics.load(int32, index);
  if (!(w === 0 || w <= -X_LOCK_DECR)) {
    return new LockStateError(`rwXUnlock: rw-lock at index ${index} is not X-locked (lock_word ${w})`);
  }
  return new LockStateError(
    `rwXUnlock: rw-lock at index ${index} is X-locked by thread ${Atomics.load(int32, index + WRITER)}, not by the caller (thread ${THREAD_ID})`,
  );
}

/**
 * Check the slots' invariants and throw an Error describing the first one broken.
 * REQUIRES: a quiescent moment (no thread inside a lock or unlock call on this rw-lock).
 */
export function rwCheckValid(int32: Int32Array, index: number): void {
  const w = Atomics.load(int32, index);
  const recursive = Atomics.load(int32, index + RECURSIVE);
  const writer = Atomics.load(int32, index + WRITER);
  const at = `rw-lock at ${index}`;
  if (w > X_LOCK_DECR || w < MIN_WORD) throw new Error(`${at}: lock_word ${w} out of range`);
  if (w > -X_LOCK_DECR && w < 0)
    throw new Error(`${at}: lock_word ${w} is wait-ex with nobody inside a call`);
  if (w <= -X_LOCK_DECR && w % X_LOCK_DECR !== 0) {
    throw new Error(`${at}: recursive lock_word ${w} is not a multiple of X_LOCK_DECR`);
  }
  if (w > 0 && recursive !== 0) throw new Error(`${at}: not X-locked but the recursive flag is set`);
  if (w <= 0 && (recursive !== 1 || writer <= 0)) {
    throw new Error(`${at}: X-locked but recursive=${recursive}, writer_thread=${writer}`);
  }
}

/** A racy snapshot of lock_word, for monitors and tests. */
export function rwLockWord(int32: Int32Array, index: number): number {
  return Atomics.load(int32, index);
}

// ---------------------------------------------------------------- async (event-loop friendly)

/** S lock without blocking the event loop (`Atomics.waitAsync`); false on timeout. */
export async function rwSLockAsync(
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
    if (decr(int32, index, 1)) return true;
    if (rwIsXOwner(int32, index)) {
      throw new LockStateError(
        `rwSLockAsync: thread ${THREAD_ID} holds the X lock at index ${index}; an S request would never be granted`,
      );
    }
    if (first && counters !== null) counters.add(C_RW_S + F_SPIN_WAITS, 1);
    first = false;
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.store(int32, index + WAITERS, 1);
    if (decr(int32, index, 1)) return true;
    const wait = deadline - performance.now();
    if (wait <= 0) return false;
    if (counters !== null) counters.add(C_RW_S + F_OS_WAITS, 1);
    const pending = waitAsync(int32, index + EVENT, signal, wait);
    if (pending !== null) await pending;
  }
}

/**
 * X lock without blocking the event loop: reserve, then await the readers' drain (wait-ex) on
 * `Atomics.waitAsync`; the owning thread re-enters recursively as with {@link rwXLock}. False on
 * timeout, with any reservation given back.
 */
export async function rwXLockAsync(
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
    if (decr(int32, index, X_LOCK_DECR)) {
      int32[index + WRITER] = THREAD_ID;
      int32[index + RECURSIVE] = 1;
      for (;;) {
        const signal = Atomics.load(int32, index + WAIT_EX_EVENT);
        if (Atomics.load(int32, index) === 0) return true;
        const wait = deadline - performance.now();
        if (wait <= 0) {
          int32[index + RECURSIVE] = 0;
          int32[index + WRITER] = 0;
          Atomics.add(int32, index, X_LOCK_DECR);
          signalEvent(int32, index, config);
          return false;
        }
        if (counters !== null) counters.add(C_RW_X + F_OS_WAITS, 1);
        const pending = waitAsync(int32, index + WAIT_EX_EVENT, signal, wait);
        if (pending !== null) await pending;
      }
    }
    if (rwIsXOwner(int32, index)) {
      recurse(int32, index);
      return true;
    }
    if (first && counters !== null) counters.add(C_RW_X + F_SPIN_WAITS, 1);
    first = false;
    const signal = Atomics.load(int32, index + EVENT);
    Atomics.store(int32, index + WAITERS, 1);
    if (Atomics.load(int32, index) > 0) continue;
    const wait = deadline - performance.now();
    if (wait <= 0) return false;
    if (counters !== null) counters.add(C_RW_X + F_OS_WAITS, 1);
    const pending = waitAsync(int32, index + EVENT, signal, wait);
    if (pending !== null) await pending;
  }
}
