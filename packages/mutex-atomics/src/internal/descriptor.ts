import type { LatchConfig } from '../config.js';
import { LatchCounters, type LatchCountersDescriptor } from '../counters.js';
import { checkRegion, describe } from './region.js';

/** Every lock kind that can cross a `postMessage`. */
export type LockKind = 'Mutex' | 'RWLock' | 'LegacyRWLock' | 'Semaphore' | 'Condition' | 'Barrier';

/**
 * The `postMessage`-able form of a lock: the shared buffer, where the lock's slots are in it, the
 * spin options and the counters it adds to. Structured clone shares (does not copy) the buffers.
 */
export interface LockDescriptor {
  kind: LockKind;
  /** The buffer holding the lock's slots. */
  buffer: SharedArrayBuffer;
  /** `byteOffset` and `length` of the Int32Array the lock was built on. */
  byteOffset: number;
  length: number;
  /** Index of the lock's first slot in that Int32Array. */
  index: number;
  /** `innodb_sync_spin_loops` in effect. */
  spinLoops: number;
  /** `innodb_spin_wait_delay` in effect. */
  spinDelay: number;
  /** Shared counters, or null when the lock counts nothing. */
  counters: LatchCountersDescriptor | null;
}

export function makeDescriptor(
  kind: LockKind,
  int32: Int32Array,
  index: number,
  config: LatchConfig,
): LockDescriptor {
  return {
    kind,
    buffer: int32.buffer as SharedArrayBuffer,
    byteOffset: int32.byteOffset,
    length: int32.length,
    index,
    spinLoops: config.spinLoops,
    spinDelay: config.spinDelay,
    counters: config.counters === null ? null : config.counters.descriptor(),
  };
}

function bad(fn: string, why: string): TypeError {
  return new TypeError(`${fn}: bad descriptor: ${why}`);
}

/** Validate a received descriptor and rebuild the view, config and counters it names. */
export function readDescriptor(
  fn: string,
  kind: LockKind,
  slots: number,
  d: unknown,
): { int32: Int32Array; index: number; config: LatchConfig } {
  if (d === null || typeof d !== 'object') throw bad(fn, `expected an object, got ${describe(d)}`);
  const o = d as Record<string, unknown>;
  if (o.kind !== kind) throw bad(fn, `kind must be ${JSON.stringify(kind)}, got ${describe(o.kind)}`);
  if (!(o.buffer instanceof SharedArrayBuffer))
    throw bad(fn, `buffer must be a SharedArrayBuffer, got ${describe(o.buffer)}`);
  for (const key of ['byteOffset', 'length', 'index', 'spinLoops', 'spinDelay'] as const) {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      throw bad(fn, `${key} must be a non-negative integer, got ${describe(v)}`);
    }
  }
  const byteOffset = o.byteOffset as number;
  const length = o.length as number;
  if (byteOffset % 4 !== 0 || byteOffset + length * 4 > o.buffer.byteLength) {
    throw bad(
      fn,
      `byteOffset ${byteOffset} and length ${length} do not fit a ${o.buffer.byteLength}-byte buffer`,
    );
  }
  const int32 = new Int32Array(o.buffer, byteOffset, length);
  checkRegion(fn, int32, o.index, slots);
  let counters: LatchCounters | null = null;
  if (o.counters !== null) {
    if (o.counters === undefined) throw bad(fn, 'counters must be a LatchCounters descriptor or null');
    counters = LatchCounters.fromDescriptor(o.counters as LatchCountersDescriptor);
  }
  return {
    int32,
    index: o.index as number,
    config: { spinLoops: o.spinLoops as number, spinDelay: o.spinDelay as number, counters },
  };
}

// fromDescriptor → constructor hand-off: the config to adopt instead of initialising the slots.
let pendingAttach: LatchConfig | null = null;

export function setAttach(config: LatchConfig): void {
  pendingAttach = config;
}

export function takeAttach(): LatchConfig | null {
  const c = pendingAttach;
  pendingAttach = null;
  return c;
}
