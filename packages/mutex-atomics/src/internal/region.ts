/**
 * REQUIRES: `int32` views a `SharedArrayBuffer` and slots [index, index + slots) exist.
 * Throws TypeError/RangeError naming the argument otherwise. Used by init and constructors, not
 * by the hot lock/unlock paths (there `Atomics` itself rejects an out-of-range index).
 */
export function checkRegion(fn: string, int32: unknown, index: unknown, slots: number): void {
  if (!(int32 instanceof Int32Array)) {
    throw new TypeError(`${fn}: int32 must be an Int32Array, got ${describe(int32)}`);
  }
  if (!(int32.buffer instanceof SharedArrayBuffer)) {
    throw new TypeError(`${fn}: int32 must view a SharedArrayBuffer, got a ${int32.buffer.constructor.name}`);
  }
  if (typeof index !== 'number' || !Number.isInteger(index)) {
    throw new TypeError(`${fn}: index must be an integer, got ${describe(index)}`);
  }
  if (index < 0 || index + slots > int32.length) {
    throw new RangeError(
      `${fn}: index ${index} needs ${slots} slots but int32 has length ${int32.length} (valid 0..${int32.length - slots})`,
    );
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

/** Where a lock object keeps its slots: a caller's region, or (default) a new buffer of its own. */
export interface LockRegion {
  /** The caller's shared Int32Array. */
  int32: Int32Array;
  /** First of the lock's slots in `int32`. */
  index: number;
}

export function resolveRegion(fn: string, slots: number, region: LockRegion | undefined): LockRegion {
  if (region === undefined) return { int32: new Int32Array(new SharedArrayBuffer(slots * 4)), index: 0 };
  if (region === null || typeof region !== 'object') {
    throw new TypeError(`${fn}: region must be { int32, index }, got ${describe(region)}`);
  }
  checkRegion(fn, region.int32, region.index, slots);
  return { int32: region.int32, index: region.index };
}
