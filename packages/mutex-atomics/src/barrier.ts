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

/** Int32 slots of a {@link Barrier}: +0 parties, +1 arrived in this generation, +2 generation. */
export const BARRIER_SLOTS = 3;
const ARRIVED = 1;
const GENERATION = 2;

/**
 * A reusable barrier: `wait` blocks until `parties` threads have called it, then all proceed
 * and the barrier resets for the next round. Exactly one caller per round gets `true`.
 */
export class Barrier {
  /** The Int32Array holding the slots. */
  readonly int32: Int32Array;
  /** Index of the first slot. */
  readonly index: number;

  constructor(parties: number, options: { region?: LockRegion } = {}) {
    const attach = takeAttach();
    const region = resolveRegion('Barrier', BARRIER_SLOTS, options.region);
    this.int32 = region.int32;
    this.index = region.index;
    if (attach === null) {
      if (typeof parties !== 'number' || !Number.isInteger(parties)) {
        throw new TypeError(`Barrier: parties must be an integer, got ${String(parties)}`);
      }
      if (parties < 1 || parties > 0x7fffffff)
        throw new RangeError(`Barrier: parties must be >= 1, got ${parties}`);
      Atomics.store(this.int32, this.index, parties);
      Atomics.store(this.int32, this.index + ARRIVED, 0);
      Atomics.store(this.int32, this.index + GENERATION, 0);
    }
  }

  /** Attach to a barrier created in another thread. */
  static fromDescriptor(descriptor: LockDescriptor): Barrier {
    const d = readDescriptor('Barrier.fromDescriptor', 'Barrier', BARRIER_SLOTS, descriptor);
    setAttach(d.config);
    return new Barrier(0, { region: { int32: d.int32, index: d.index } });
  }

  /** A plain object to `postMessage` to another thread. */
  descriptor(): LockDescriptor {
    return makeDescriptor('Barrier', this.int32, this.index, { ...defaultLatchConfig, counters: null });
  }

  /** Number of threads each round waits for. */
  get parties(): number {
    return Atomics.load(this.int32, this.index);
  }

  /**
   * Arrive and wait for the rest of the round. Returns true for the last arriver. With
   * `timeoutMs`, throws LockTimeoutError if the round does not complete in time (the barrier is
   * then broken for that round: the arrival is not taken back).
   */
  wait(timeoutMs?: number): boolean {
    const a = this.int32;
    const i = this.index;
    const gen = Atomics.load(a, i + GENERATION);
    const arrived = Atomics.add(a, i + ARRIVED, 1) + 1;
    if (arrived === Atomics.load(a, i)) {
      Atomics.store(a, i + ARRIVED, 0);
      Atomics.add(a, i + GENERATION, 1);
      Atomics.notify(a, i + GENERATION);
      return true;
    }
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    while (Atomics.load(a, i + GENERATION) === gen) {
      let wait = Infinity;
      if (deadline !== Infinity) {
        wait = deadline - performance.now();
        if (wait <= 0) throw new LockTimeoutError('Barrier.wait', timeoutMs ?? 0);
      }
      Atomics.wait(a, i + GENERATION, gen, wait);
    }
    return false;
  }
}
