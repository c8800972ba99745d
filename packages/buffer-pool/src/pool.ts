import type { AttachOptions, BufferPoolDescriptor } from './descriptor.js';
import type { PageDevice } from './device.js';
import { attachSpaces, checkDescriptor, makeDescriptor, retireThread } from './internal/attach.js';
import { claimThreadSlot, createLayout, POLICIES } from './internal/create.js';
import { createPage, fixGeneral, unfixGeneral } from './internal/fix.js';
import { evictAll } from './internal/frames.js';
import { advanceLsn, flushAll, flushOldest, noteModification, oldestModification } from './internal/flush.js';
import type { LatchCountsSnapshot } from './internal/latch.js';
import {
  DEFAULT_SPIN_LOOPS_51,
  DEFAULT_SPIN_WAIT_DELAY_51,
  LatchCounters,
  MUTEX_SLOTS,
  mutexLock,
  mutexUnlock,
  RWLOCK_SLOTS,
  resolveLatchConfig,
  rwSUnlock,
  X_LOCK_DECR,
} from './internal/latch.js';
import * as K from './internal/layout.js';
import { PoolLayout } from './internal/layout.js';
import { isMidpoint, onAccess } from './internal/make-young.js';
import { checkAll, lruList, poolStats, resetStats } from './internal/monitor.js';
import { hashGet } from './internal/page-hash.js';
import { readAheadArea } from './internal/read-ahead.js';
import { registerSpace, spaceSize } from './internal/spaces.js';
import { instanceOfPage, type PoolThread } from './internal/thread.js';
import { DEFAULT_VARIABLES, readVariables, writeVariables } from './internal/variables.js';
import type { BufferPoolOptions, BufferPoolVariables, PageLatchKind, ReplacementPolicy } from './options.js';
import { checkInt } from './options.js';
import type { LatchMode, PageStore } from './page-store.js';
import type { BufferPoolStats } from './stats.js';
import { readInstanceStats } from './stats.js';

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

/** Set by `attach()` around `new BufferPool()`: the buffer to attach to instead of allocating. */
let attaching: SharedArrayBuffer | null = null;

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
 * This class keeps the hit paths of `fix()`/`unfix()` (unshared and shared); the rest (the
 * general fix path, attaching, spaces, frame allocation and eviction, flushing, read-ahead,
 * statistics) are functions over the pool's layout in `internal/`.
 *
 * REQUIRES: a thread never waits for a latch it already holds (no X after S or X on the same page).
 *
 * @example
 * const pool = new BufferPool({ innodb_buffer_pool_size: 1 << 20, innodb_page_size: 4096, device: new MemoryDevice({ pageSize: 4096 }) });
 * const f = pool.allocatePage(0);           // X-latched, dirty
 * pool.bytes[f * pool.pageSize + 38] = 42;  // write the body
 * pool.unfix(f, LATCH_X);
 */
export class BufferPool implements PageStore {
  // Typed initial values, as for the private hot fields below (callers read `bytes` per access).
  readonly pageSize: number = 0;
  readonly bytes: Uint8Array = NO_U8;
  /** Number of frames (all instances). */
  readonly frames: number = 0;
  /** `innodb_buffer_pool_instances`. */
  readonly instances: number = 1;
  /** This thread's state beside the shared layout (what the internal functions take). */
  readonly #t: PoolThread;
  /**
   * False until the pool is shared (`descriptor()` called, or attached): while only this thread
   * can reach the buffer, fix counts and S latches use plain loads and stores instead of atomics
   * (same encodings, so sharing later is safe). Mirrors `#t.shared` for the hit path.
   */
  #shared = false;
  /** 5.1 page latches: the inlined hit paths (atomics encoding) are skipped. */
  #legacy = false;
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
  readonly #fIo: Int32Array = NO_I32;
  readonly #lw: Int32Array = NO_I32;
  readonly #rwBase: number = 0;
  readonly #counters: Float64Array = NO_F64;
  readonly #instF64: Float64Array = NO_F64;
  /** One instance: the hit path skips `instanceOf`. */
  readonly #single: boolean = true;
  /** A midpoint policy (its hit does nothing until the first eviction). */
  readonly #midpoint: boolean = true;
  /** Index of this thread's Innodb_buffer_pool_read_requests for instance 0. */
  readonly #reqBase: number = 0;

