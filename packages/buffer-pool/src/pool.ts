import type { DeviceDescriptor, PageDevice } from './device.js';
import { checkPageNo } from './device.js';
import {
  FIL_PAGE_NEXT,
  FIL_PAGE_PREV,
  initPage,
  readUint32BE,
  sealPage,
  verifyPage,
  writePageLsn,
} from './envelope.js';
import { checkPageSize } from './envelope.js';
import { BufferPoolFullError, CorruptionError } from './errors.js';
import { flushListInsert, flushListRemove } from './internal/flush-list.js';

import type { LatchConfig, LatchCountsSnapshot } from './internal/latch.js';
import {
  LatchCounters,
  MUTEX_SLOTS,
  mutexInit,
  mutexLock,
  mutexUnlock,
  RWLOCK_SLOTS,
  resolveLatchConfig,
  rwInit,
  rwSLock,
  rwSUnlock,
  rwTrySLock,
  rwTryXLock,
  rwXLock,
  rwXUnlock,
  X_LOCK_DECR,
} from './internal/latch.js';
import * as K from './internal/layout.js';
import { PoolLayout } from './internal/layout.js';
import {
  lruAddBlock,
  lruRemoveBlock,
  oldRatioFromPct,
  pctFromOldRatio,
  plainAddFirst,
  plainMoveToHead,
  plainRemove,
} from './midpoint-lru.js';
import { checkInstance } from './internal/check.js';
import { accessedInOrder, countRecent, linearTarget, readAheadArea } from './internal/read-ahead.js';
import { bucketOf, hashGet, hashInsert, hashRemove } from './internal/page-hash.js';
import { openDevice } from './open-device.js';
import type { BufferPoolOptions, BufferPoolVariables, ReplacementPolicy } from './options.js';
import { checkBool, checkInt } from './options.js';
import type { BufferPoolStats } from './stats.js';
import { addStats, readInstanceStats } from './stats.js';

// The inlined hit path writes these strides as literals; fail at load if a layout changes them.
if (
  RWLOCK_SLOTS !== 6 ||
  X_LOCK_DECR !== 0x00100000 ||
  K.C_STRIDE !== 24 ||
  K.C_READ_REQUESTS !== 0 ||
  K.IF_STRIDE !== 2 ||
  K.IF_FREED_CLOCK !== 0
) {
  throw new Error('buffer-pool: hit-path strides out of date with the layout');
}

const NO_I32 = new Int32Array(0);
const NO_U32 = new Uint32Array(0);
const NO_U8 = new Uint8Array(0);
const NO_F64 = new Float64Array(0);

/** Latch mode of `fix()`/`unfix()`: 0 none (buffer-fix only), 1 shared, 2 exclusive. */
export type LatchMode = 0 | 1 | 2;

/** The page-store contract the B+tree is written against (docs/architecture.md). */
export interface PageStore {
  readonly pageSize: number;
  readonly bytes: Uint8Array;
  fix(space: number, pageNo: number, latch: LatchMode): number;
  unfix(frame: number, latch: LatchMode): void;
  allocatePage(space: number): number;
  markDirty(frame: number, lsn?: bigint): void;
}

/** What a worker needs to attach to a pool: the shared buffer and how to open each space. */
export interface BufferPoolDescriptor {
  readonly buffer: SharedArrayBuffer;
  readonly spaces: ReadonlyArray<{ readonly space: number; readonly device: DeviceDescriptor | null }>;
}

/** Options of `BufferPool.attach()`. */
export interface AttachOptions {
  /** Devices to use instead of reopening the descriptors, by space id. */
  devices?: ReadonlyMap<number, PageDevice> | Readonly<Record<number, PageDevice>>;
  /** Millisecond clock; default `Date.now`. */
  now?: () => number;
}

/** Set by `attach()` around `new BufferPool()`: the buffer to attach to instead of allocating. */
let attaching: SharedArrayBuffer | null = null;

const POLICIES: readonly ReplacementPolicy[] = ['midpoint', 'lru', 'clock'];
/** `BUF_READ_AHEAD_AREA` cap: one extent. */
const READ_AHEAD_AREA_MAX = 64;

/**
 * InnoDB's buffer pool: page frames and all their metadata in typed arrays over one
 * SharedArrayBuffer, a page hash, midpoint LRU with an old sublist, linear and random read-ahead,
 * a flush list with write-back, and N instances each guarded by its own mutex. Frames are
 * integers; frame f is `bytes[f·pageSize, (f+1)·pageSize)`.
 *
 * Threads: create the pool in one thread, pass `descriptor()` to workers, and call
 * `BufferPool.attach()` there. Every thread must register the same spaces (attach does it from the
 * descriptor).
 *
 * REQUIRES: a thread never waits for a latch it already holds (no X after S or X on the same page).
 *
 * @example
 * const pool = new BufferPool({ innodb_buffer_pool_size: 1 << 20, innodb_page_size: 4096, device: new MemoryDevice({ pageSize: 4096 }) });
 * const f = pool.allocatePage(0);           // X-latched, dirty
 * pool.bytes[f * pool.pageSize + 38] = 42;  // write the body
 * pool.unfix(f, 2);
 */
export class BufferPool implements PageStore {
  // Typed initial values, as for the private hot fields below (callers read `bytes` per access).
  readonly pageSize: number = 0;
  readonly bytes: Uint8Array = NO_U8;
  /** Number of frames (all instances). */
  readonly frames: number = 0;
  /** `innodb_buffer_pool_instances`. */
  readonly instances: number = 1;
  readonly #L: PoolLayout;
  /**
   * False until the pool is shared (`descriptor()` called, or attached): while only this thread
   * can reach the buffer, fix counts and S latches use plain loads and stores instead of atomics
   * (same encodings, so sharing later is safe).
   */
  #shared = false;
  /** The last clock reading, for the monotonic shortcut in `#peekIfTooOld`. */
  #lastStamp = 0;
  // Hot arrays, hoisted out of the layout for the inlined hit path.
  // Each starts with a value of its final type (not undefined), so V8 keeps the fields untagged
  // ints and typed arrays of a known map, and the inlined hit path skips the checks.
  readonly #hash: Int32Array = NO_I32;
  readonly #hashNext: Int32Array = NO_I32;
  readonly #hashSize: number = 0;
  readonly #hashShift: number = 0;
  readonly #fPage: Uint32Array = NO_U32;
  readonly #fSpace: Int32Array = NO_I32;
  readonly #fFix: Int32Array = NO_I32;
  readonly #fAccess: Uint32Array = NO_U32;
  readonly #lw: Int32Array = NO_I32;
  readonly #rwBase: number = 0;
  readonly #counters: Float64Array = NO_F64;
  readonly #instF64: Float64Array = NO_F64;
  readonly #policy: number = 0;
  /** One instance: the hit path skips `instanceOf`. */
  readonly #single: boolean = true;
  /** The policy is midpoint LRU (its hit does nothing until the first eviction). */
  readonly #midpoint: boolean = true;
  /** Index of this thread's Innodb_buffer_pool_read_requests for instance 0. */
  readonly #reqBase: number = 0;
  /** This object's thread slot; −1 after `detach()`. */
  #slot: number;
  /** This thread's counter block: slot·instances·C_STRIDE (each thread counts without atomics). */
  readonly #cbase: number;
  /** Latch configuration whose spin/OS-wait counters live in the pool's buffer. */
  readonly #cfg: LatchConfig;
  readonly #devices = new Map<number, PageDevice>();
  readonly #now: () => number;
  /** `curr_size` of an instance in frames, and its read-ahead area. */
  readonly #perInstance: number;
  readonly #area: number;
  /** Scratch page for sealing a page before it is written. */
  readonly #writeBuf: Uint8Array;
  /** Scratch for a read-ahead run. */
  #runBuf: Uint8Array | null = null;

