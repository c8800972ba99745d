import { type LatchConfig, type LatchOptions, resolveLatchConfig } from './config.js';
import { LockTimeoutError } from './errors.js';
import {
  type LockDescriptor,
  makeDescriptor,
  readDescriptor,
  setAttach,
  takeAttach,
} from './internal/descriptor.js';
import { type LockRegion, resolveRegion } from './internal/region.js';
import {
  MUTEX_SLOTS,
  mutexCheckValid,
  mutexInit,
  mutexIsLocked,
  mutexLock,
  mutexLockAsync,
  mutexLockTimeout,
  mutexOwner,
  mutexTryLock,
  mutexUnlock,
} from './mutex-fn.js';

/** Options of {@link Mutex}: spin options in MySQL names, plus where the slots live. */
export interface MutexOptions extends LatchOptions {
  /** Put the mutex in a caller's region (initialised by the constructor). Default: its own buffer. */
  region?: LockRegion;
}

/**
 * InnoDB's atomic mutex (`ib_mutex_t` with `lock_word`) in {@link MUTEX_SLOTS} Int32 slots of a
 * SharedArrayBuffer. Send {@link Mutex.descriptor} to a worker and rebuild it there with
 * {@link Mutex.fromDescriptor}; both objects are the same lock.
 *
 * @example
 * ```ts
 * const m = new Mutex();
 * const counter = new Int32Array(new SharedArrayBuffer(4));
 * const worker = new Worker(new URL('./worker.js', import.meta.url), {
 *   workerData: { mutex: m.descriptor(), counter: counter.buffer }, // worker: Mutex.fromDescriptor(workerData.mutex)
 * });
 * m.withLock(() => counter[0]++);             // lock, run, always unlock
 * ```
 */
export class Mutex {
  /** The Int32Array holding the slots. */
  readonly int32: Int32Array;
  /** Index of the first slot. */
  readonly index: number;
  readonly #config: LatchConfig;

  constructor(options: MutexOptions = {}) {
    const attach = takeAttach();
    const region = resolveRegion('Mutex', MUTEX_SLOTS, options.region);
    this.int32 = region.int32;
    this.index = region.index;
    this.#config = attach ?? resolveLatchConfig(options);
    if (attach === null) mutexInit(this.int32, this.index);
  }

  /** Attach to a mutex created in another thread (its slots are not re-initialised). */
  static fromDescriptor(descriptor: LockDescriptor): Mutex {
    const d = readDescriptor('Mutex.fromDescriptor', 'Mutex', MUTEX_SLOTS, descriptor);
    setAttach(d.config);
    return new Mutex({ region: { int32: d.int32, index: d.index } });
  }

  /** A plain object to `postMessage` to another thread. */
  descriptor(): LockDescriptor {
    return makeDescriptor('Mutex', this.int32, this.index, this.#config);
  }

  /**
   * Acquire, blocking the thread. With `timeoutMs`, throw {@link LockTimeoutError} if not
   * acquired in time. Throws LockStateError if this thread already holds it.
   */
  lock(timeoutMs?: number): void {
    if (timeoutMs === undefined) {
      mutexLock(this.int32, this.index, this.#config);
    } else if (!mutexLockTimeout(this.int32, this.index, timeoutMs, this.#config)) {
      throw new LockTimeoutError('Mutex.lock', timeoutMs);
    }
  }

  /** Acquire if free, without waiting. */
  tryLock(): boolean {
    return mutexTryLock(this.int32, this.index);
  }

  /** Acquire without blocking the event loop (`Atomics.waitAsync`); rejects with LockTimeoutError. */
  async lockAsync(timeoutMs?: number): Promise<void> {
    if (!(await mutexLockAsync(this.int32, this.index, timeoutMs ?? Infinity, this.#config))) {
      throw new LockTimeoutError('Mutex.lockAsync', timeoutMs ?? Infinity);
    }
  }

  /** Release; throws LockStateError if not locked or held by another thread. */
  unlock(): void {
    mutexUnlock(this.int32, this.index, this.#config);
  }

  /** Whether any thread holds it (a snapshot). */
  get locked(): boolean {
    return mutexIsLocked(this.int32, this.index);
  }

  /** The holder's thread id (worker threadId + 1), 0 when free (a snapshot). */
  get owner(): number {
    return mutexOwner(this.int32, this.index);
  }

  /** Throw if the slots break an invariant. REQUIRES: no thread inside lock/unlock right now. */
  checkValid(): void {
    mutexCheckValid(this.int32, this.index);
  }

  /** Run `fn` holding the mutex; always releases. */
  withLock<T>(fn: () => T): T {
    this.lock();
    try {
      return fn();
    } finally {
      this.unlock();
    }
  }

  /** Run `fn` (sync or async) holding the mutex taken with {@link lockAsync}; always releases. */
  async withLockAsync<T>(fn: () => T | Promise<T>): Promise<T> {
    await this.lockAsync();
    try {
      return await fn();
    } finally {
      this.unlock();
    }
  }
}
