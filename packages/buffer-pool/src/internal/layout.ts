import { LATCH_COUNTER_SLOTS, LEGACY_RWLOCK_SLOTS, MUTEX_SLOTS, RWLOCK_SLOTS } from './latch.js';

/**
 * Where everything lives in the pool's one SharedArrayBuffer. Offsets are computed from the
 * header, so a worker rebuilds the same views from the buffer alone.
 *
 * | region          | type          | length                         | meaning                              |
 * |-----------------|---------------|--------------------------------|--------------------------------------|
 * | header          | Int32 × 32    |                                | sizes and run-time variables (H_*)   |
 * | header64        | Float64 × 4   |                                | clock epoch                          |
 * | lsn             | BigInt64 × 2  |                                | LSN counter for `markDirty()`        |
 * | instances       | Int32 × 16·I  |                                | list heads and lengths (I_*)         |
 * | instance f64    | Float64 × 2·I |                                | freed_page_clock per instance        |
 * | counters        | Float64 × 24·I·(T+1) |                         | status counters (C_*) per thread slot and instance, + detached |
 * | thread slots    | Int32 × T     |                                | 1 while a thread owns the slot       |
 * | space table     | Int32 × 2·S   |                                | [space id, size in pages] pairs      |
 * | latch counters  | Int32 × 22    |                                | mutex-atomics spin/OS-wait counters  |
 * | latches         | Int32         | (I+1)·MUTEX + F·rw slots       | instance mutexes, space mutex, page latches (atomic: 6 slots each, legacy: 11) |
 * | page hash       | Int32         | I·hashSize                     | bucket heads (−1: empty)             |
 * | frame metadata  | one array per field, length F (see `PoolLayout`)                            |
 * | frames          | Uint8         | F·pageSize, 4096-aligned       | the pages; `bytes` views exactly this |
 */
export const MAGIC = 0x42504f4c; // 'BPOL'

// Header slots (Int32).
export const H_MAGIC = 0;
export const H_PAGE_SIZE = 1;
export const H_FRAMES = 2;
export const H_INSTANCES = 3;
export const H_PER_INSTANCE = 4;
export const H_HASH_SIZE = 5;
export const H_MAX_SPACES = 6;
export const H_POLICY = 7;
export const H_OLD_RATIO = 8;
export const H_OLD_TIME = 9;
export const H_RA_THRESHOLD = 10;
export const H_RANDOM_RA = 11;
export const H_LINEAR_RA = 12;
export const H_SCAN_DEPTH = 13;
export const H_FREE_WAIT = 14;
export const H_NSPACES = 15;
export const H_SLEEP = 16;
export const H_MAX_THREADS = 17;
/** Page latch kind: 0 the atomics rw-lock, 1 the 5.1 rw-lock (`latches: 'legacy'`). */
export const H_LATCHES = 18;
const HEADER_INTS = 32;

// Instance slots (Int32, stride I_STRIDE).
export const I_LRU_HEAD = 0;
export const I_LRU_TAIL = 1;
export const I_LRU_LEN = 2;
export const I_LRU_OLD = 3;
export const I_LRU_OLD_LEN = 4;
export const I_FREE_HEAD = 5;
export const I_FREE_LEN = 6;
export const I_FL_HEAD = 7;
export const I_FL_TAIL = 8;
export const I_FL_LEN = 9;
export const I_PEND_READS = 10;
export const I_STRIDE = 16;

// Counter slots (Float64, stride C_STRIDE).
export const C_READ_REQUESTS = 0;
export const C_READS = 1;
export const C_READ_AHEAD = 2;
export const C_READ_AHEAD_RND = 3;
export const C_READ_AHEAD_EVICTED = 4;
export const C_MADE_YOUNG = 5;
export const C_NOT_MADE_YOUNG = 6;
export const C_WAIT_FREE = 7;
export const C_PAGES_READ = 8;
export const C_PAGES_WRITTEN = 9;
export const C_DATA_READ = 10;
export const C_DATA_READS = 11;
export const C_DATA_WRITTEN = 12;
export const C_DATA_WRITES = 13;
export const C_WRITE_REQUESTS = 14;
export const C_PAGES_FLUSHED = 15;
export const C_PAGES_CREATED = 16;
export const C_STRIDE = 24;

/** Shared per-instance Float64 slots (stride IF_STRIDE): `buf_pool->freed_page_clock`. */
export const IF_FREED_CLOCK = 0;
export const IF_STRIDE = 2;

export const IO_NONE = 0;
export const IO_READ = 1;

export const POLICY_MIDPOINT = 0;
export const POLICY_LRU = 1;
export const POLICY_CLOCK = 2;
/** Midpoint LRU with the built-in InnoDB 5.1 rules (80-block minimum, 3/8, clock-only make-young). */
export const POLICY_MIDPOINT51 = 3;

