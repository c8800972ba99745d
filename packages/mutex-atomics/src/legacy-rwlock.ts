import {
  DEFAULT_SPIN_LOOPS_51,
  DEFAULT_SPIN_WAIT_DELAY_51,
  defaultLatchConfig,
  type LatchConfig,
  type LatchOptions,
  resolveLatchConfig,
} from './config.js';
import { LockStateError } from './errors.js';
import {
  type LockDescriptor,
  makeDescriptor,
  readDescriptor,
  setAttach,
  takeAttach,
} from './internal/descriptor.js';
import { type LockRegion, resolveRegion } from './internal/region.js';
import {
  LEGACY_RWLOCK_SLOTS,
  legacyRwCheckValid,
  legacyRwInit,
  legacyRwSLock,
  legacyRwSUnlock,
  legacyRwXLock,
  legacyRwXUnlock,
} from './legacy-rwlock-fn.js';
import { THREAD_ID } from './thread-id.js';

export { LEGACY_RWLOCK_SLOTS, RW_LOCK_EX, RW_LOCK_NOT_LOCKED, RW_LOCK_WAIT_EX } from './legacy-rwlock-fn.js';

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
    if (attach === null) legacyRwInit(this.int32, this.index);
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

  /** Shared lock, blocking (`rw_lock_s_lock` → `rw_lock_s_lock_spin`). */
  sLock(timeoutMs?: number): void {
    legacyRwSLock(this.int32, this.index, this.#config, timeoutMs);
    this.#sHeld++;
  }

  /** Release one shared lock taken through this object. */
  sUnlock(): void {
    if (this.#sHeld === 0) {
      throw new LockStateError(
        `LegacyRWLock.sUnlock: thread ${THREAD_ID} holds no S lock taken through this object`,
      );
    }
    legacyRwSUnlock(this.int32, this.index, this.#config);
    this.#sHeld--;
  }

  /** Exclusive lock, blocking (`rw_lock_x_lock_func` of 5.1); recursive for the owner. */
  xLock(timeoutMs?: number): void {
    if (this.#sHeld > 0) {
      throw new LockStateError(
        `LegacyRWLock.xLock: thread ${THREAD_ID} holds ${this.#sHeld} S lock(s); S→X upgrade is refused`,
      );
    }
    legacyRwXLock(this.int32, this.index, this.#config, timeoutMs);
  }

  /** Release one level of the exclusive lock. */
  xUnlock(): void {
    legacyRwXUnlock(this.int32, this.index, this.#config);
  }

  /**
   * Throw if the fields break an invariant (5.1's `rw_lock_validate` and more).
   * REQUIRES: no thread inside a lock/unlock call.
   */
  checkValid(): void {
    legacyRwCheckValid(this.int32, this.index);
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
