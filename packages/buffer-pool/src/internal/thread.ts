import type { PageDevice } from '../device.js';
import type { LatchConfig } from './latch.js';
import { C_STRIDE, type PoolLayout } from './layout.js';

/**
 * What one thread's `BufferPool` object keeps beside the shared layout. Every internal function
 * of the pool takes it: the layout is shared by all threads, this is private to one.
 */
export interface PoolThread {
  /** Views over the pool's one SharedArrayBuffer. */
  readonly L: PoolLayout;
  /** Latch configuration; its spin/OS-wait counters live in the pool's buffer. */
  readonly cfg: LatchConfig;
  /** This thread's counter block: slot·instances·C_STRIDE (each thread counts without atomics). */
  readonly cbase: number;
  /** This thread's counter slot; −1 after detach. */
  slot: number;
  /** False until the pool is shared (descriptor taken, or attached); then fix counts use atomics. */
  shared: boolean;
  /** The devices registered in this thread, by space id. */
  readonly devices: Map<number, PageDevice>;
  /** Millisecond clock for access times. */
  readonly now: () => number;
  /** The last access time handed out, for the monotonic shortcut of the make-young test. */
  lastStamp: number;
  /** `curr_size` of one instance, in frames. */
  readonly perInstance: number;
  /** `BUF_READ_AHEAD_AREA` of an instance. */
  readonly area: number;
  /** Scratch page for sealing a page before it is written. */
  readonly writeBuf: Uint8Array;
  /** Scratch for a read-ahead run, allocated on first use. */
  runBuf: Uint8Array | null;
}

/** `buf_pool_get`: the instance of a page, `fold(space, pageNo >> 6) % instances`. */
export function instanceOfPage(instances: number, space: number, pageNo: number): number {
  if (instances === 1) return 0;
  return (space * 1048576 + space + Math.floor(pageNo / 64)) % instances;
}

/** Index of counter `slot` (a C_* constant) of instance `inst` in this thread's block. */
export function counterAt(t: PoolThread, inst: number, slot: number): number {
  return t.cbase + inst * C_STRIDE + slot;
}

/** An access time: ms since the pool's epoch + 1, as uint32 (0 means never accessed). */
export function stamp(t: PoolThread): number {
  const s = (Math.floor(t.now() - t.L.header64[0]!) + 1) >>> 0 || 1;
  t.lastStamp = s;
  return s;
}

/** The device of `space` in this thread; RangeError if it was not registered here. */
export function deviceOf(t: PoolThread, space: number): PageDevice {
  const d = t.devices.get(space);
  if (d === undefined) throw new RangeError(`space ${space} is not registered in this thread`);
  return d;
}