export interface LayoutParams {
  pageSize: number;
  frames: number;
  instances: number;
  maxSpaces: number;
  maxThreads: number;
  /** 5.1 page latches instead of the atomics rw-lock. */
  legacy: boolean;
}

function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

function hashSizeFor(perInstance: number): number {
  let size = 16;
  while (size < perInstance * 2) size *= 2;
  return size;
}

/** Typed-array views over a pool's SharedArrayBuffer; one per thread, built once. */
export class PoolLayout {
  readonly sab: SharedArrayBuffer;
  readonly header: Int32Array;
  readonly header64: Float64Array;
  readonly lsn: BigInt64Array;
  readonly inst: Int32Array;
  readonly instF64: Float64Array;
  /**
   * Counters: thread slot t, instance i at (t·instances + i)·C_STRIDE; slot `maxThreads` holds
   * what detached threads counted.
   */
  readonly counters: Float64Array;
  /** 1 while a thread owns the counter slot. */
  readonly slots: Int32Array;
  readonly spaces: Int32Array;
  readonly latches: Int32Array;
  /** Byte offset of the latch counters (a `LatchCounters` region). */
  readonly latchCountersOffset: number;
  /** First page-latch slot in `latches`; frame f's latch is at rwBase + f·rwSlots. */
  readonly rwBase: number;
  /** Slots per page latch: RWLOCK_SLOTS, or LEGACY_RWLOCK_SLOTS for 5.1 latches. */
  readonly rwSlots: number;
  /** True when the page latches are 5.1 rw-locks. */
  readonly legacy: boolean;
  /** Slot of the space-table mutex in `latches`. */
  readonly spaceMutex: number;
  readonly hash: Int32Array;
  // Frame metadata, one entry per frame.
  /** Space id; −1 when the frame holds no page. */
  readonly fSpace: Int32Array;
  readonly fPage: Uint32Array;
  /** `buf_fix_count`; −1 while the frame is free or being evicted (then no one may fix it). */
  readonly fFix: Int32Array;
  /** `io_fix`: IO_NONE or IO_READ (writes happen under the instance mutex). */
  readonly fIo: Int32Array;
  /** LRU (or free-list) links; −1 ends a list. */
  readonly fPrev: Int32Array;
  readonly fNext: Int32Array;
  readonly fHashNext: Int32Array;
  /** Flush-list links. */
  readonly fFlPrev: Int32Array;
  readonly fFlNext: Int32Array;
  /** `freed_page_clock` when the block last went to the LRU head (31 bits). */
  readonly fFreedClock: Int32Array;
  /** First access, ms since the pool's epoch + 1; 0 = never accessed. */
  readonly fAccess: Uint32Array;
  /** 1 while in the old sublist. */
  readonly fOld: Uint8Array;
  /** CLOCK reference bit. */
  readonly fRef: Uint8Array;
  /** `oldest_modification`; 0 when clean. */
  readonly fOldest: BigInt64Array;
  /** `newest_modification`. */
  readonly fNewest: BigInt64Array;
  /** The frames. */
  readonly bytes: Uint8Array;
  readonly pageSize: number;
  readonly frames: number;
  readonly instances: number;
  readonly perInstance: number;
  readonly hashSize: number;
  readonly hashShift: number;
  readonly maxSpaces: number;
  readonly maxThreads: number;

