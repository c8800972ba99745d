import { defaultLatchConfig } from './config.js';
import { LockTimeoutError } from './errors.js';
import {
  type LockDescriptor,
  makeDescriptor,
  readDescriptor,
  setAttach,
  takeAttach,
} from './internal/descriptor.js';
import { type LockRegion, resolveRegion } from './internal/region.js';
import { waitAsync } from './internal/wait-async.js';

/**
 * Int32 slots of a {@link Semaphore}: +0 permits available, +1 number of sleeping acquirers
 * (release notifies only when it is non-zero).
 */
export const SEMAPHORE_SLOTS = 2;
const SLEEPERS = 1;

function checkCount(fn: string, name: string, n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new TypeError(`${fn}: ${name} must be an integer, got ${String(n)}`);
  if (n < 0 || n > 0x7fffffff) throw new RangeError(`${fn}: ${name} must be in 0..2147483647, got ${n}`);
  return n;
}

/** A counting semaphore in shared memory: `acquire` takes a permit, waiting while none is left. */
export class Semaphore {
  /** The Int32Array holding the slots. */
  readonly int32: Int32Array;
  /** Index of the first slot. */
  readonly index: number;

  /**
   * @param permits initial permits (ignored when attaching from a descriptor)
   * @param options `region` to live in a caller's buffer
   */
  constructor(permits = 1, options: { region?: LockRegion } = {}) {
    const attach = takeAttach();
    const region = resolveRegion('Semaphore', SEMAPHORE_SLOTS, options.region);
    this.int32 = region.int32;
    this.index = region.index;
    if (attach === null) {
      Atomics.store(this.int32, this.index, checkCount('Semaphore', 'permits', permits));
      Atomics.store(this.int32, this.index + SLEEPERS, 0);
    }
  }

  /** Attach to a semaphore created in another thread. */
  static fromDescriptor(descriptor: LockDescriptor): Semaphore {
    const d = readDescriptor('Semaphore.fromDescriptor', 'Semaphore', SEMAPHORE_SLOTS, descriptor);
    setAttach(d.config);
    return new Semaphore(0, { region: { int32: d.int32, index: d.index } });
  }

  /** A plain object to `postMessage` to another thread. */
  descriptor(): LockDescriptor {
    return makeDescriptor('Semaphore', this.int32, this.index, { ...defaultLatchConfig, counters: null });
  }

  /** Permits available now (a snapshot). */
  get permits(): number {
    return Atomics.load(this.int32, this.index);
  }

  /** Take a permit if one is available. */
  tryAcquire(): boolean {
    const a = this.int32;
    const i = this.index;
    let c = Atomics.load(a, i);
    while (c > 0) {
      const seen = Atomics.compareExchange(a, i, c, c - 1);
      if (seen === c) return true;
      c = seen;
    }
    return false;
  }

  /** Take a permit, blocking; LockTimeoutError after `timeoutMs`. */
  acquire(timeoutMs?: number): void {
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    while (!this.tryAcquire()) {
      let wait = Infinity;
      if (deadline !== Infinity) {
        wait = deadline - performance.now();
        if (wait <= 0) throw new LockTimeoutError('Semaphore.acquire', timeoutMs ?? 0);
      }
      Atomics.add(this.int32, this.index + SLEEPERS, 1);
      Atomics.wait(this.int32, this.index, 0, wait);
      Atomics.sub(this.int32, this.index + SLEEPERS, 1);
    }
  }

  /** Take a permit without blocking the event loop. */
  async acquireAsync(timeoutMs?: number): Promise<void> {
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    while (!this.tryAcquire()) {
      const wait = deadline - performance.now();
      if (wait <= 0) throw new LockTimeoutError('Semaphore.acquireAsync', timeoutMs ?? 0);
      Atomics.add(this.int32, this.index + SLEEPERS, 1);
      try {
        const pending = waitAsync(this.int32, this.index, 0, wait);
        if (pending !== null) await pending;
      } finally {
        Atomics.sub(this.int32, this.index + SLEEPERS, 1);
      }
    }
  }

  /** Return `n` permits (default 1) and wake up to `n` sleepers. */
  release(n = 1): void {
    checkCount('Semaphore.release', 'n', n);
    const before = Atomics.add(this.int32, this.index, n);
    if (before + n > 0x7fffffff) {
      Atomics.sub(this.int32, this.index, n);
      throw new RangeError(`Semaphore.release: ${before} + ${n} permits overflow 2147483647`);
    }
    if (Atomics.load(this.int32, this.index + SLEEPERS) !== 0) Atomics.notify(this.int32, this.index, n);
  }
}
