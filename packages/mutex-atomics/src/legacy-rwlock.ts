import {
  DEFAULT_SPIN_LOOPS_51,
  DEFAULT_SPIN_WAIT_DELAY_51,
  defaultLatchConfig,
  type LatchConfig,
  type LatchOptions,
  randomDelayUnits51,
  resolveLatchConfig,
  utDelay,
} from './config.js';
import { C_RESERVATIONS, C_RW_S, C_RW_X, C_SIGNALS, F_OS_WAITS, F_SPIN_WAITS } from './counters.js';
import { LockStateError, LockTimeoutError } from './errors.js';
import {
  type LockDescriptor,
  makeDescriptor,
  readDescriptor,
  setAttach,
  takeAttach,
} from './internal/descriptor.js';
import { type LockRegion, resolveRegion } from './internal/region.js';
import { mutex51Enter, mutex51Exit, mutex51Init } from './internal/mutex51.js';
import { MUTEX_SLOTS, mutexCheckValid } from './mutex-fn.js';
import { THREAD_ID } from './thread-id.js';

/** `writer` values of the 5.1 rw-lock. */
export const RW_LOCK_NOT_LOCKED = 350;
export const RW_LOCK_EX = 351;
export const RW_LOCK_WAIT_EX = 353;

/**
 * Int32 slots of a {@link LegacyRWLock}: an embedded 5.1 mutex guarding every other field.
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
 */
export const LEGACY_RWLOCK_SLOTS = 11;
const READERS = 4;
const WRITER = 5;
const WRITER_THREAD = 6;
const WRITER_COUNT = 7;
const WAITERS = 8;
const EVENT = 9;
const FUTEX = 10;

/**
 * The pre-Google-patch InnoDB rw-lock (built-in InnoDB of MySQL 5.1, `sync/sync0rw.c`): every
 * lock, unlock and re-check enters the embedded mutex, which is 5.1's on Linux: a
 * `pthread_mutex_trylock` test-and-set (`os_fast_mutex_trylock`) under InnoDB's own spin-then-wait
 * loop. Spin defaults are 5.1's, `innodb_sync_spin_loops` 20 and `innodb_spin_wait_delay` 5
 * (`srv/srv0srv.c`), with 5.1's inclusive random delay 0..5 (`ut_rnd_interval`); options given to
 * the constructor override them, thread defaults from `configureLatches` do not. Kept as the
 * baseline the atomic {@link RWLock} is measured against; its inner mutex's contention shows in
 * the mutex counters, its own spins and OS waits in the RW-shared / RW-excl lines (no rounds, as
 * 5.1 printed them).
 */
export class LegacyRWLock {
  /** The Int32Array holding the slots. */
  readonly int32: Int32Array;
  /** Index of the first slot. */
  readonly index: number;
  readonly #config: LatchConfig;
  #sHeld = 0;

  constructor(options: LatchOptions & { region?: LockRegion } = {}) {
    const attach = takeAttach();
    const region = resolveRegion('LegacyRWLock', LEGACY_RWLOCK_SLOTS, options.region);
    this.int32 = region.int32;
    this.index = region.index;
    this.#config =
      attach ??
      resolveLatchConfig(options, {
        spinLoops: DEFAULT_SPIN_LOOPS_51,
        spinDelay: DEFAULT_SPIN_WAIT_DELAY_51,
        counters: defaultLatchConfig.counters,
      });
    if (attach === null) {
      const a = this.int32;
      const i = this.index;
      mutex51Init(a, i, i + FUTEX);
      for (let s = MUTEX_SLOTS; s < FUTEX; s++) Atomics.store(a, i + s, 0);
      Atomics.store(a, i + WRITER, RW_LOCK_NOT_LOCKED);
    }
  }

  /** The spin configuration in force (`spinLoops`, `spinDelay`, `counters`). */
  get latchConfig(): Readonly<LatchConfig> {
    return this.#config;
  }

  /** Attach to a legacy rw-lock created in another thread. */
  static fromDescriptor(descriptor: LockDescriptor): LegacyRWLock {
    const d = readDescriptor('LegacyRWLock.fromDescriptor', 'LegacyRWLock', LEGACY_RWLOCK_SLOTS, descriptor);
    setAttach(d.config);
    return new LegacyRWLock({ region: { int32: d.int32, index: d.index } });
  }

