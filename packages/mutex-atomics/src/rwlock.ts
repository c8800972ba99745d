import { type LatchConfig, type LatchOptions, resolveLatchConfig } from './config.js';
import { LockStateError, LockTimeoutError } from './errors.js';
import {
  type LockDescriptor,
  makeDescriptor,
  readDescriptor,
  setAttach,
  takeAttach,
} from './internal/descriptor.js';
import { type LockRegion, resolveRegion } from './internal/region.js';
import {
  RWLOCK_SLOTS,
  rwCheckValid,
  rwInit,
  rwIsXOwner,
  rwLockWord,
  rwSLock,
  rwSLockAsync,
  rwSLockTimeout,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXLockAsync,
  rwXLockTimeout,
  rwXUnlock,
  X_LOCK_DECR,
} from './rwlock-fn.js';
import { THREAD_ID } from './thread-id.js';

/** Options of {@link RWLock}. */
export interface RWLockOptions extends LatchOptions {
  /** Put the lock in a caller's region (initialised by the constructor). Default: its own buffer. */
  region?: LockRegion;
}

/** What {@link RWLock.state} reports. */
export interface RWLockState {
  /** The raw lock_word. */
  lockWord: number;
  /** S holders (including those a reserving writer waits for). */
  readers: number;
  /** X recursion depth (0: not X-locked). */
  xDepth: number;
  /** A writer has reserved the lock and waits for readers to leave. */
  waitEx: boolean;
}

/**
 * InnoDB's atomic rw-lock (Plugin 1.0.3+ / 5.5 `rw_lock_t`): one `lock_word` that S locks
 * decrement by 1 and X locks by `X_LOCK_DECR`, compare-and-swapped only while positive. A writer
 * that finds readers reserves the lock (wait-ex) so no new reader enters, then waits for the
 * others to drain. X is recursive for the owning thread. This object also counts the S locks it
 * granted to its thread, so an S holder asking for X (an upgrade, which would wait for itself
 * forever) is refused with LockStateError.
 */
export class RWLock {
  /** The Int32Array holding the slots. */
  readonly int32: Int32Array;
  /** Index of the first slot. */
  readonly index: number;
  readonly #config: LatchConfig;
  #sHeld = 0;

  constructor(options: RWLockOptions = {}) {
    const attach = takeAttach();
    const region = resolveRegion('RWLock', RWLOCK_SLOTS, options.region);
    this.int32 = region.int32;
    this.index = region.index;
    this.#config = attach ?? resolveLatchConfig(options);
    if (attach === null) rwInit(this.int32, this.index);
  }

  /** Attach to an rw-lock created in another thread (its slots are not re-initialised). */
  static fromDescriptor(descriptor: LockDescriptor): RWLock {
    const d = readDescriptor('RWLock.fromDescriptor', 'RWLock', RWLOCK_SLOTS, descriptor);
    setAttach(d.config);
    return new RWLock({ region: { int32: d.int32, index: d.index } });
  }

  /** A plain object to `postMessage` to another thread. */
  descriptor(): LockDescriptor {
    return makeDescriptor('RWLock', this.int32, this.index, this.#config);
  }

  /** Shared lock, blocking; with `timeoutMs`, LockTimeoutError when not granted in time. */
  sLock(timeoutMs?: number): void {
    if (timeoutMs === undefined) {
      rwSLock(this.int32, this.index, this.#config);
    } else if (!rwSLockTimeout(this.int32, this.index, timeoutMs, this.#config)) {
      throw new LockTimeoutError('RWLock.sLock', timeoutMs);
    }
    this.#sHeld++;
  }

  /** Shared lock if available now. */
  trySLock(): boolean {
    if (!rwTrySLock(this.int32, this.index)) return false;
    this.#sHeld++;
    return true;
  }

  /** Shared lock without blocking the event loop. */
  async sLockAsync(timeoutMs?: number): Promise<void> {
    if (!(await rwSLockAsync(this.int32, this.index, timeoutMs ?? Infinity, this.#config))) {
      throw new LockTimeoutError('RWLock.sLockAsync', timeoutMs ?? Infinity);
    }
    this.#sHeld++;
  }

  /**
   * Release one shared lock taken through this object. Throws LockStateError if this thread
   * took none here (S locks are anonymous in lock_word, so the object keeps the count).
   */
  sUnlock(): void {
    if (this.#sHeld === 0) {
      throw new LockStateError(
        `RWLock.sUnlock: thread ${THREAD_ID} holds no S lock taken through this object`,
      );
    }
    rwSUnlock(this.int32, this.index);
    this.#sHeld--;
  }

  #refuseUpgrade(fn: string): void {
    if (this.#sHeld > 0) {
      throw new LockStateError(
        `RWLock.${fn}: thread ${THREAD_ID} holds ${this.#sHeld} S lock(s) on this rw-lock; S→X upgrade is refused (it would wait for itself). Release S first.`,
      );
    }
  }

  /** Exclusive lock, blocking; recursive for the owning thread. S→X upgrade throws LockStateError. */
  xLock(timeoutMs?: number): void {
    this.#refuseUpgrade('xLock');
    if (timeoutMs === undefined) {
      rwXLock(this.int32, this.index, this.#config);
    } else if (!rwXLockTimeout(this.int32, this.index, timeoutMs, this.#config)) {
      throw new LockTimeoutError('RWLock.xLock', timeoutMs);
    }
  }

  /** Exclusive lock if available now (or recursively, for the owner). */
  tryXLock(): boolean {
    this.#refuseUpgrade('tryXLock');
    return rwTryXLock(this.int32, this.index);
  }

  /** Exclusive lock without blocking the event loop. */
  async xLockAsync(timeoutMs?: number): Promise<void> {
    this.#refuseUpgrade('xLockAsync');
    if (!(await rwXLockAsync(this.int32, this.index, timeoutMs ?? Infinity, this.#config))) {
      throw new LockTimeoutError('RWLock.xLockAsync', timeoutMs ?? Infinity);
    }
  }

  /** Release one level of the exclusive lock. */
  xUnlock(): void {
    rwXUnlock(this.int32, this.index, this.#config);
  }

  /** Whether the calling thread holds the X lock. */
  get xOwned(): boolean {
    return rwIsXOwner(this.int32, this.index) && rwLockWord(this.int32, this.index) <= 0;
  }

  /** A decoded snapshot of lock_word. */
  get state(): RWLockState {
    const w = rwLockWord(this.int32, this.index);
    if (w > 0) return { lockWord: w, readers: X_LOCK_DECR - w, xDepth: 0, waitEx: false };
    if (w === 0) return { lockWord: w, readers: 0, xDepth: 1, waitEx: false };
    if (w > -X_LOCK_DECR) return { lockWord: w, readers: -w, xDepth: 0, waitEx: true };
    return { lockWord: w, readers: 0, xDepth: -w / X_LOCK_DECR + 1, waitEx: false };
  }

  /** Throw if the slots break an invariant. REQUIRES: no thread inside a lock/unlock call. */
  checkValid(): void {
    rwCheckValid(this.int32, this.index);
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
