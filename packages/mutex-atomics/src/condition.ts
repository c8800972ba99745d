import { defaultLatchConfig } from './config.js';
import { LockStateError } from './errors.js';
import {
  type LockDescriptor,
  makeDescriptor,
  readDescriptor,
  setAttach,
  takeAttach,
} from './internal/descriptor.js';
import { type LockRegion, resolveRegion } from './internal/region.js';
import type { Mutex } from './mutex.js';
import { THREAD_ID } from './thread-id.js';

/** Int32 slots of a {@link Condition}: +0 a sequence number bumped by every notify. */
export const CONDITION_SLOTS = 1;

/**
 * A condition variable used with a {@link Mutex}: `wait` atomically releases the mutex and sleeps
 * until notified, then re-acquires it. Wake-ups may be spurious; re-check the predicate in a loop.
 *
 * @example
 * ```ts
 * m.lock();
 * while (queue[0] === 0) cond.wait(m);
 * ... m.unlock();
 * ```
 */
export class Condition {
  /** The Int32Array holding the slot. */
  readonly int32: Int32Array;
  /** Index of the slot. */
  readonly index: number;

  constructor(options: { region?: LockRegion } = {}) {
    const attach = takeAttach();
    const region = resolveRegion('Condition', CONDITION_SLOTS, options.region);
    this.int32 = region.int32;
    this.index = region.index;
    if (attach === null) Atomics.store(this.int32, this.index, 0);
  }

  /** Attach to a condition created in another thread. */
  static fromDescriptor(descriptor: LockDescriptor): Condition {
    const d = readDescriptor('Condition.fromDescriptor', 'Condition', CONDITION_SLOTS, descriptor);
    setAttach(d.config);
    return new Condition({ region: { int32: d.int32, index: d.index } });
  }

  /** A plain object to `postMessage` to another thread. */
  descriptor(): LockDescriptor {
    return makeDescriptor('Condition', this.int32, this.index, { ...defaultLatchConfig, counters: null });
  }

  /**
   * REQUIRES: the caller holds `mutex`. Release it, sleep until a notify (or `timeoutMs`), take
   * it again. Returns false if the wait timed out (the mutex is held again either way).
   */
  wait(mutex: Mutex, timeoutMs: number = Infinity): boolean {
    if (mutex.owner !== THREAD_ID) {
      throw new LockStateError(`Condition.wait: the caller (thread ${THREAD_ID}) does not hold the mutex`);
    }
    const seq = Atomics.load(this.int32, this.index);
    mutex.unlock();
    const r = Atomics.wait(this.int32, this.index, seq, timeoutMs);
    mutex.lock();
    return r !== 'timed-out';
  }

  /** Wake up to `n` waiters (default 1). */
  notify(n = 1): void {
    Atomics.add(this.int32, this.index, 1);
    Atomics.notify(this.int32, this.index, n);
  }

  /** Wake every waiter. */
  notifyAll(): void {
    Atomics.add(this.int32, this.index, 1);
    Atomics.notify(this.int32, this.index);
  }
}