  constructor(options: BufferPoolOptions = {}) {
    const now = options.now ?? Date.now;
    let L: PoolLayout;
    if (attaching !== null) {
      L = new PoolLayout(attaching);
    } else {
      L = BufferPool.#create(options, now);
    }
    this.#L = L;
    let slot = 0;
    while (slot < L.maxThreads && Atomics.compareExchange(L.slots, slot, 0, 1) !== 0) slot++;
    if (slot === L.maxThreads) {
      throw new RangeError(`more than maxThreads (${L.maxThreads}) BufferPool objects attached to one pool`);
    }
    this.#slot = slot;
    this.#cbase = slot * L.instances * K.C_STRIDE;
    this.#hash = L.hash;
    this.#hashNext = L.fHashNext;
    this.#hashSize = L.hashSize;
    this.#hashShift = L.hashShift;
    this.#fPage = L.fPage;
    this.#fSpace = L.fSpace;
    this.#fFix = L.fFix;
    this.#fAccess = L.fAccess;
    this.#lw = L.latches;
    this.#rwBase = L.rwBase;
    this.#counters = L.counters;
    this.#instF64 = L.instF64;
    this.#policy = L.header[K.H_POLICY]!;
    this.#midpoint = this.#policy === K.POLICY_MIDPOINT;
    this.#single = L.instances === 1;
    this.#reqBase = this.#cbase + K.C_READ_REQUESTS;
    this.#cfg = resolveLatchConfig({ counters: new LatchCounters(L.sab, L.latchCountersOffset) });
    this.pageSize = L.pageSize;
    this.bytes = L.bytes;
    this.frames = L.frames;
    this.instances = L.instances;
    this.#now = now;
    this.#perInstance = L.perInstance;
    this.#area = readAheadArea(L.perInstance);
    this.#writeBuf = new Uint8Array(L.pageSize);
    if (attaching === null) {
      this.setVariables({
        innodb_old_blocks_pct: options.innodb_old_blocks_pct ?? 37,
        innodb_old_blocks_time: options.innodb_old_blocks_time ?? 1000,
        innodb_read_ahead_threshold: options.innodb_read_ahead_threshold ?? 56,
        innodb_random_read_ahead: options.innodb_random_read_ahead ?? false,
        innodb_lru_scan_depth: options.innodb_lru_scan_depth ?? 1024,
        linearReadAhead: options.linearReadAhead ?? true,
        freeWaitMs: options.freeWaitMs ?? 100,
      });
      if (options.device !== undefined) this.registerSpace(0, options.device);
    }
  }