  /** A plain object to `postMessage` to another thread. */
  descriptor(): LockDescriptor {
    return makeDescriptor('LegacyRWLock', this.int32, this.index, this.#config);
  }

  /** `rw_lock_s_lock_low`, under the mutex. */
  #sLow(): boolean {
    const a = this.int32;
    const i = this.index;
    if (a[i + WRITER] !== RW_LOCK_NOT_LOCKED) return false;
    a[i + READERS] = a[i + READERS]! + 1;
    return true;
  }

  /** Shared lock, blocking (`rw_lock_s_lock` → `rw_lock_s_lock_spin`). */
  sLock(timeoutMs?: number): void {
    const a = this.int32;
    const i = this.index;
    const cfg = this.#config;
    if (a[i + WRITER] === RW_LOCK_EX && a[i + WRITER_THREAD] === THREAD_ID) {
      throw new LockStateError(
        `LegacyRWLock.sLock: thread ${THREAD_ID} holds the X lock; an S request would deadlock`,
      );
    }
    mutex51Enter(a, i, i + FUTEX, cfg);
    const ok = this.#sLow();
    mutex51Exit(a, i, i + FUTEX, cfg);
    if (!ok) this.#sSpin(timeoutMs === undefined ? Infinity : performance.now() + timeoutMs, timeoutMs ?? 0);
    this.#sHeld++;
  }