  /** Allocates a zeroed buffer for `p` and writes the sizes into its header. */
  static allocate(p: LayoutParams): SharedArrayBuffer {
    const perInstance = Math.floor(p.frames / p.instances);
    const total = PoolLayout.#compute(
      p.pageSize,
      perInstance * p.instances,
      p.instances,
      p.maxSpaces,
      p.maxThreads,
      p.legacy ? LEGACY_RWLOCK_SLOTS : RWLOCK_SLOTS,
    ).total;
    const sab = new SharedArrayBuffer(total);
    const h = new Int32Array(sab, 0, HEADER_INTS);
    h[H_MAGIC] = MAGIC;
    h[H_PAGE_SIZE] = p.pageSize;
    h[H_FRAMES] = perInstance * p.instances;
    h[H_INSTANCES] = p.instances;
    h[H_PER_INSTANCE] = perInstance;
    h[H_HASH_SIZE] = hashSizeFor(perInstance);
    h[H_MAX_SPACES] = p.maxSpaces;
    h[H_MAX_THREADS] = p.maxThreads;
    h[H_LATCHES] = p.legacy ? 1 : 0;
    return sab;
  }

  static #compute(
    pageSize: number,
    frames: number,
    instances: number,
    maxSpaces: number,
    maxThreads: number,
    rwSlots: number,
  ) {
    const hashSize = hashSizeFor(Math.floor(frames / instances));
    let o = HEADER_INTS * 4;
    const header64 = o;
    o += 4 * 8;
    const lsn = o;
    o += 2 * 8;
    const inst = o;
    o = align(o + instances * I_STRIDE * 4, 8);
    const instF64 = o;
    o += instances * IF_STRIDE * 8;
    const counters = o;
    // One block per thread slot, plus one for the counts of threads that detached.
    o += (maxThreads + 1) * instances * C_STRIDE * 8;
    const slots = o;
    o = align(o + maxThreads * 4, 8);
    const spaces = o;
    o += maxSpaces * 2 * 4;
    const latchCounters = o;
    o += LATCH_COUNTER_SLOTS * 4;
    const latches = o;
    const latchInts = (instances + 1) * MUTEX_SLOTS + frames * rwSlots;
    o = align(o + latchInts * 4, 8);
    const hash = o;
    o += instances * hashSize * 4;
    const i32 = o; // 11 Int32-sized arrays of length `frames`
    o = align(o + 11 * frames * 4, 8);
    const big = o; // 2 BigInt64 arrays
    o += 2 * frames * 8;
    const u8 = o; // 2 Uint8 arrays
    o += 2 * frames;
    const bytes = align(o, 4096);
    return {
      header64,
      lsn,
      inst,
      instF64,
      counters,
      slots,
      spaces,
      latchCounters,
      latches,
      latchInts,
      hash,
      hashSize,
      i32,
      big,
      u8,
      bytes,
      total: bytes + frames * pageSize,
    };
  }

  constructor(sab: SharedArrayBuffer) {
    if (!(sab instanceof SharedArrayBuffer)) throw new TypeError('buffer must be a SharedArrayBuffer');
    this.sab = sab;
    this.header = new Int32Array(sab, 0, HEADER_INTS);
    if (this.header[H_MAGIC] !== MAGIC) throw new TypeError('buffer is not a buffer pool (bad magic)');
    this.pageSize = this.header[H_PAGE_SIZE]!;
    this.frames = this.header[H_FRAMES]!;
    this.instances = this.header[H_INSTANCES]!;
    this.perInstance = this.header[H_PER_INSTANCE]!;
    this.maxSpaces = this.header[H_MAX_SPACES]!;
    this.maxThreads = this.header[H_MAX_THREADS]!;
    const c = PoolLayout.#compute(
      this.pageSize,
      this.frames,
      this.instances,
      this.maxSpaces,
      this.maxThreads,
      this.header[H_LATCHES] === 1 ? LEGACY_RWLOCK_SLOTS : RWLOCK_SLOTS,
    );
    this.hashSize = c.hashSize;
    this.hashShift = 32 - Math.log2(c.hashSize);
    const F = this.frames;
    this.header64 = new Float64Array(sab, c.header64, 4);
    this.lsn = new BigInt64Array(sab, c.lsn, 2);
    this.inst = new Int32Array(sab, c.inst, this.instances * I_STRIDE);
    this.instF64 = new Float64Array(sab, c.instF64, this.instances * IF_STRIDE);
    this.counters = new Float64Array(sab, c.counters, (this.maxThreads + 1) * this.instances * C_STRIDE);
    this.slots = new Int32Array(sab, c.slots, this.maxThreads);
    this.spaces = new Int32Array(sab, c.spaces, this.maxSpaces * 2);
    this.latchCountersOffset = c.latchCounters;
    this.latches = new Int32Array(sab, c.latches, c.latchInts);
    this.spaceMutex = this.instances * MUTEX_SLOTS;
    this.rwBase = (this.instances + 1) * MUTEX_SLOTS;
    this.legacy = this.header[H_LATCHES] === 1;
    this.rwSlots = this.legacy ? LEGACY_RWLOCK_SLOTS : RWLOCK_SLOTS;
    this.hash = new Int32Array(sab, c.hash, this.instances * c.hashSize);
    let o = c.i32;
    const next = (): number => {
      const at = o;
      o += F * 4;
      return at;
    };
    this.fSpace = new Int32Array(sab, next(), F);
    this.fPage = new Uint32Array(sab, next(), F);
    this.fFix = new Int32Array(sab, next(), F);
    this.fIo = new Int32Array(sab, next(), F);
    this.fPrev = new Int32Array(sab, next(), F);
    this.fNext = new Int32Array(sab, next(), F);
    this.fHashNext = new Int32Array(sab, next(), F);
    this.fFlPrev = new Int32Array(sab, next(), F);
    this.fFlNext = new Int32Array(sab, next(), F);
    this.fFreedClock = new Int32Array(sab, next(), F);
    this.fAccess = new Uint32Array(sab, next(), F);
    this.fOldest = new BigInt64Array(sab, c.big, F);
    this.fNewest = new BigInt64Array(sab, c.big + F * 8, F);
    this.fOld = new Uint8Array(sab, c.u8, F);
    this.fRef = new Uint8Array(sab, c.u8 + F, F);
    this.bytes = new Uint8Array(sab, c.bytes, F * this.pageSize);
  }
}
