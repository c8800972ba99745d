import type { PageDevice } from './device.js';

/**
 * Replacement policy: `midpoint` is InnoDB 5.5/5.6's midpoint LRU (innodb_old_blocks_pct,
 * innodb_old_blocks_time, old sublist from 512 blocks); `midpoint51` the built-in InnoDB of
 * MySQL 5.1 (old sublist from 80 blocks at a fixed 3/8, a block promoted on any access once
 * `freed_page_clock ≥ its clock + 1 + curr_size/4`; the two variables are ignored); `lru` and
 * `clock` are plain LRU and CLOCK for comparison.
 */
export type ReplacementPolicy = 'midpoint' | 'midpoint51' | 'lru' | 'clock';

/**
 * Page latches: `atomic` is the atomics rw-lock of InnoDB Plugin 1.0.3+ / 5.5 / 5.6 (lock_word,
 * compare-and-swap), with the lock-free hit path; `legacy` is the rw-lock of MySQL 5.1's built-in
 * InnoDB, every operation through its inner mutex (a pthread-style trylock), with 5.1's spin
 * defaults (`innodb_sync_spin_loops` 20, `innodb_spin_wait_delay` 5) for all of the pool's latches,
 * and no inlined hit path.
 */
export type PageLatchKind = 'atomic' | 'legacy';

/**
 * Options of `new BufferPool()`. Tunables keep their MySQL names; units and defaults are given
 * with each (defaults are MySQL 5.6's unless noted).
 */
export interface BufferPoolOptions {
  /** Bytes of page frames (metadata comes on top). Default 134217728 (128 MiB). */
  innodb_buffer_pool_size?: number;
  /** Bytes per page, a power of two in [512, 65536]. Default 16384. */
  innodb_page_size?: number;
  /**
   * Instances the frames are split into (1..64). Default as MySQL 5.6: 8 when
   * innodb_buffer_pool_size ≥ 1 GiB, else 1.
   */
  innodb_buffer_pool_instances?: number;
  /** Percent of the LRU list kept as the old sublist (5..95). Default 37. */
  innodb_old_blocks_pct?: number;
  /** Milliseconds an old block must have been in the pool, since its first access, before an access moves it to the head. Default 1000 (5.5: 0). */
  innodb_old_blocks_time?: number;
  /** Linear read-ahead fires when at most 64 − this many pages of an area were accessed out of order or not at all (0..64). Default 56. */
  innodb_read_ahead_threshold?: number;
  /** Random read-ahead. Default false. */
  innodb_random_read_ahead?: boolean;
  /** Blocks scanned from the LRU tail for a clean victim before a dirty one is written (≥ 1). Default 1024. */
  innodb_lru_scan_depth?: number;
  /** Linear read-ahead on or off (no MySQL switch; threshold 64 still reads on a perfectly ordered scan). Default true. */
  linearReadAhead?: boolean;
  /** Replacement policy. Default `midpoint`. */
  policy?: ReplacementPolicy;
  /** Page latch implementation (see {@link PageLatchKind}). Default `atomic`. */
  latches?: PageLatchKind;
  /** Milliseconds `fix()` waits for a frame to become replaceable before `BufferPoolFullError`. Default 100. */
  freeWaitMs?: number;
  /** Most `BufferPool` objects (threads) attached at once; each keeps its own counters. Default 64. */
  maxThreads?: number;
  /** Capacity of the tablespace table. Default 16. */
  maxSpaces?: number;
  /** Registers this device as space 0 (the engine's one file). */
  device?: PageDevice;
  /** Millisecond clock for access times; default `Date.now`. Tests pass a fake clock. */
  now?: () => number;
}

/** Run-time variables, settable with `setVariable()` and shared by every attached thread. */
export interface BufferPoolVariables {
  innodb_old_blocks_pct: number;
  innodb_old_blocks_time: number;
  innodb_read_ahead_threshold: number;
  innodb_random_read_ahead: boolean;
  innodb_lru_scan_depth: number;
  linearReadAhead: boolean;
  freeWaitMs: number;
}

export function checkInt(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${String(value)}`);
  }
  if (value < min || value > max) throw new RangeError(`${name} must be in [${min}, ${max}], got ${value}`);
  return value;
}

export function checkBool(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${String(value)}`);
  return value;
}