  constructor(options: BufferPoolOptions = {}) {
    const now = options.now ?? Date.now;
    const L = attaching !== null ? new PoolLayout(attaching) : createLayout(options, now);
    const slot = claimThreadSlot(L);
    const cbase = slot * L.instances * K.C_STRIDE;
    this.#t = {
      L,
      cfg: resolveLatchConfig({
        counters: new LatchCounters(L.sab, L.latchCountersOffset),
        ...(L.legacy
          ? {
              innodb_sync_spin_loops: DEFAULT_SPIN_LOOPS_51,
              innodb_spin_wait_delay: DEFAULT_SPIN_WAIT_DELAY_51,
            }
          : {}),
      }),
      cbase,
      slot,
      shared: false,
      devices: new Map<number, PageDevice>(),
      now,
      lastStamp: 0,
      perInstance: L.perInstance,
      area: readAheadArea(L.perInstance),
      writeBuf: new Uint8Array(L.pageSize),
      runBuf: null,
    };
    this.#hash = L.hash;
    this.#hashNext = L.fHashNext;
    this.#hashSize = L.hashSize;
    this.#hashShift = L.hashShift;
    this.#fPage = L.fPage;
    this.#fSpace = L.fSpace;
    this.#fFix = L.fFix;
    this.#fAccess = L.fAccess;
    this.#fIo = L.fIo;
    this.#lw = L.latches;
    this.#rwBase = L.rwBase;
    this.#counters = L.counters;
    this.#instF64 = L.instF64;
    this.#midpoint = isMidpoint(L.header[K.H_POLICY]!);
    this.#single = L.instances === 1;
    this.#legacy = L.legacy;
    // Legacy latches never take the inlined paths: both guards below read `#shared`.
    if (L.legacy) this.#shared = true;
    this.#reqBase = cbase + K.C_READ_REQUESTS;
    this.pageSize = L.pageSize;
    this.bytes = L.bytes;
    this.frames = L.frames;
    this.instances = L.instances;
    if (attaching === null) {
      const d = DEFAULT_VARIABLES;
      writeVariables(L, {
        innodb_old_blocks_pct: options.innodb_old_blocks_pct ?? d.innodb_old_blocks_pct,
        innodb_old_blocks_time: options.innodb_old_blocks_time ?? d.innodb_old_blocks_time,
        innodb_read_ahead_threshold: options.innodb_read_ahead_threshold ?? d.innodb_read_ahead_threshold,
        innodb_random_read_ahead: options.innodb_random_read_ahead ?? d.innodb_random_read_ahead,
        innodb_lru_scan_depth: options.innodb_lru_scan_depth ?? d.innodb_lru_scan_depth,
        linearReadAhead: options.linearReadAhead ?? d.linearReadAhead,
        freeWaitMs: options.freeWaitMs ?? d.freeWaitMs,
      });
      if (options.device !== undefined) this.registerSpace(0, options.device);
    }
  }

  /**
   * Attaches to a pool created in another thread. Devices are reopened from the descriptor
   * (each worker gets its own file handle) unless `options.devices` supplies them.
   */
  static attach(desc: BufferPoolDescriptor, options: AttachOptions = {}): BufferPool {
    checkDescriptor(desc);
    let pool: BufferPool;
    attaching = desc.buffer;
    try {
      pool = new BufferPool(options.now !== undefined ? { now: options.now } : {});
    } finally {
      attaching = null;
    }
    pool.#share();
    attachSpaces(pool.#t, desc, options);
    return pool;
  }

  /** The shared buffer and the device recipes, for `BufferPool.attach()` in a worker. */
  descriptor(): BufferPoolDescriptor {
    this.#share();
    return makeDescriptor(this.#t);
  }

  /** From now on other threads may reach the buffer: the hit path switches to atomics. */
  #share(): void {
    this.#shared = true;
    this.#t.shared = true;
  }

  // ---------------------------------------------------------------- variables

  /** Changes run-time variables for every thread attached to the pool. */
  setVariables(vars: Partial<BufferPoolVariables>): void {
    writeVariables(this.#t.L, vars);
  }

  /** Current run-time variables (innodb_old_blocks_pct as InnoDB reports it back). */
  variables(): BufferPoolVariables {
    return readVariables(this.#t.L);
  }

  /** The page latch implementation chosen at creation. */
  get latches(): PageLatchKind {
    return this.#legacy ? 'legacy' : 'atomic';
  }

  /** The replacement policy chosen at creation. */
  get policy(): ReplacementPolicy {
    return POLICIES[this.#t.L.header[K.H_POLICY]!]!;
  }

  /** `BUF_READ_AHEAD_AREA` of an instance: min(64, the power of two ≥ pages/32). */
  get readAheadArea(): number {
    return this.#t.area;
  }

  // ---------------------------------------------------------------- spaces and mapping

  /**
   * Registers `device` as tablespace `space` in this thread. The first registration in any thread
   * records the space's size (device pages); `allocatePage()` grows it.
   */
  registerSpace(space: number, device: PageDevice): void {
    registerSpace(this.#t, space, device);
  }

  /** Pages of `space` (allocated so far, flushed or not). */
  spaceSize(space: number): number {
    return spaceSize(this.#t.L, space);
  }

  /** `buf_pool_get`: the instance of a page, `fold(space, pageNo >> 6) % instances`. */
  instanceOf(space: number, pageNo: number): number {
    return instanceOfPage(this.instances, space, pageNo);
  }

  /** Space id of the page in `frame`, −1 if the frame is free. */
  frameSpace(frame: number): number {
    return this.#t.L.fSpace[frame]!;
  }

  /** Page number of the page in `frame`. */
  framePageNo(frame: number): number {
    return this.#t.L.fPage[frame]!;
  }

  /** Fix count of `frame` (a racy snapshot): no-latch and X fixes; an S latch pins without counting. */
  fixCount(frame: number): number {
    return Math.max(0, Atomics.load(this.#t.L.fFix, frame));
  }

  /** True while `frame` holds changes not yet written. */
  isDirty(frame: number): boolean {
    return this.#t.L.fOldest[frame] !== 0n;
  }

  /** The frame holding (space, pageNo), or −1; does not fix, count or move anything. */
  peek(space: number, pageNo: number): number {
    const t = this.#t;
    const L = t.L;
    const inst = this.instanceOf(space, pageNo);
    mutexLock(L.latches, inst * MUTEX_SLOTS, t.cfg);
    const f = hashGet(L, inst * L.hashSize, space, pageNo);
    mutexUnlock(L.latches, inst * MUTEX_SLOTS, t.cfg);
    return f;
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
          // An S latch pins the frame by itself; only a no-latch fix counts (frame-latch.ts).
          if (latch === 1) lw[i] = w - 1;
          else this.#fFix[f]!++;
          this.#counters[this.#reqBase + inst * 24]!++;
          // Midpoint before the first eviction: nothing moves (buf_page_peek_if_too_old step 1).
          if (this.#midpoint === false || this.#instF64[inst * 2] !== 0) {
            onAccess(this.#t, inst, f, false);
          }
          return f;
        }
      }
    }
    if (this.#shared === true && this.#legacy === false && (latch === 1 || latch === 0)) {
      const f = this.#fixSharedHit(space, pageNo, latch);
      if (f >= 0) return f;
    }
    return fixGeneral(this.#t, space, pageNo, latch);
  }

  /**
   * The shared hit (S or no latch on a page accessed before), one compare-and-swap each: an S
   * latch is taken on the latch word alone, which pins the frame (eviction must X-latch it; a frame
   * being read or free is X-latched by the pool), and a successful CAS has synchronized with the X
   * release that published the frame, so plain reads of its identity and access time are current.
   * A no-latch fix pins by the fix count (eviction swaps it 0 → −1), then checks identity and I/O.
   * The expected value of each CAS is a plain read: a stale guess only makes it fail. Returns −1
   * (nothing held) to take the general path.
   */
  #fixSharedHit(space: number, pageNo: number, latch: LatchMode): number {
    const inst = this.#single === true ? 0 : this.instanceOf(space, pageNo);
    const fPage = this.#fPage;
    const fSpace = this.#fSpace;
    let f =
      this.#hash[
        inst * this.#hashSize +
          (Math.imul(((space << 20) + space + pageNo) | 0, 0x9e3779b1) >>> this.#hashShift)
      ]!;
    // Chains may change under us: a bounded walk that misses takes the general path.
    for (let steps = 0; f >= 0 && (fPage[f] !== pageNo || fSpace[f] !== space); steps++) {
      if (steps === 64) return -1;
      f = this.#hashNext[f]!;
    }
    if (f < 0) return -1;
    if (latch === 1) {
      const lw = this.#lw;
      const i = this.#rwBase + f * 6;
      const w = lw[i]!;
      // rw_lock_lock_word_decr: S while the word is positive.
      if (w <= 0 || Atomics.compareExchange(lw, i, w, w - 1) !== w) return -1;
      if (fPage[f] !== pageNo || fSpace[f] !== space || this.#fAccess[f] === 0) {
        rwSUnlock(lw, i);
        return -1;
      }
    } else {
      const fix = this.#fFix;
      const c = fix[f]!;
      if (c < 0 || Atomics.compareExchange(fix, f, c, c + 1) !== c) return -1;
      if (fPage[f] !== pageNo || fSpace[f] !== space || this.#fIo[f] !== 0 || this.#fAccess[f] === 0) {
        Atomics.sub(fix, f, 1);
        return -1;
      }
    }
    this.#counters[this.#reqBase + inst * 24]!++;
    if (this.#midpoint === false || this.#instF64[inst * 2] !== 0) onAccess(this.#t, inst, f, false);
    return f;
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
        if (w > 0 && w < 0x00100000) {
          lw[i] = w + 1;
          return;
        }
      } else if (latch === 0 && c > 0) {
        fix[frame] = c - 1;
        return;
      }
    } else if (this.#legacy === false && (latch === 1 || latch === 0) && this.#unfixShared(frame, latch)) {
      return;
    }
    unfixGeneral(this.#t, frame, latch);
  }

  /**
   * The shared S / no-latch release, one atomic: the S latch by CAS from a plain guess while no
   * writer waits (0 < word < X_LOCK_DECR; the last reader before a waiting writer takes the
   * general path, which signals it), or the fix by an atomic subtract. False (nothing released)
   * for anything unusual.
   */
  #unfixShared(frame: number, latch: LatchMode): boolean {
    if (latch === 1) {
      const lw = this.#lw;
      const i = this.#rwBase + frame * 6;
      const w = lw[i]!;
      return w > 0 && w < 0x00100000 && Atomics.compareExchange(lw, i, w, w + 1) === w;
    }
    const fix = this.#fFix;
    if (!(fix[frame]! > 0)) return false;
    if (Atomics.sub(fix, frame, 1) <= 0) {
      Atomics.add(fix, frame, 1);
      throw new RangeError(`frame ${String(frame)} is not fixed`);
    }
    return true;
  }

  // ---------------------------------------------------------------- create / modify

  /**
   * Appends a new page to `space` (`fsp` allocation + `buf_page_create`): the frame gets a fresh
   * envelope, enters the LRU at the head, is marked dirty, and is returned fixed with an X latch.
   * Like `buf_page_create`, it is not a read request (Innodb_buffer_pool_read_requests does not
   * move); it counts Innodb_pages_created. `lsn` is the modification LSN to note (default: the
   * pool's next LSN), as for {@link markDirty}: a redo log passes one of its own.
   */
  allocatePage(space: number, lsn?: bigint): number {
    return createPage(this.#t, space, lsn);
  }

  /**
   * Notes a modification of a fixed, X-latched frame (`buf_flush_note_modification`): stores
   * `lsn` (default: the pool's next LSN) as the page's newest modification, in its envelope, and on
   * the first change puts the frame on the flush list.
   */
  markDirty(frame: number, lsn?: bigint): void {
    noteModification(this.#t, frame, lsn);
  }

  /** The current LSN (the largest given to or made by `markDirty()`). */
  currentLsn(): bigint {
    return Atomics.load(this.#t.L.lsn, 0);
  }

  /**
   * Moves the current LSN forward to `lsn` (a redo log starting after recovery), so that a later
   * `markDirty()` without an LSN stamps a larger one.
   */
  advanceLsn(lsn: bigint): void {
    if (typeof lsn !== 'bigint' || lsn < 0n)
      throw new RangeError(`lsn must be a bigint ≥ 0, got ${String(lsn)}`);
    advanceLsn(this.#t, lsn);
  }

  // ---------------------------------------------------------------- flush, evict, close

  /**
   * The oldest modification LSN of any dirty page (`buf_pool_get_oldest_modification`), 0n when
   * nothing is dirty: a checkpoint may be taken there.
   */
  oldestModification(): bigint {
    return oldestModification(this.#t);
  }

  /**
   * Writes up to `maxPages` dirty pages whose oldest modification is below `lsnLimit`, oldest first
   * (`buf_flush_list`), passing over pages latched by another thread. Does not sync the devices.
   * Returns the pages written. REQUIRES: the calling thread holds no X latch.
   */
  flushOldest(lsnLimit: bigint, maxPages: number): number {
    if (typeof lsnLimit !== 'bigint')
      throw new TypeError(`lsnLimit must be a bigint, got ${String(lsnLimit)}`);
    checkInt('maxPages', maxPages, 0, Number.MAX_SAFE_INTEGER);
    return flushOldest(this.#t, lsnLimit, maxPages);
  }

  /**
   * Writes every dirty page, oldest modification first, then syncs the devices. A page another
   * thread holds X-latched is left dirty; the return value counts such pages (0: all written).
   * REQUIRES: the calling thread holds no X latch (its own X-latched pages would be skipped).
   */
  flushAll(): number {
    return flushAll(this.#t);
  }

  /**
   * Evicts every page that is not fixed (writing dirty ones first), as a restart would. Frames go
   * back to the free list. Returns the number of pages still in the pool.
   */
  evictAll(): number {
    return evictAll(this.#t);
  }

  /**
   * Flushes, syncs and closes every device registered in this thread, then detaches. A closed
   * object must not be used again.
   */
  close(): void {
    this.flushAll();
    for (const dev of this.#t.devices.values()) dev.close();
    this.#t.devices.clear();
    this.detach();
  }

  /**
   * Gives this thread's counter slot back (a worker leaving): its counts move to the detached
   * threads' block, so `stats()` keeps them, and the slot can serve a later `attach()`. Devices are
   * left open. The object must not be used afterwards.
   */
  detach(): void {
    retireThread(this.#t);
    this.#shared = true;
  }

  // ---------------------------------------------------------------- stats

  /** Counters of one instance. */
  instanceStats(inst: number): BufferPoolStats {
    checkInt('inst', inst, 0, this.instances - 1);
    return readInstanceStats(this.#t.L, inst);
  }

  /** Counters summed over the instances (what SHOW GLOBAL STATUS shows). */
  stats(): BufferPoolStats {
    return poolStats(this.#t);
  }

  /**
   * Spin and OS-wait counts of the pool's latches (instance mutexes and page rw-locks), summed
   * over every thread, as SHOW ENGINE INNODB STATUS prints them.
   */
  latchStats(): LatchCountsSnapshot {
    return (this.#t.cfg.counters as LatchCounters).snapshot();
  }

  /** Zeroes the counters (not the gauges, not freed_page_clock) in every instance. */
  resetStats(): void {
    resetStats(this.#t);
  }

  /** The frames of an instance's LRU list from head to tail, with their old flags (for tests and monitors). */
  lruList(inst = 0): { frames: number[]; old: boolean[]; oldLen: number } {
    return lruList(this.#t, inst);
  }

  /**
   * Checks every invariant of every instance (lists, lengths, old sublist, hash, flush order) and
   * throws an Error describing the first violation. For tests; takes each instance mutex.
   */
  checkValid(): void {
    checkAll(this.#t);
  }
}