  static #create(options: BufferPoolOptions, now: () => number): PoolLayout {
    const pageSize = checkPageSize(options.innodb_page_size ?? 16384, 'innodb_page_size');
    const size = options.innodb_buffer_pool_size ?? 134217728;
    checkInt('innodb_buffer_pool_size', size, pageSize, 2 ** 40);
    const instances = checkInt(
      'innodb_buffer_pool_instances',
      options.innodb_buffer_pool_instances ?? 1,
      1,
      64,
    );
    const frames = Math.floor(size / pageSize);
    if (frames < instances) {
      throw new RangeError(
        `innodb_buffer_pool_size ${size} holds ${frames} pages, fewer than innodb_buffer_pool_instances ${instances}`,
      );
    }
    const maxSpaces = checkInt('maxSpaces', options.maxSpaces ?? 16, 1, 1 << 16);
    const maxThreads = checkInt('maxThreads', options.maxThreads ?? 64, 1, 4096);
    const policy = options.policy ?? 'midpoint';
    if (!POLICIES.includes(policy))
      throw new RangeError(`policy must be midpoint, lru or clock, got ${String(policy)}`);
    const L = new PoolLayout(PoolLayout.allocate({ pageSize, frames, instances, maxSpaces, maxThreads }));
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
      // Free list in frame order (`buf_chunk_init` adds last; `buf_LRU_get_free_only` pops first).
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
    for (let f = 0; f < L.frames; f++) rwInit(L.latches, L.rwBase + f * RWLOCK_SLOTS);
    return L;
  }

  /**
   * Attaches to a pool created in another thread. Devices are reopened from the descriptor
   * (each worker gets its own file handle) unless `options.devices` supplies them.
   */
  static attach(desc: BufferPoolDescriptor, options: AttachOptions = {}): BufferPool {
    if (desc === null || typeof desc !== 'object' || !(desc.buffer instanceof SharedArrayBuffer)) {
      throw new TypeError('desc must come from BufferPool.descriptor()');
    }
    let pool: BufferPool;
    attaching = desc.buffer;
    try {
      pool = new BufferPool(options.now !== undefined ? { now: options.now } : {});
    } finally {
      attaching = null;
    }
    pool.#shared = true;
    const given = options.devices;
    for (const { space, device } of desc.spaces) {
      let dev: PageDevice | undefined;
      if (given instanceof Map) dev = given.get(space);
      else if (given !== undefined) dev = (given as Readonly<Record<number, PageDevice>>)[space];
      if (dev === undefined) {
        if (device === null)
          throw new TypeError(`space ${space} has no shareable device; pass it in options.devices`);
        dev = openDevice(device);
      }
      pool.registerSpace(space, dev);
    }
    return pool;
  }

  /** The shared buffer and the device recipes, for `BufferPool.attach()` in a worker. */
  descriptor(): BufferPoolDescriptor {
    this.#shared = true;
    const spaces: { space: number; device: DeviceDescriptor | null }[] = [];
    for (const [space, dev] of this.#devices) spaces.push({ space, device: dev.descriptor() });
    return { buffer: this.#L.sab, spaces };
  }

  // ---------------------------------------------------------------- variables

  /** Changes run-time variables for every thread attached to the pool. */
  setVariables(vars: Partial<BufferPoolVariables>): void {
    const H = this.#L.header;
    if (vars.innodb_old_blocks_pct !== undefined) {
      H[K.H_OLD_RATIO] = oldRatioFromPct(
        checkInt('innodb_old_blocks_pct', vars.innodb_old_blocks_pct, 5, 95),
      );
    }
    if (vars.innodb_old_blocks_time !== undefined) {
      H[K.H_OLD_TIME] = checkInt('innodb_old_blocks_time', vars.innodb_old_blocks_time, 0, 2 ** 31 - 1);
    }
    if (vars.innodb_read_ahead_threshold !== undefined) {
      H[K.H_RA_THRESHOLD] = checkInt('innodb_read_ahead_threshold', vars.innodb_read_ahead_threshold, 0, 64);
    }
    if (vars.innodb_random_read_ahead !== undefined) {
      H[K.H_RANDOM_RA] = checkBool('innodb_random_read_ahead', vars.innodb_random_read_ahead) ? 1 : 0;
    }
    if (vars.innodb_lru_scan_depth !== undefined) {
      H[K.H_SCAN_DEPTH] = checkInt('innodb_lru_scan_depth', vars.innodb_lru_scan_depth, 1, 2 ** 31 - 1);
    }
    if (vars.linearReadAhead !== undefined)
      H[K.H_LINEAR_RA] = checkBool('linearReadAhead', vars.linearReadAhead) ? 1 : 0;
    if (vars.freeWaitMs !== undefined)
      H[K.H_FREE_WAIT] = checkInt('freeWaitMs', vars.freeWaitMs, 0, 2 ** 31 - 1);
  }

  /** Current run-time variables (innodb_old_blocks_pct as InnoDB reports it back). */
  variables(): BufferPoolVariables {
    const H = this.#L.header;
    return {
      innodb_old_blocks_pct: pctFromOldRatio(H[K.H_OLD_RATIO]!),
      innodb_old_blocks_time: H[K.H_OLD_TIME]!,
      innodb_read_ahead_threshold: H[K.H_RA_THRESHOLD]!,
      innodb_random_read_ahead: H[K.H_RANDOM_RA] === 1,
      innodb_lru_scan_depth: H[K.H_SCAN_DEPTH]!,
      linearReadAhead: H[K.H_LINEAR_RA] === 1,
      freeWaitMs: H[K.H_FREE_WAIT]!,
    };
  }

  /** The replacement policy chosen at creation. */
  get policy(): ReplacementPolicy {
    return POLICIES[this.#L.header[K.H_POLICY]!]!;
  }

  /** `BUF_READ_AHEAD_AREA` of an instance: min(64, the power of two ≥ pages/32). */
  get readAheadArea(): number {
    return this.#area;
  }

  // ---------------------------------------------------------------- spaces

  /**
   * Registers `device` as tablespace `space` in this thread. The first registration in any thread
   * records the space's size (device pages); `allocatePage()` grows it.
   */
  registerSpace(space: number, device: PageDevice): void {
    checkInt('space', space, 0, 2 ** 31 - 1);
    if (device === null || typeof device !== 'object' || typeof device.readPages !== 'function') {
      throw new TypeError(`device must be a PageDevice, got ${String(device)}`);
    }
    if (device.pageSize !== this.pageSize) {
      throw new RangeError(
        `device.pageSize must equal the pool's page size ${this.pageSize}, got ${device.pageSize}`,
      );
    }
    const L = this.#L;
    mutexLock(L.latches, L.spaceMutex, this.#cfg);
    try {
      let slot = this.#spaceSlot(space);
      if (slot < 0) {
        const n = L.header[K.H_NSPACES]!;
        if (n >= L.maxSpaces) throw new RangeError(`space table is full (maxSpaces ${L.maxSpaces})`);
        slot = n * 2;
        L.spaces[slot + 1] = device.size();
        Atomics.store(L.spaces, slot, space);
        L.header[K.H_NSPACES] = n + 1;
      } else {
        const size = device.size();
        if (size > L.spaces[slot + 1]!) L.spaces[slot + 1] = size;
      }
    } finally {
      mutexUnlock(L.latches, L.spaceMutex, this.#cfg);
    }
    this.#devices.set(space, device);
  }

  #spaceSlot(space: number): number {
    const L = this.#L;
    const n = L.header[K.H_NSPACES]!;
    for (let i = 0; i < n; i++) if (Atomics.load(L.spaces, i * 2) === space) return i * 2;
    return -1;
  }

  /** Pages of `space` (allocated so far, flushed or not). */
  spaceSize(space: number): number {
    const slot = this.#spaceSlot(space);
    if (slot < 0) throw new RangeError(`space ${space} is not registered`);
    return Atomics.load(this.#L.spaces, slot + 1);
  }

  #device(space: number): PageDevice {
    const d = this.#devices.get(space);
    if (d === undefined) throw new RangeError(`space ${space} is not registered in this thread`);
    return d;
  }

  // ---------------------------------------------------------------- mapping

  /** `buf_pool_get`: the instance of a page, `fold(space, pageNo >> 6) % instances`. */
  instanceOf(space: number, pageNo: number): number {
    if (this.instances === 1) return 0;
    return (space * 1048576 + space + Math.floor(pageNo / 64)) % this.instances;
  }

  /** Space id of the page in `frame`, −1 if the frame is free. */
  frameSpace(frame: number): number {
    return this.#L.fSpace[frame]!;
  }

  /** Page number of the page in `frame`. */
  framePageNo(frame: number): number {
    return this.#L.fPage[frame]!;
  }

  /** Fix count of `frame` (a racy snapshot). */
  fixCount(frame: number): number {
    return Math.max(0, Atomics.load(this.#L.fFix, frame));
  }

  /** True while `frame` holds changes not yet written. */
  isDirty(frame: number): boolean {
    return this.#L.fOldest[frame] !== 0n;
  }

  /** The frame holding (space, pageNo), or −1; does not fix, count or move anything. */
  peek(space: number, pageNo: number): number {
    const L = this.#L;
    const inst = this.instanceOf(space, pageNo);
    mutexLock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
    const f = hashGet(L, inst * L.hashSize, space, pageNo);
    mutexUnlock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
    return f;
  }

  // ---------------------------------------------------------------- clock

  /** An access time: ms since the pool's epoch + 1, as uint32 (0 means never accessed). */
  #stamp(): number {
    const t = (Math.floor(this.#now() - this.#L.header64[0]!) + 1) >>> 0 || 1;
    this.#lastStamp = t;
    return t;
  }

  // ---------------------------------------------------------------- fix / unfix

  /**
   * Fixes page `pageNo` of `space` in a frame and latches it (`buf_page_get_gen`): on a hit the
   * page may be made young; on a miss it is read (and verified) into a free or evicted frame and
   * enters the LRU at the midpoint. A first access may trigger linear read-ahead; a miss may
   * trigger random read-ahead. Returns the frame.
   *
   * The hit path takes no mutex (as 5.6's page-hash latches let `buf_page_get_gen` avoid the pool
   * mutex): it finds the frame in the page hash, pins it with a compare-and-swap on its fix count
   * (eviction claims a frame by swapping its fix count 0 → −1, so the two cannot both win), and
   * checks that the frame still holds the page.
   *
   * Throws `CorruptionError` if the page read does not verify, `BufferPoolFullError` if no frame
   * can be freed within `freeWaitMs`, RangeError for an unregistered space or a page past its end.
   */
  fix(space: number, pageNo: number, latch: LatchMode): number {
    // `=== false` / `=== true` on boolean fields compile to one pointer compare (`!x` does not).
    if (this.#shared === false && (latch === 1 || latch === 0)) {
      // The unshared hit (S or no latch) on a page accessed before, inlined: plain loads and
      // stores, no atomics, no mutex. Anything else, including argument errors, goes out of line.
      const inst = this.#single === true ? 0 : this.instanceOf(space, pageNo);
      const fPage = this.#fPage;
      const fSpace = this.#fSpace;
      // Literal strides below (6 = RWLOCK_SLOTS, 24 = C_STRIDE, 2 = IF_STRIDE; checked at load)
      // fold into the code; imported constants would be context loads with hole checks.
      let f =
        this.#hash[
          inst * this.#hashSize +
            (Math.imul(((space << 20) + space + pageNo) | 0, 0x9e3779b1) >>> this.#hashShift)
        ]!;
      while (f >= 0 && (fPage[f] !== pageNo || fSpace[f] !== space)) f = this.#hashNext[f]!;
      // (Unshared, no read can be in progress here: this thread does its reads synchronously.)
      if (f >= 0 && this.#fAccess[f] !== 0) {
        const lw = this.#lw;
        const i = this.#rwBase + f * 6;
        const w = lw[i]!;
        // An S lock is lock_word − 1 while the word is positive (rw_lock_lock_word_decr).
        if (w > 0 || latch === 0) {
          if (latch === 1) lw[i] = w - 1;
          this.#fFix[f]!++;
          this.#counters[this.#reqBase + inst * 24]!++;
          // Midpoint before the first eviction: nothing moves (buf_page_peek_if_too_old step 1).
          if (this.#midpoint === false || this.#instF64[inst * 2] !== 0) {
            this.#hitPolicy(inst, f);
          }
          return f;
        }
      }
    }
    return this.#fixGeneral(space, pageNo, latch);
  }

  /** The policy's bookkeeping for a re-access of a fixed page. */
  #hitPolicy(inst: number, f: number): void {
    const policy = this.#policy;
    if (policy === K.POLICY_MIDPOINT) {
      if (this.#peekIfTooOld(inst, f)) this.#makeYoung(inst, f);
    } else if (policy === K.POLICY_LRU) {
      if (this.#L.inst[inst * K.I_STRIDE + K.I_LRU_HEAD] !== f) this.#makeYoung(inst, f);
    } else {
      this.#L.fRef[f] = 1;
    }
  }

  #fixGeneral(space: number, pageNo: number, latch: LatchMode): number {
    const L = this.#L;
    const inst = this.instances === 1 ? 0 : this.instanceOf(space, pageNo);
    if (latch !== 0 && latch !== 1 && latch !== 2) {
      throw new RangeError(`latch must be 0, 1 or 2, got ${String(latch)}`);
    }
    L.counters[this.#cbase + inst * K.C_STRIDE + K.C_READ_REQUESTS]!++;
    const f = this.#tryFixHit(inst, space, pageNo);
    if (f >= 0) return this.#afterFix(inst, f, space, pageNo, latch);
    return this.#fixSlow(inst, space, pageNo, latch);
  }

  /** The lock-free hit: −1 when the page is absent, under I/O, or changing identity. */
  #tryFixHit(inst: number, space: number, pageNo: number): number {
    const L = this.#L;
    let f = L.hash[inst * L.hashSize + bucketOf(L, space, pageNo)]!;
    if (!this.#shared) {
      // One thread: hashed frames have fix ≥ 0 and nothing changes under us.
      while (f >= 0 && (L.fPage[f] !== pageNo || L.fSpace[f] !== space)) f = L.fHashNext[f]!;
      if (f < 0 || L.fIo[f] !== K.IO_NONE) return -1;
      L.fFix[f]!++;
      return f;
    }
    // Chains may change under us; a bounded walk that misses just takes the slow path.
    for (let steps = 0; f >= 0 && steps < 64; steps++) {
      if (L.fPage[f] === pageNo && L.fSpace[f] === space) {
        for (;;) {
          const c = Atomics.load(L.fFix, f);
          if (c < 0) return -1;
          if (Atomics.compareExchange(L.fFix, f, c, c + 1) === c) break;
        }
        if (L.fPage[f] === pageNo && L.fSpace[f] === space && Atomics.load(L.fIo, f) === K.IO_NONE) return f;
        Atomics.sub(L.fFix, f, 1);
        return -1;
      }
      f = L.fHashNext[f]!;
    }
    return -1;
  }

  /** Under the instance mutex: wait for a pending read, or read the page in. */
  #fixSlow(inst: number, space: number, pageNo: number, latch: LatchMode): number {
    const L = this.#L;
    const m = inst * MUTEX_SLOTS;
    const hb = inst * L.hashSize;
    const cb = this.#cbase + inst * K.C_STRIDE;
    let deadline = -1;
    mutexLock(L.latches, m, this.#cfg);
    for (;;) {
      let f = hashGet(L, hb, space, pageNo);
      if (f >= 0) {
        if (Atomics.load(L.fIo, f) !== K.IO_NONE) {
          // Another thread is reading it: wait for the read to finish, then look again.
          mutexUnlock(L.latches, m, this.#cfg);
          Atomics.wait(L.fIo, f, K.IO_READ, 50);
          mutexLock(L.latches, m, this.#cfg);
          continue;
        }
        // In the hash and not being evicted (the evictor would hold this mutex): fix ≥ 0.
        Atomics.add(L.fFix, f, 1);
        mutexUnlock(L.latches, m, this.#cfg);
        return this.#afterFix(inst, f, space, pageNo, latch);
      }
      // Miss: take a frame (free list, else evict), then read the page into it.
      const size = this.#checkReadable(space, pageNo, m);
      f = this.#getFreeLocked(inst);
      if (f < 0) {
        deadline = this.#waitFree(inst, deadline);
        continue;
      }
      this.#initForReadLocked(inst, f, space, pageNo, 1);
      mutexUnlock(L.latches, m, this.#cfg);
      const dev = this.#device(space);
      let err: unknown = null;
      try {
        dev.readPages(pageNo, 1, L.bytes, f * this.pageSize);
        const bad = verifyPage(L.bytes, f * this.pageSize, this.pageSize, space, pageNo);
        if (bad !== null) err = new CorruptionError(dev.name, space, pageNo, bad);
      } catch (e) {
        err = e;
      }
      mutexLock(L.latches, m, this.#cfg);
      L.inst[inst * K.I_STRIDE + K.I_PEND_READS]!--;
      if (err !== null) {
        this.#discardLocked(inst, f, 1);
        mutexUnlock(L.latches, m, this.#cfg);
        Atomics.notify(L.fIo, f);
        throw err;
      }
      Atomics.store(L.fIo, f, K.IO_NONE);
      mutexUnlock(L.latches, m, this.#cfg);
      Atomics.notify(L.fIo, f);
      L.counters[cb + K.C_READS]!++;
      L.counters[cb + K.C_PAGES_READ]!++;
      L.counters[cb + K.C_DATA_READS]!++;
      L.counters[cb + K.C_DATA_READ]! += this.pageSize;
      if (L.header[K.H_RANDOM_RA] === 1) this.#randomReadAhead(space, pageNo, size);
      return this.#afterFix(inst, f, space, pageNo, latch);
    }
  }

  /**
   * After the frame is pinned: first-access time (`buf_page_set_accessed` keeps the first), the
   * policy's make-young decision (the mutex only if the block moves), the page latch, and linear
   * read-ahead on a first access.
   */
  #afterFix(inst: number, f: number, space: number, pageNo: number, latch: LatchMode): number {
    const L = this.#L;
    const first = L.fAccess[f] === 0;
    if (first) L.fAccess[f] = this.#stamp();
    const policy = L.header[K.H_POLICY];
    if (policy === K.POLICY_MIDPOINT) {
      if (this.#peekIfTooOld(inst, f)) this.#makeYoung(inst, f);
    } else if (policy === K.POLICY_LRU) {
      if (L.inst[inst * K.I_STRIDE + K.I_LRU_HEAD] !== f) this.#makeYoung(inst, f);
    } else if (!first) {
      // CLOCK: the reference bit records re-references, not the access that brought the page in.
      L.fRef[f] = 1;
    }
    try {
      if (latch === 1) {
        const i = L.rwBase + f * RWLOCK_SLOTS;
        const w = L.latches[i]!;
        // Unshared: an S lock is lock_word − 1 while the word is positive (rw_lock_lock_word_decr).
        if (!this.#shared && w > 0) L.latches[i] = w - 1;
        else rwSLock(L.latches, i, this.#cfg);
      } else if (latch === 2) {
        rwXLock(L.latches, L.rwBase + f * RWLOCK_SLOTS, this.#cfg);
      }
    } catch (e) {
      // E.g. LockStateError: S requested on a page this thread holds X. Give the fix back.
      Atomics.sub(L.fFix, f, 1);
      throw e;
    }
    if (first && L.header[K.H_LINEAR_RA] === 1) this.#linearReadAhead(space, pageNo, f);
    return f;
  }

  /** `buf_page_make_young` (midpoint) or a move to the head (plain LRU). The caller has the page fixed. */
  #makeYoung(inst: number, f: number): void {
    const L = this.#L;
    const m = inst * MUTEX_SLOTS;
    const ib = inst * K.I_STRIDE;
    mutexLock(L.latches, m, this.#cfg);
    if (L.header[K.H_POLICY] === K.POLICY_MIDPOINT) {
      if (L.fOld[f] === 1) L.counters[this.#cbase + inst * K.C_STRIDE + K.C_MADE_YOUNG]!++;
      const ratio = L.header[K.H_OLD_RATIO]!;
      lruRemoveBlock(L, ib, f, ratio);
      lruAddBlock(L, ib, f, false, ratio, L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]!);
    } else {
      plainMoveToHead(L, ib, f);
    }
    mutexUnlock(L.latches, m, this.#cfg);
  }

  /** Releases a fix taken by `fix()`/`allocatePage()` with the same latch mode. */
  unfix(frame: number, latch: LatchMode): void {
    if (this.#shared === false) {
      // Unshared, S or no latch: plain stores (the same encodings the atomics use). Anything
      // unusual (an unfixed frame, a bad argument, an X latch) is checked out of line.
      const fix = this.#fFix;
      const c = fix[frame]!;
      if (latch === 1) {
        const lw = this.#lw;
        const i = this.#rwBase + frame * 6;
        const w = lw[i]!;
        if (w > 0 && w < 0x00100000 && c > 0) {
          lw[i] = w + 1;
          fix[frame] = c - 1;
          return;
        }
      } else if (latch === 0 && c > 0) {
        fix[frame] = c - 1;
        return;
      }
    }
    this.#unfixGeneral(frame, latch);
  }

  #unfixGeneral(frame: number, latch: LatchMode): void {
    const L = this.#L;
    const fix = this.#fFix;
    if (latch === 1) rwSUnlock(L.latches, L.rwBase + frame * RWLOCK_SLOTS);
    else if (latch === 2) rwXUnlock(L.latches, L.rwBase + frame * RWLOCK_SLOTS, this.#cfg);
    else if (latch !== 0) throw new RangeError(`latch must be 0, 1 or 2, got ${String(latch)}`);
    if (Atomics.sub(fix, frame, 1) <= 0) {
      Atomics.add(fix, frame, 1);
      throw new RangeError(`frame ${String(frame)} is not fixed`);
    }
  }

  /** Validates a miss: the space is known here and the page exists. Unlocks on error. */
  #checkReadable(space: number, pageNo: number, m: number): number {
    const slot = this.#spaceSlot(space);
    const size = slot < 0 ? -1 : Atomics.load(this.#L.spaces, slot + 1);
    if (
      slot < 0 ||
      !this.#devices.has(space) ||
      !(pageNo >= 0 && pageNo < size && Number.isInteger(pageNo))
    ) {
      mutexUnlock(this.#L.latches, m, this.#cfg);
      if (slot < 0 || !this.#devices.has(space)) {
        checkInt('space', space, 0, 2 ** 31 - 1);
        throw new RangeError(`space ${space} is not registered`);
      }
      checkPageNo(pageNo);
      throw new RangeError(`pageNo ${pageNo} is past the end of space ${space} (${size} pages)`);
    }
    return size;
  }

  /** `buf_page_peek_if_too_old` (5.5/5.6). */
  #peekIfTooOld(inst: number, f: number): boolean {
    const L = this.#L;
    if (L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK] === 0) return false;
    const oldTime = L.header[K.H_OLD_TIME]!;
    if (oldTime !== 0 && L.fOld[f] === 1) {
      const at = L.fAccess[f]!;
      // Time only moves forward: if the last reading is already old enough, skip the clock.
      if (
        at > 0 &&
        ((this.#lastStamp >= at && this.#lastStamp - at >= oldTime) || (this.#stamp() - at) >>> 0 >= oldTime)
      ) {
        return true;
      }
      L.counters[this.#cbase + inst * K.C_STRIDE + K.C_NOT_MADE_YOUNG]!++;
      return false;
    }
    return !this.#peekIfYoung(inst, f);
  }

  /**
   * `buf_page_peek_if_young`: fewer than curr_size·(1024 − ratio)/4096 evictions since the block
   * last went to the head (≈ 15.8 % of the instance with the default ratio 378).
   */
  #peekIfYoung(inst: number, f: number): boolean {
    const L = this.#L;
    const clock = L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]! % 0x80000000;
    const ratio = L.header[K.H_OLD_RATIO]!;
    return clock < L.fFreedClock[f]! + Math.floor((this.#perInstance * (1024 - ratio)) / 4096);
  }

  // ---------------------------------------------------------------- frames

  /**
   * Puts a frame that now holds (space, pageNo) into the hash and the LRU at the midpoint, under
   * I/O (`buf_page_init_for_read`); `fix` is its fix count (1 for a synchronous read, 0 for
   * read-ahead). The fix count is published last, so a lock-free reader sees the new identity.
   */
  #initForReadLocked(inst: number, f: number, space: number, pageNo: number, fix: number): void {
    const L = this.#L;
    L.fSpace[f] = space;
    L.fPage[f] = pageNo;
    Atomics.store(L.fIo, f, K.IO_READ);
    L.fAccess[f] = 0;
    L.fFreedClock[f] = 0;
    L.fRef[f] = 0;
    L.fNewest[f] = 0n;
    hashInsert(L, inst * L.hashSize, f);
    this.#lruAddLocked(inst, f, true);
    L.inst[inst * K.I_STRIDE + K.I_PEND_READS]!++;
    Atomics.store(L.fFix, f, fix);
  }

  #lruAddLocked(inst: number, f: number, midpoint: boolean): void {
    const L = this.#L;
    const ib = inst * K.I_STRIDE;
    if (L.header[K.H_POLICY] === K.POLICY_MIDPOINT) {
      lruAddBlock(
        L,
        ib,
        f,
        midpoint,
        L.header[K.H_OLD_RATIO]!,
        L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]!,
      );
    } else {
      plainAddFirst(L, ib, f);
    }
  }

  #lruRemoveLocked(inst: number, f: number): void {
    const L = this.#L;
    if (L.header[K.H_POLICY] === K.POLICY_MIDPOINT)
      lruRemoveBlock(L, inst * K.I_STRIDE, f, L.header[K.H_OLD_RATIO]!);
    else plainRemove(L, inst * K.I_STRIDE, f);
  }

  /**
   * Claims a frame whose fix count should be `expected`: swaps it to −1 so no lock-free reader can
   * pin it. A reader that raced in backs out within a few instructions, so this spins briefly.
   */
  #claim(f: number, expected: number): void {
    const fix = this.#L.fFix;
    while (Atomics.compareExchange(fix, f, expected, -1) !== expected) {
      /* a lock-free reader is backing out */
    }
  }

  /** A read failed: drop the page and return the frame to the free list. */
  #discardLocked(inst: number, f: number, fix: number): void {
    const L = this.#L;
    this.#claim(f, fix);
    hashRemove(L, inst * L.hashSize, f);
    this.#lruRemoveLocked(inst, f);
    L.fSpace[f] = -1;
    Atomics.store(L.fIo, f, K.IO_NONE);
    this.#freeListAddLocked(inst, f);
  }

  /** REQUIRES: the frame's fix count is −1 (claimed). */
  #freeListAddLocked(inst: number, f: number): void {
    const L = this.#L;
    const ib = inst * K.I_STRIDE;
    L.fNext[f] = L.inst[ib + K.I_FREE_HEAD]!;
    L.fPrev[f] = -1;
    L.inst[ib + K.I_FREE_HEAD] = f;
    L.inst[ib + K.I_FREE_LEN]!++;
  }

  /** Replaceable (`buf_flush_ready_for_replace` minus the dirty test): unfixed, no I/O. */
  #replaceable(f: number): boolean {
    return Atomics.load(this.#L.fFix, f) === 0 && Atomics.load(this.#L.fIo, f) === K.IO_NONE;
  }

  /**
   * `buf_LRU_get_free_block` without the waiting: the free list, else a clean replaceable block
   * within `innodb_lru_scan_depth` of the LRU tail, else the replaceable block nearest the tail,
   * written back first if dirty. CLOCK gives referenced blocks a second chance instead. Returns a
   * claimed frame (fix count −1, out of the hash and the LRU), or −1 when every frame is fixed or
   * under I/O.
   */
  #getFreeLocked(inst: number): number {
    const L = this.#L;
    const ib = inst * K.I_STRIDE;
    const head = L.inst[ib + K.I_FREE_HEAD]!;
    if (head >= 0) {
      L.inst[ib + K.I_FREE_HEAD] = L.fNext[head]!;
      L.inst[ib + K.I_FREE_LEN]!--;
      L.fNext[head] = -1;
      return head;
    }
    let victim = -1;
    if (L.header[K.H_POLICY] === K.POLICY_CLOCK) {
      // The hand sweeps from the tail: a referenced block loses its bit and goes to the head.
      let budget = 2 * L.inst[ib + K.I_LRU_LEN]! + 1;
      for (let b = L.inst[ib + K.I_LRU_TAIL]!; b >= 0 && budget-- > 0; ) {
        const prev = L.fPrev[b]!;
        if (this.#replaceable(b)) {
          if (L.fRef[b] === 0) {
            if (Atomics.compareExchange(L.fFix, b, 0, -1) === 0) {
              victim = b;
              break;
            }
          } else {
            L.fRef[b] = 0;
            plainMoveToHead(L, ib, b);
          }
        }
        b = prev;
      }
    } else {
      let depth = L.header[K.H_SCAN_DEPTH]!;
      let dirty = -1;
      for (let b = L.inst[ib + K.I_LRU_TAIL]!; b >= 0; b = L.fPrev[b]!) {
        if (this.#replaceable(b)) {
          if (L.fOldest[b] === 0n) {
            if (Atomics.compareExchange(L.fFix, b, 0, -1) === 0) {
              victim = b;
              break;
            }
          } else if (dirty < 0) {
            dirty = b;
          }
        }
        if (--depth <= 0 && dirty >= 0) break;
      }
      if (victim < 0 && dirty >= 0 && Atomics.compareExchange(L.fFix, dirty, 0, -1) === 0) victim = dirty;
    }
    if (victim < 0) return -1;
    if (L.fOldest[victim] !== 0n) this.#writePageLocked(inst, victim);
    // buf_LRU_free_from_common_LRU_list + buf_LRU_block_remove_hashed_page.
    if (L.fAccess[victim] === 0) L.counters[this.#cbase + inst * K.C_STRIDE + K.C_READ_AHEAD_EVICTED]!++;
    hashRemove(L, inst * L.hashSize, victim);
    this.#lruRemoveLocked(inst, victim);
    L.instF64[inst * K.IF_STRIDE + K.IF_FREED_CLOCK]!++;
    L.fSpace[victim] = -1;
    return victim;
  }

  /** No frame: count a wait, sleep a millisecond, or give up after `freeWaitMs`. Unlocks and relocks. */
  #waitFree(inst: number, deadline: number): number {
    const L = this.#L;
    const m = inst * MUTEX_SLOTS;
    L.counters[this.#cbase + inst * K.C_STRIDE + K.C_WAIT_FREE]!++;
    const wait = L.header[K.H_FREE_WAIT]!;
    const now = performance.now();
    if (deadline < 0) deadline = now + wait;
    if (now >= deadline) {
      mutexUnlock(L.latches, m, this.#cfg);
      throw new BufferPoolFullError(inst, this.#perInstance, wait);
    }
    mutexUnlock(L.latches, m, this.#cfg);
    Atomics.wait(L.header, K.H_SLEEP, 0, Math.min(1, deadline - now));
    mutexLock(L.latches, m, this.#cfg);
    return deadline;
  }

  /**
   * Writes a dirty frame (`buf_flush_write_block_low` after `buf_flush_init_for_writing`): a sealed
   * copy goes to the device; the frame leaves the flush list. Caller holds the instance mutex and
   * the page is not being modified (unfixed, or S-latched by the caller).
   */
  #writePageLocked(inst: number, f: number): void {
    const L = this.#L;
    const ps = this.pageSize;
    const space = L.fSpace[f]!;
    const pageNo = L.fPage[f]!;
    const buf = this.#writeBuf;
    buf.set(L.bytes.subarray(f * ps, (f + 1) * ps));
    sealPage(buf, 0, ps, space, pageNo, L.fNewest[f]!);
    this.#device(space).writePage(pageNo, buf, 0);
    const cb = this.#cbase + inst * K.C_STRIDE;
    L.counters[cb + K.C_PAGES_WRITTEN]!++;
    L.counters[cb + K.C_PAGES_FLUSHED]!++;
    L.counters[cb + K.C_DATA_WRITES]!++;
    L.counters[cb + K.C_DATA_WRITTEN]! += ps;
    flushListRemove(L, inst * K.I_STRIDE, f);
    L.fOldest[f] = 0n;
  }

  // ---------------------------------------------------------------- create / modify

  /**
   * Appends a new page to `space` (`fsp` allocation + `buf_page_create`): the frame gets a fresh
   * envelope, enters the LRU at the head, is marked dirty, and is returned fixed with an X latch.
   */
  allocatePage(space: number): number {
    const L = this.#L;
    const slot = this.#spaceSlot(space);
    if (slot < 0 || !this.#devices.has(space)) {
      checkInt('space', space, 0, 2 ** 31 - 1);
      throw new RangeError(`space ${space} is not registered`);
    }
    const pageNo = Atomics.add(L.spaces, slot + 1, 1);
    if (pageNo >= 0x7fffffff) throw new RangeError(`space ${space} is full (${pageNo} pages)`);
    const inst = this.instanceOf(space, pageNo);
    const m = inst * MUTEX_SLOTS;
    let deadline = -1;
    mutexLock(L.latches, m, this.#cfg);
    L.counters[this.#cbase + inst * K.C_STRIDE + K.C_READ_REQUESTS]!++;
    let f = this.#getFreeLocked(inst);
    while (f < 0) {
      deadline = this.#waitFree(inst, deadline);
      f = this.#getFreeLocked(inst);
    }
    // A free frame has no latch holders, so the X latch is granted at once.
    rwTryXLock(L.latches, L.rwBase + f * RWLOCK_SLOTS);
    L.fSpace[f] = space;
    L.fPage[f] = pageNo;
    Atomics.store(L.fIo, f, K.IO_NONE);
    L.fRef[f] = 0;
    L.fNewest[f] = 0n;
    L.fAccess[f] = this.#stamp();
    hashInsert(L, inst * L.hashSize, f);
    this.#lruAddLocked(inst, f, false);
    Atomics.store(L.fFix, f, 1);
    L.counters[this.#cbase + inst * K.C_STRIDE + K.C_PAGES_CREATED]!++;
    mutexUnlock(L.latches, m, this.#cfg);
    initPage(L.bytes, f * this.pageSize, this.pageSize, space, pageNo);
    this.markDirty(f);
    return f;
  }

  /**
   * Notes a modification of a fixed, X-latched frame (`buf_flush_note_modification`): stores
   * `lsn` (default: the pool's next LSN) as the page's newest modification, in its envelope, and on
   * the first change puts the frame on the flush list.
   */
  markDirty(frame: number, lsn?: bigint): void {
    const L = this.#L;
    if (!(frame >= 0 && frame < this.frames) || L.fSpace[frame] === -1) {
      checkInt('frame', frame, 0, this.frames - 1);
      throw new RangeError(`frame ${frame} holds no page`);
    }
    let v: bigint;
    if (lsn === undefined) {
      v = Atomics.add(L.lsn, 0, 1n) + 1n;
    } else {
      if (typeof lsn !== 'bigint') throw new TypeError(`lsn must be a bigint, got ${String(lsn)}`);
      if (lsn <= 0n) throw new RangeError(`lsn must be > 0, got ${lsn}`);
      v = lsn;
      for (;;) {
        const cur = Atomics.load(L.lsn, 0);
        if (cur >= v || Atomics.compareExchange(L.lsn, 0, cur, v) === cur) break;
      }
    }
    const inst = Math.floor(frame / this.#perInstance);
    const m = inst * MUTEX_SLOTS;
    mutexLock(L.latches, m, this.#cfg);
    if (v > L.fNewest[frame]!) L.fNewest[frame] = v;
    if (L.fOldest[frame] === 0n) {
      L.fOldest[frame] = v;
      flushListInsert(L, inst * K.I_STRIDE, frame);
    }
    L.counters[this.#cbase + inst * K.C_STRIDE + K.C_WRITE_REQUESTS]!++;
    mutexUnlock(L.latches, m, this.#cfg);
    writePageLsn(L.bytes, frame * this.pageSize, this.pageSize, L.fNewest[frame]!);
  }

  /** The current LSN (the largest given to or made by `markDirty()`). */
  currentLsn(): bigint {
    return Atomics.load(this.#L.lsn, 0);
  }

  // ---------------------------------------------------------------- flush

  /**
   * Writes every dirty page, oldest modification first, then syncs the devices. A page another
   * thread holds X-latched is left dirty; the return value counts such pages (0: all written).
   * REQUIRES: the calling thread holds no X latch (its own X-latched pages would be skipped).
   */
  flushAll(): number {
    const L = this.#L;
    let skipped = 0;
    for (let inst = 0; inst < this.instances; inst++) {
      const m = inst * MUTEX_SLOTS;
      mutexLock(L.latches, m, this.#cfg);
      try {
        let f = L.inst[inst * K.I_STRIDE + K.I_FL_TAIL]!;
        while (f >= 0) {
          const prev = L.fFlPrev[f]!;
          const rw = L.rwBase + f * RWLOCK_SLOTS;
          if (Atomics.load(L.fIo, f) !== K.IO_NONE || !rwTrySLock(L.latches, rw)) {
            skipped++;
          } else {
            try {
              this.#writePageLocked(inst, f);
            } finally {
              rwSUnlock(L.latches, rw);
            }
          }
          f = prev;
        }
      } finally {
        mutexUnlock(L.latches, m, this.#cfg);
      }
    }
    for (const dev of this.#devices.values()) dev.sync();
    return skipped;
  }

  /**
   * Evicts every page that is not fixed (writing dirty ones first), as a restart would. Frames go
   * back to the free list. Returns the number of pages still in the pool.
   */
  evictAll(): number {
    const L = this.#L;
    let left = 0;
    for (let inst = 0; inst < this.instances; inst++) {
      const m = inst * MUTEX_SLOTS;
      const ib = inst * K.I_STRIDE;
      mutexLock(L.latches, m, this.#cfg);
      try {
        let f = L.inst[ib + K.I_LRU_TAIL]!;
        while (f >= 0) {
          const prev = L.fPrev[f]!;
          if (this.#replaceable(f) && Atomics.compareExchange(L.fFix, f, 0, -1) === 0) {
            if (L.fOldest[f] !== 0n) this.#writePageLocked(inst, f);
            hashRemove(L, inst * L.hashSize, f);
            this.#lruRemoveLocked(inst, f);
            L.fSpace[f] = -1;
            this.#freeListAddLocked(inst, f);
          } else {
            left++;
          }
          f = prev;
        }
      } finally {
        mutexUnlock(L.latches, m, this.#cfg);
      }
    }
    return left;
  }

  /**
   * Flushes, syncs and closes every device registered in this thread, then detaches. A closed
   * object must not be used again.
   */
  close(): void {
    this.flushAll();
    for (const dev of this.#devices.values()) dev.close();
    this.#devices.clear();
    this.detach();
  }

  /**
   * Gives this thread's counter slot back (a worker leaving): its counts move to the detached
   * threads' block, so `stats()` keeps them, and the slot can serve a later `attach()`. Devices are
   * left open. The object must not be used afterwards.
   */
  detach(): void {
    const L = this.#L;
    const slot = this.#slot;
    if (slot < 0) return;
    const retired = L.maxThreads * L.instances * K.C_STRIDE;
    const n = L.instances * K.C_STRIDE;
    mutexLock(L.latches, L.spaceMutex, this.#cfg);
    for (let i = 0; i < n; i++) {
      L.counters[retired + i]! += L.counters[this.#cbase + i]!;
      L.counters[this.#cbase + i] = 0;
    }
    mutexUnlock(L.latches, L.spaceMutex, this.#cfg);
    this.#slot = -1;
    this.#shared = true;
    Atomics.store(L.slots, slot, 0);
  }

  // ---------------------------------------------------------------- read-ahead

  /**
   * `buf_read_ahead_linear` (5.5/5.6), on the first access of a page at either border of its
   * area: if the area was accessed in order (at most 64 − innodb_read_ahead_threshold failures)
   * and the page's FIL_PAGE_PREV/NEXT points into the neighbouring area in the same direction,
   * read that whole area. Returns pages read.
   */
  #linearReadAhead(space: number, pageNo: number, f: number): number {
    const L = this.#L;
    const area = this.#area;
    const low = Math.floor(pageNo / area) * area;
    if (pageNo !== low && pageNo !== low + area - 1) return 0;
    const size = this.spaceSize(space);
    if (low + area > size) return 0;
    const inst = this.instanceOf(space, pageNo);
    const m = inst * MUTEX_SLOTS;
    const threshold = Math.min(64 - L.header[K.H_RA_THRESHOLD]!, area);
    mutexLock(L.latches, m, this.#cfg);
    // BUF_READ_AHEAD_PEND_LIMIT: not while more than half the instance is being read.
    const ok =
      L.inst[inst * K.I_STRIDE + K.I_PEND_READS]! <= this.#perInstance / 2 &&
      accessedInOrder(L, inst * L.hashSize, space, low, area, pageNo === low ? -1 : 1, threshold);
    mutexUnlock(L.latches, m, this.#cfg);
    if (!ok) return 0;
    // The page is fixed by the caller; InnoDB reads these two fields without the latch too.
    const base = f * this.pageSize;
    const prev = readUint32BE(L.bytes, base + FIL_PAGE_PREV);
    const next = readUint32BE(L.bytes, base + FIL_PAGE_NEXT);
    const low2 = linearTarget(pageNo, low, area, prev, next, size);
    if (low2 < 0) return 0;
    const count = this.#readArea(space, low2, low2 + area);
    // Counters are this thread's own slots: no mutex needed.
    L.counters[this.#cbase + this.instanceOf(space, low2) * K.C_STRIDE + K.C_READ_AHEAD]! += count;
    return count;
  }

  /**
   * `buf_read_ahead_random` (5.5/5.6, innodb_random_read_ahead): after a miss, if at least
   * 5 + area/8 pages of the page's area are cached, accessed and young, read the rest of the area.
   */
  #randomReadAhead(space: number, pageNo: number, size: number): number {
    const L = this.#L;
    const area = this.#area;
    const low = Math.floor(pageNo / area) * area;
    const high = Math.min(low + area, size);
    const inst = this.instanceOf(space, pageNo);
    const m = inst * MUTEX_SLOTS;
    const threshold = 5 + Math.floor(area / 8);
    mutexLock(L.latches, m, this.#cfg);
    const recent =
      L.inst[inst * K.I_STRIDE + K.I_PEND_READS]! <= this.#perInstance / 2
        ? countRecent(L, inst * L.hashSize, space, low, high, threshold, (g) => this.#peekIfYoung(inst, g))
        : 0;
    mutexUnlock(L.latches, m, this.#cfg);
    if (recent < threshold) return 0;
    const count = this.#readArea(space, low, high);
    const cb = this.#cbase + inst * K.C_STRIDE;
    L.counters[cb + K.C_READ_AHEAD_RND]! += count;
    L.counters[cb + K.C_READS]! += count;
    return count;
  }

  /**
   * Reads the pages of [low, high) that are not cached, one device request per run of consecutive
   * missing pages. They enter the LRU at the midpoint, unaccessed. Stops early (quietly) when no
   * frame can be freed; a page that fails verification is dropped (a later `fix()` reports it).
   */
  #readArea(space: number, low: number, high: number): number {
    const L = this.#L;
    const ps = this.pageSize;
    const inst = this.instanceOf(space, low);
    const m = inst * MUTEX_SLOTS;
    const hb = inst * L.hashSize;
    const dev = this.#device(space);
    const frames: number[] = [];
    const runs: number[] = []; // pairs: first page, count
    mutexLock(L.latches, m, this.#cfg);
    for (let p = low; p < high; p++) {
      if (hashGet(L, hb, space, p) >= 0) continue;
      const f = this.#getFreeLocked(inst);
      if (f < 0) break;
      this.#initForReadLocked(inst, f, space, p, 0);
      frames.push(f);
      const r = runs.length;
      if (r > 0 && runs[r - 2]! + runs[r - 1]! === p) runs[r - 1]!++;
      else runs.push(p, 1);
    }
    mutexUnlock(L.latches, m, this.#cfg);
    if (frames.length === 0) return 0;
    if (this.#runBuf === null || this.#runBuf.length < READ_AHEAD_AREA_MAX * ps) {
      this.#runBuf = new Uint8Array(READ_AHEAD_AREA_MAX * ps);
    }
    const buf = this.#runBuf;
    const good = new Uint8Array(frames.length);
    let k = 0;
    let requests = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const first = runs[r]!;
      const count = runs[r + 1]!;
      let ok = true;
      try {
        dev.readPages(first, count, buf, 0);
        requests++;
      } catch {
        ok = false;
      }
      for (let j = 0; j < count; j++, k++) {
        if (!ok) continue;
        const f = frames[k]!;
        if (verifyPage(buf, j * ps, ps, space, first + j) !== null) continue;
        L.bytes.set(buf.subarray(j * ps, (j + 1) * ps), f * ps);
        good[k] = 1;
      }
    }
    let n = 0;
    mutexLock(L.latches, m, this.#cfg);
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i]!;
      L.inst[inst * K.I_STRIDE + K.I_PEND_READS]!--;
      if (good[i] === 1) {
        Atomics.store(L.fIo, f, K.IO_NONE);
        n++;
      } else {
        this.#discardLocked(inst, f, 0);
      }
    }
    const cb = this.#cbase + inst * K.C_STRIDE;
    L.counters[cb + K.C_PAGES_READ]! += n;
    L.counters[cb + K.C_DATA_READS]! += requests;
    L.counters[cb + K.C_DATA_READ]! += n * ps;
    mutexUnlock(L.latches, m, this.#cfg);
    for (const f of frames) Atomics.notify(L.fIo, f);
    return n;
  }

  // ---------------------------------------------------------------- stats

  /** Counters of one instance. */
  instanceStats(inst: number): BufferPoolStats {
    checkInt('inst', inst, 0, this.instances - 1);
    return readInstanceStats(this.#L, inst);
  }

  /** Counters summed over the instances (what SHOW GLOBAL STATUS shows). */
  stats(): BufferPoolStats {
    let s = readInstanceStats(this.#L, 0);
    for (let i = 1; i < this.instances; i++) s = addStats(s, readInstanceStats(this.#L, i));
    return s;
  }

  /**
   * Spin and OS-wait counts of the pool's latches (instance mutexes and page rw-locks), summed
   * over every thread, as SHOW ENGINE INNODB STATUS prints them.
   */
  latchStats(): LatchCountsSnapshot {
    return (this.#cfg.counters as LatchCounters).snapshot();
  }

  /** Zeroes the counters (not the gauges, not freed_page_clock) in every instance. */
  resetStats(): void {
    const L = this.#L;
    for (let inst = 0; inst < this.instances; inst++) {
      mutexLock(L.latches, inst * MUTEX_SLOTS, this.#cfg);

      mutexUnlock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
    }
    // Every thread's slots: a thread adding concurrently may keep one increment.
    L.counters.fill(0);
    (this.#cfg.counters as LatchCounters).reset();
  }

  /** The frames of an instance's LRU list from head to tail, with their old flags (for tests and monitors). */
  lruList(inst = 0): { frames: number[]; old: boolean[]; oldLen: number } {
    const L = this.#L;
    const ib = inst * K.I_STRIDE;
    const frames: number[] = [];
    const old: boolean[] = [];
    mutexLock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
    for (let f = L.inst[ib + K.I_LRU_HEAD]!; f >= 0; f = L.fNext[f]!) {
      frames.push(f);
      old.push(L.fOld[f] === 1);
    }
    const oldLen = L.inst[ib + K.I_LRU_OLD_LEN]!;
    mutexUnlock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
    return { frames, old, oldLen };
  }

  /**
   * Checks every invariant of every instance (lists, lengths, old sublist, hash, flush order) and
   * throws an Error describing the first violation. For tests; takes each instance mutex.
   */
  checkValid(): void {
    const L = this.#L;
    for (let inst = 0; inst < this.instances; inst++) {
      mutexLock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
      try {
        checkInstance(L, inst);
      } finally {
        mutexUnlock(L.latches, inst * MUTEX_SLOTS, this.#cfg);
      }
    }
  }
}