  #sSpin(deadline: number, timeoutMs: number): void {
    const a = this.int32;
    const i = this.index;
    const cfg = this.#config;
    const counters = cfg.counters;
    for (;;) {
      if (counters !== null) counters.add(C_RW_S + F_SPIN_WAITS, 1);
      let r = 0;
      while (r < cfg.spinLoops && Atomics.load(a, i + WRITER) !== RW_LOCK_NOT_LOCKED) {
        if (cfg.spinDelay > 0) utDelay(randomDelayUnits51(cfg.spinDelay));
        r++;
      }
      mutex51Enter(a, i, i + FUTEX, cfg);
      if (this.#sLow()) {
        mutex51Exit(a, i, i + FUTEX, cfg);
        return;
      }
      const signal = Atomics.load(a, i + EVENT);
      a[i + WAITERS] = 1;
      mutex51Exit(a, i, i + FUTEX, cfg);
      this.#sleep(signal, deadline, 'LegacyRWLock.sLock', timeoutMs, C_RW_S);
    }
  }

  #sleep(signal: number, deadline: number, what: string, timeoutMs: number, cls: number): void {
    const counters = this.#config.counters;
    let wait = Infinity;
    if (deadline !== Infinity) {
      wait = deadline - performance.now();
      if (wait <= 0) throw new LockTimeoutError(what, timeoutMs);
    }
    if (counters !== null) {
      counters.add(C_RESERVATIONS, 1);
      counters.add(cls + F_OS_WAITS, 1);
    }
    Atomics.wait(this.int32, this.index + EVENT, signal, wait);
  }

  /** Wake every sleeper (os_event_set); called with `waiters` seen set, outside the mutex. */
  #signal(): void {
    Atomics.add(this.int32, this.index + EVENT, 1);
    Atomics.notify(this.int32, this.index + EVENT);
    if (this.#config.counters !== null) this.#config.counters.add(C_SIGNALS, 1);
  }

  /** Release one shared lock taken through this object. */
  sUnlock(): void {
    if (this.#sHeld === 0) {
      throw new LockStateError(
        `LegacyRWLock.sUnlock: thread ${THREAD_ID} holds no S lock taken through this object`,
      );
    }
    const a = this.int32;
    const i = this.index;
    mutex51Enter(a, i, i + FUTEX, this.#config);
    const left = a[i + READERS]! - 1;
    a[i + READERS] = left;
    let sg = false;
    if (left === 0 && a[i + WAITERS] !== 0) {
      a[i + WAITERS] = 0;
      sg = true;
    }
    mutex51Exit(a, i, i + FUTEX, this.#config);
    this.#sHeld--;
    if (sg) this.#signal();
  }

  /** `rw_lock_x_lock_low`, under the mutex. */
  #xLow(): number {
    const a = this.int32;
    const i = this.index;
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

  /** Give up a WAIT_EX reservation after a timeout (under the mutex). */
  #abandon(): boolean {
    const a = this.int32;
    const i = this.index;
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

  /** Exclusive lock, blocking (`rw_lock_x_lock_func` of 5.1); recursive for the owner. */
  xLock(timeoutMs?: number): void {
    if (this.#sHeld > 0) {
      throw new LockStateError(
        `LegacyRWLock.xLock: thread ${THREAD_ID} holds ${this.#sHeld} S lock(s); S→X upgrade is refused`,
      );
    }
    const a = this.int32;
    const i = this.index;
    const cfg = this.#config;
    const counters = cfg.counters;
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    for (;;) {
      mutex51Enter(a, i, i + FUTEX, cfg);
      let state = this.#xLow();
      mutex51Exit(a, i, i + FUTEX, cfg);
      if (state === RW_LOCK_EX) return;
      let r = 0;
      if (state === RW_LOCK_NOT_LOCKED) {
        while (r < cfg.spinLoops && Atomics.load(a, i + WRITER) !== RW_LOCK_NOT_LOCKED) {
          if (cfg.spinDelay > 0) utDelay(randomDelayUnits51(cfg.spinDelay));
          r++;
        }
      } else {
        while (r < cfg.spinLoops && Atomics.load(a, i + READERS) !== 0) {
          if (cfg.spinDelay > 0) utDelay(randomDelayUnits51(cfg.spinDelay));
          r++;
        }
      }
      if (counters !== null) counters.add(C_RW_X + F_SPIN_WAITS, 1);
      mutex51Enter(a, i, i + FUTEX, cfg);
      state = this.#xLow();
      if (state === RW_LOCK_EX) {
        mutex51Exit(a, i, i + FUTEX, cfg);
        return;
      }
      const signal = Atomics.load(a, i + EVENT);
      a[i + WAITERS] = 1;
      if (deadline !== Infinity && deadline - performance.now() <= 0) {
        const sg = this.#abandon();
        mutex51Exit(a, i, i + FUTEX, cfg);
        if (sg) this.#signal();
        throw new LockTimeoutError('LegacyRWLock.xLock', timeoutMs ?? 0);
      }
      mutex51Exit(a, i, i + FUTEX, cfg);
      try {
        this.#sleep(signal, deadline, 'LegacyRWLock.xLock', timeoutMs ?? 0, C_RW_X);
      } catch (e) {
        mutex51Enter(a, i, i + FUTEX, cfg);
        const sg = this.#abandon();
        mutex51Exit(a, i, i + FUTEX, cfg);
        if (sg) this.#signal();
        throw e;
      }
    }
  }

  /** Release one level of the exclusive lock. */
  xUnlock(): void {
    const a = this.int32;
    const i = this.index;
    const cfg = this.#config;
    mutex51Enter(a, i, i + FUTEX, cfg);
    if (a[i + WRITER] !== RW_LOCK_EX || a[i + WRITER_THREAD] !== THREAD_ID) {
      const writer = a[i + WRITER];
      const owner = a[i + WRITER_THREAD];
      mutex51Exit(a, i, i + FUTEX, cfg);
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
    mutex51Exit(a, i, i + FUTEX, cfg);
    if (sg) this.#signal();
  }

  /**
   * Throw if the fields break an invariant (5.1's `rw_lock_validate` and more).
   * REQUIRES: no thread inside a lock/unlock call.
   */
  checkValid(): void {
    const a = this.int32;
    const i = this.index;
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

  /** Run `fn` holding an S lock; always releases. */
  withS<T>(fn: () => T): T {
    this.sLock();
    try {
      return fn();
    } finally {
      this.sUnlock();
    }
  }

  /** Run `fn` holding the X lock; always releases. */
  withX<T>(fn: () => T): T {
    this.xLock();
    try {
      return fn();
    } finally {
      this.xUnlock();
    }
  }
}
