import { constants } from 'node:buffer';
import { checkPageSize } from '../envelope.js';
import type { BufferPoolOptions, ReplacementPolicy } from '../options.js';
import { checkInt } from '../options.js';
import { initFreeLatch } from './frame-latch.js';
import { MUTEX_SLOTS, mutexInit } from './latch.js';
import * as K from './layout.js';
import { PoolLayout } from './layout.js';

/** Replacement policies by their `H_POLICY` code (POLICY_MIDPOINT = 0, …). */
export const POLICIES: readonly ReplacementPolicy[] = ['midpoint', 'lru', 'clock', 'midpoint51'];

/** Default `innodb_buffer_pool_size`: 128 MiB. */
const DEFAULT_POOL_SIZE = 134217728;

/**
 * `BUF_POOL_SIZE_THRESHOLD` (5.6 `include/srv0start.h`): from 1 GiB up, 5.6 runs 8 instances by
 * default; below it, one.
 */
export const BUF_POOL_SIZE_THRESHOLD: number = 1024 * 1024 * 1024;

/**
 * `innodb_buffer_pool_instances` when the option is left out, as MySQL 5.6 chooses it
 * (`srv/srv0start.cc innobase_start_or_create_for_mysql`): 8 for a pool of at least
 * {@link BUF_POOL_SIZE_THRESHOLD} bytes, else 1. (5.6 also forces an explicit setting down to 1
 * below the threshold; here an explicit setting is kept, so small pools can be compared.)
 */
export function defaultInstances(poolSize: number): number {
  return poolSize >= BUF_POOL_SIZE_THRESHOLD ? 8 : 1;
}

/**
 * Validates `options` and lays out a fresh pool in a new SharedArrayBuffer: every frame on its
 * instance's free list in frame order (`buf_chunk_init` adds last; `buf_LRU_get_free_only` pops
 * first), empty lists and hash, free latches, the clock epoch `now()`.
 */
export function createLayout(options: BufferPoolOptions, now: () => number): PoolLayout {
  const pageSize = checkPageSize(options.innodb_page_size ?? 16384, 'innodb_page_size');
  const size = options.innodb_buffer_pool_size ?? DEFAULT_POOL_SIZE;
  checkInt('innodb_buffer_pool_size', size, pageSize, 2 ** 40);
  const instances = checkInt(
    'innodb_buffer_pool_instances',
    options.innodb_buffer_pool_instances ?? defaultInstances(size),
    1,
    64,
  );
  const frames = Math.floor(size / pageSize);
  // Every frame is one Uint8Array over the pool's SharedArrayBuffer (`bytes`): no larger than
  // the longest typed array this Node.js makes (4 GiB on Node 20).
  if (frames * pageSize > constants.MAX_LENGTH) {
    throw new RangeError(
      `innodb_buffer_pool_size ${size} is larger than the ${constants.MAX_LENGTH} bytes one pool can map in Node.js ${process.version}`,
    );
  }
  if (frames < instances) {
    throw new RangeError(
      `innodb_buffer_pool_size ${size} holds ${frames} pages, fewer than innodb_buffer_pool_instances ${instances}`,
    );
  }
  const maxSpaces = checkInt('maxSpaces', options.maxSpaces ?? 16, 1, 1 << 16);
  const maxThreads = checkInt('maxThreads', options.maxThreads ?? 64, 1, 4096);
  const policy = options.policy ?? 'midpoint';
  if (!POLICIES.includes(policy))
    throw new RangeError(`policy must be midpoint, midpoint51, lru or clock, got ${String(policy)}`);
  const latches = options.latches ?? 'atomic';
  if (latches !== 'atomic' && latches !== 'legacy')
    throw new RangeError(`latches must be atomic or legacy, got ${String(latches)}`);
  const legacy = latches === 'legacy';
  const L = new PoolLayout(
    PoolLayout.allocate({ pageSize, frames, instances, maxSpaces, maxThreads, legacy }),
  );
  L.header[K.H_POLICY] = POLICIES.indexOf(policy);
  L.header64[0] = now();
  L.fSpace.fill(-1);
  L.fFix.fill(-1);
  L.fHashNext.fill(-1);
  L.fFlPrev.fill(-1);
  L.fFlNext.fill(-1);
  L.hash.fill(-1);
  L.spaces.fill(-1);
  for (let i = 0; i < L.instances; i++) {
    const ib = i * K.I_STRIDE;
    L.inst[ib + K.I_LRU_HEAD] = -1;
    L.inst[ib + K.I_LRU_TAIL] = -1;
    L.inst[ib + K.I_LRU_OLD] = -1;
    L.inst[ib + K.I_FL_HEAD] = -1;
    L.inst[ib + K.I_FL_TAIL] = -1;
    const first = i * L.perInstance;
    const end = first + L.perInstance;
    for (let f = first; f < end; f++) {
      L.fNext[f] = f + 1 < end ? f + 1 : -1;
      L.fPrev[f] = -1;
    }
    L.inst[ib + K.I_FREE_HEAD] = first;
    L.inst[ib + K.I_FREE_LEN] = L.perInstance;
    mutexInit(L.latches, i * MUTEX_SLOTS);
  }
  mutexInit(L.latches, L.spaceMutex);
  // Free frames are X-latched by the pool (see frame-latch.ts).
  for (let f = 0; f < L.frames; f++) initFreeLatch(L, f);
  return L;
}

/** Claims a free thread slot of the pool (one per attached `BufferPool` object). */
export function claimThreadSlot(L: PoolLayout): number {
  let slot = 0;
  while (slot < L.maxThreads && Atomics.compareExchange(L.slots, slot, 0, 1) !== 0) slot++;
  if (slot === L.maxThreads) {
    throw new RangeError(`more than maxThreads (${L.maxThreads}) BufferPool objects attached to one pool`);
  }
  return slot;
}
