import type { BufferPool, LatchMode, PageStore } from '@enginekit/buffer-pool';
import {
  FIL_PAGE_LSN,
  FIL_PAGE_NEXT,
  FIL_PAGE_TYPE_ALLOCATED,
  readUint32BE,
  setPageType,
  writeUint32BE,
} from '@enginekit/buffer-pool';
import { MLOG_MTR_END, MLOG_NOOP, MLOG_PAGE_BYTES, writeU16, writeU32 } from './format.js';
import { copyLsnFields, logPageDiff, logPageInit, RecordBuilder } from './page-diff.js';
import type { RedoLog } from './redo-log.js';
import { takeFreePage } from '../fsp.js';

const LATCH_X: LatchMode = 2;
/** Top byte of a provisional page LSN written while an mtr runs (bit 62 set: no real LSN has it). */
const PROVISIONAL_TOP = 0x40;

/**
 * Mini-transactions (`mtr_t`) as a {@link PageStore} in front of the buffer pool: the trees and the
 * catalog write through it, and it turns their page changes into redo.
 *
 * Between {@link begin} and {@link commit}, every page X-fixed (or allocated) enters the memo with a
 * copy of its image and stays fixed and X-latched until commit, whatever `unfix` calls the page
 * code makes; later fixes of a memo page are served from the memo. `markDirty` only notes the
 * page and stamps a provisional LSN (so the trees' search caches see a change). At commit each
 * memo page that differs from its copy gets an MLOG_PAGE_BYTES record (new pages an
 * MLOG_PAGE_INIT first); the records go to the log as one piece, and the pages get their LSNs:
 * oldest modification = start (if clean), newest = end − 1. {@link rollback} puts every memo page
 * back as it was.
 *
 * Nesting: `begin` inside an mtr joins it (only the outermost commit commits). Without a redo log
 * (`redo` null) the store passes everything through to the pool. A `markDirty` outside any mtr
 * logs the whole page as an mtr of its own (bulk loaders, which leave each page once).
 *
 * One MtrStore per thread (each thread of a server has its own over the shared pool and the shared
 * redo log). REQUIRES: no page is S-fixed by the caller when the mtr X-fixes it.
 *
 * Threads that change pages of one database at once share a {@link changeLatch}: an outermost
 * mtr runs under it, and so does a whole row operation ({@link hold}: its reads, lock checks,
 * undo record and per-index mtrs), so page changes of different threads never interleave while
 * everything else their statements do (parsing, planning, reads, lock waits, commit's log flush)
 * runs in parallel. Latch order: the change latch before any page latch; a thread holding a page
 * latch never asks for it.
 */
export class MtrStore implements PageStore {
  readonly pageSize: number;
  readonly bytes: Uint8Array;
  readonly pool: BufferPool;
  readonly redo: RedoLog | null;
  #depth = 0;
  /**
   * The mutex page changes of every thread sharing the database run under; null: this thread is
   * the only one that changes pages.
   */
  changeLatch: { lock(): void; unlock(): void } | null = null;
  /** Nesting of {@link hold} and outermost mtrs on this thread (the latch is held while > 0). */
  #holds = 0;
  /** In an unlogged section (bulk builds): changes are stamped with this LSN, nothing is logged. */
  #unloggedLsn = 0n;
  #n = 0;
  #frames = new Int32Array(16);
  #spaces = new Int32Array(16);
  #pages = new Uint32Array(16);
  /** 1: allocated by the mtr; 2: taken off the free list by it; 0: an existing page. */
  #isNew = new Uint8Array(16);
  /** For a page taken off the free list: its free-list link, restored by a rollback. */
  #freeNext = new Uint32Array(16);
  #changed = new Uint8Array(16);
  #copies: Uint8Array;
  #copies32: Int32Array;
  readonly #pool32: Int32Array;
  readonly #rec = new RecordBuilder();
  /** Low 32 bits of the next provisional LSN (bytes 1–3 stay 0). */
  #provisional = 0;
  /**
   * Called with a page count before each allocation: makes the data file hold that many pages
   * (see storage/file-extend.ts), or throws (a full disk). Null: the pool's device grows by itself.
   */
  reserve: ((pages: number) => void) | null = null;
  /** Take pages from the database's free list (fsp.ts) before growing the file. */
  reuse = false;

  /** Mini-transactions committed with records, and pages they logged (for the bench). */
  mtrs = 0;
  pagesLogged = 0;

  constructor(pool: BufferPool, redo: RedoLog | null) {
    this.pool = pool;
    this.redo = redo;
    this.pageSize = pool.pageSize;
    this.bytes = pool.bytes;
    const pb = pool.bytes;
    if (pb.byteOffset % 4 !== 0) throw new RangeError("the pool's page bytes are not 4-byte aligned");
    this.#pool32 = new Int32Array(pb.buffer, pb.byteOffset, pb.length / 4);
    this.#copies = new Uint8Array(16 * pool.pageSize);
    this.#copies32 = new Int32Array(this.#copies.buffer);
  }

  /** True between the outermost begin and its commit or rollback. */
  get active(): boolean {
    return this.#depth > 0;
  }

  begin(): void {
    if (this.#depth === 0) {
      if (this.redo !== null && this.#unloggedLsn === 0n) this.redo.freeCheck();
      this.#enter();
    }
    this.#depth++;
  }

  /** Runs `fn` under the {@link changeLatch} (re-entrant on this thread). */
  hold<T>(fn: () => T): T {
    if (this.changeLatch === null) return fn();
    this.#enter();
    try {
      return fn();
    } finally {
      this.#leave();
    }
  }

  #enter(): void {
    if (this.changeLatch !== null && this.#holds++ === 0) this.changeLatch.lock();
  }

  #leave(): void {
    if (this.changeLatch !== null && --this.#holds === 0) this.changeLatch.unlock();
  }

  // ---------------------------------------------------------------- the page store

  fix(space: number, pageNo: number, latch: LatchMode): number {
    if (this.#depth === 0 || this.redo === null || this.#unloggedLsn !== 0n)
      return this.pool.fix(space, pageNo, latch);
    for (let i = 0; i < this.#n; i++) {
      if (this.#pages[i] === pageNo && this.#spaces[i] === space) return this.#frames[i]!;
    }
    if (latch !== LATCH_X) return this.pool.fix(space, pageNo, latch);
    const f = this.pool.fix(space, pageNo, LATCH_X);
    this.#remember(f, space, pageNo, false);
    return f;
  }

  unfix(frame: number, latch: LatchMode): void {
    if (this.#depth > 0 && this.redo !== null && this.#unloggedLsn === 0n) {
      for (let i = 0; i < this.#n; i++) if (this.#frames[i] === frame) return;
    }
    this.pool.unfix(frame, latch);
  }

  allocatePage(space: number): number {
    // a freed page first (the file-space free list in page 0)
    if (this.reuse && (this.#depth > 0 || this.redo === null) && this.pool.spaceSize(space) > 0) {
      const f = this.#unloggedLsn === 0n ? takeFreePage(this) : this.#takeFreeUnlogged(space);
      if (f >= 0) {
        if (this.#unloggedLsn === 0n) this.#reused(f);
        return f;
      }
    }
    // the file has real blocks for the page before the pool hands it out, so a full disk fails
    // this allocation (and the statement behind it), never a later page write
    if (this.reserve !== null) this.reserve(this.pool.spaceSize(space) + 1);
    if (this.redo === null) return this.pool.allocatePage(space);
    if (this.#unloggedLsn !== 0n) return this.pool.allocatePage(space, this.#unloggedLsn);
    if (this.#depth === 0) return this.pool.allocatePage(space, this.redo.lsn);
    // A boundary LSN no later than this mtr's start: the page's oldest modification.
    const f = this.pool.allocatePage(space, this.redo.lsn);
    this.#remember(f, space, this.pool.framePageNo(f), true);
    return f;
  }

  markDirty(frame: number, lsn?: bigint): void {
    if (this.redo === null) {
      this.pool.markDirty(frame, lsn);
      return;
    }
    if (this.#unloggedLsn !== 0n) {
      this.pool.markDirty(frame, this.#unloggedLsn);
      return;
    }
    if (this.#depth === 0) {
      this.#logImage(frame);
      return;
    }
    let i = 0;
    while (i < this.#n && this.#frames[i] !== frame) i++;
    if (i === this.#n) throw new Error(`frame ${frame} was changed without an X fix in the mini-transaction`);
    this.#changed[i] = 1;
    const v = (this.#provisional = (this.#provisional + 1) >>> 0);
    const b = this.bytes;
    const at = frame * this.pageSize + FIL_PAGE_LSN;
    b[at] = PROVISIONAL_TOP;
    b[at + 1] = 0;
    b[at + 2] = 0;
    b[at + 3] = 0;
    writeU32(b, at + 4, v);
  }

  /**
   * A change made outside any mtr (a bulk loader marking a finished page, a test editing a tree
   * directly): the page is logged whole, as its own mtr (MLOG_PAGE_INIT + one MLOG_PAGE_BYTES of
   * every byte), so recovery can rebuild it from the log alone. Crash-safe per page, not across
   * pages; the caller holds the X latch.
   */
  #logImage(frame: number): void {
    const redo = this.redo!;
    const ps = this.pageSize;
    const rec = this.#rec;
    rec.reset();
    const space = this.pool.frameSpace(frame);
    const pageNo = this.pool.framePageNo(frame);
    logPageInit(rec, space, pageNo);
    rec.u8(MLOG_PAGE_BYTES);
    rec.u32(space);
    rec.u32(pageNo);
    rec.reserve(6 + ps);
    writeU16(rec.bytes, rec.length, 1);
    writeU16(rec.bytes, rec.length + 2, 0);
    writeU16(rec.bytes, rec.length + 4, ps - 1);
    rec.length += 6;
    rec.copy(this.bytes, frame * ps, ps);
    rec.u8(MLOG_MTR_END);
    redo.append(rec.bytes, rec.length, (start, end) => {
      if (!this.pool.isDirty(frame)) this.pool.markDirty(frame, start);
      this.pool.markDirty(frame, end - 1n);
    });
    this.mtrs++;
    this.pagesLogged++;
  }

  #remember(f: number, space: number, pageNo: number, isNew: boolean): void {
    const n = this.#n;
    if (n === this.#frames.length) this.#growMemo();
    this.#frames[n] = f;
    this.#spaces[n] = space;
    this.#pages[n] = pageNo;
    this.#isNew[n] = isNew ? 1 : 0;
    this.#changed[n] = 0;
    const w = this.pageSize >> 2;
    this.#copies32.set(this.#pool32.subarray(f * w, (f + 1) * w), n * w);
    this.#n = n + 1;
  }

  /**
   * A free page for an unlogged section: taken off the free list by a logged mini-transaction of
   * its own (the list in page 0 is shared, and the page comes back formatted as a new page, so a
   * crash before the section's pages are written leaves it formatted and unreferenced, never on the
   * list twice), then X-fixed again for the section. The section's later changes are stamped after
   * that mini-transaction (a new MLOG_NOOP), so recovery, which applies a record only to a page
   * older than it, never formats the page again over what the section wrote. −1: the list is empty.
   */
  #takeFreeUnlogged(space: number): number {
    const section = this.#unloggedLsn;
    const depth = this.#depth;
    this.#unloggedLsn = 0n;
    this.#depth = 0;
    let pageNo = -1;
    try {
      this.begin();
      try {
        const f = takeFreePage(this);
        if (f >= 0) {
          this.#reused(f);
          pageNo = this.pool.framePageNo(f);
        }
      } catch (e) {
        this.rollback();
        throw e;
      }
      this.commit();
    } finally {
      this.#depth = depth;
      this.#unloggedLsn = section;
    }
    if (pageNo < 0) return -1;
    this.#unloggedLsn = this.#noop();
    const f = this.pool.fix(space, pageNo, LATCH_X);
    this.pool.markDirty(f, this.#unloggedLsn);
    return f;
  }

  /**
   * A page just taken off the free list and formatted: logged as a new page (MLOG_PAGE_INIT, then
   * only what its user writes), not as a diff against its old contents. Its free-list link is
   * kept so that a rollback leaves it a well-formed free page again.
   */
  #reused(f: number): void {
    let i = this.#n - 1;
    while (i >= 0 && this.#frames[i] !== f) i--;
    if (i < 0) return;
    const ps = this.pageSize;
    this.#freeNext[i] = readUint32BE(this.#copies, i * ps + FIL_PAGE_NEXT);
    this.#isNew[i] = 2;
    this.#copies.set(this.bytes.subarray(f * ps, (f + 1) * ps), i * ps);
  }

  #growMemo(): void {
    const cap = this.#frames.length * 2;
    const grow = <T extends Int32Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.#frames = grow(this.#frames, (k) => new Int32Array(k));
    this.#spaces = grow(this.#spaces, (k) => new Int32Array(k));
    this.#pages = grow(this.#pages, (k) => new Uint32Array(k));
    this.#isNew = grow(this.#isNew, (k) => new Uint8Array(k));
    this.#freeNext = grow(this.#freeNext, (k) => new Uint32Array(k));
    this.#changed = grow(this.#changed, (k) => new Uint8Array(k));
    const copies = new Uint8Array(cap * this.pageSize);
    copies.set(this.#copies);
    this.#copies = copies;
    this.#copies32 = new Int32Array(copies.buffer);
  }

  // ---------------------------------------------------------------- commit and rollback

  /** Ends the mtr (the outermost `begin`): logs its changes, stamps the pages, releases them. */
  commit(): void {
    if (this.#depth === 0) throw new Error('MtrStore.commit without begin');
    if (--this.#depth > 0) return;
    try {
      this.#commit();
    } finally {
      this.#leave();
    }
  }

  #commit(): void {
    const redo = this.redo;
    if (redo === null || this.#unloggedLsn !== 0n) return;
    const ps = this.pageSize;
    const b = this.bytes;
    const rec = this.#rec;
    rec.reset();
    let pages = 0;
    let appended = false;
    try {
      for (let i = 0; i < this.#n; i++) {
        // A page the tree never marked dirty did not change (every change is followed by
        // markDirty, which the pool's flushing relies on too); only new pages are logged anyway.
        if (this.#changed[i] === 0 && this.#isNew[i] === 0) continue;
        const f = this.#frames[i]!;
        // The provisional LSN goes; the real one is set below.
        copyLsnFields(this.#copies, i * ps, b, f * ps, ps);
        if (this.#isNew[i] !== 0) logPageInit(rec, this.#spaces[i]!, this.#pages[i]!);
        const diff = logPageDiff(
          rec,
          this.#spaces[i]!,
          this.#pages[i]!,
          this.#copies,
          i * ps,
          b,
          f * ps,
          ps,
          this.#copies32,
          this.#pool32,
        );
        this.#changed[i] = diff || this.#isNew[i] !== 0 ? 1 : 0;
        if (this.#changed[i] === 1) pages++;
      }
      if (rec.length > 0) {
        rec.u8(MLOG_MTR_END);
        redo.append(rec.bytes, rec.length, this.#onAppended);
        appended = true;
        this.mtrs++;
        this.pagesLogged += pages;
      }
    } catch (e) {
      // The log refused the records (full, or a write error): nothing of the mtr may stay in the
      // pages, since nothing of it is in the log.
      if (!appended) this.#restoreCopies();
      throw e;
    } finally {
      this.#release();
    }
  }

  /** Puts every memo page back to its copy taken at the first X fix (a reused page back on the free list). */
  #restoreCopies(): void {
    const ps = this.pageSize;
    for (let i = 0; i < this.#n; i++) {
      const at = this.#frames[i]! * ps;
      this.bytes.set(this.#copies.subarray(i * ps, (i + 1) * ps), at);
      if (this.#isNew[i] === 2) {
        setPageType(this.bytes, at, FIL_PAGE_TYPE_ALLOCATED);
        writeUint32BE(this.bytes, at + FIL_PAGE_NEXT, this.#freeNext[i]!);
      }
    }
  }

  /**
   * Runs under the log mutex once the mtr's records are in the log buffer at [start, end): the
   * changed pages go on the flush list (oldest modification = start if they were clean, newest =
   * end − 1) before any checkpoint can read the oldest modification.
   */
  readonly #onAppended = (start: bigint, end: bigint): void => {
    const last = end - 1n;
    for (let i = 0; i < this.#n; i++) {
      if (this.#changed[i] !== 1) continue;
      const f = this.#frames[i]!;
      if (!this.pool.isDirty(f)) this.pool.markDirty(f, start);
      this.pool.markDirty(f, last);
    }
  };

  /** Undoes every page change of the mtr (all nesting levels) and releases the pages. */
  rollback(): void {
    if (this.#depth === 0) return;
    if (--this.#depth > 0) return;
    try {
      if (this.redo === null || this.#unloggedLsn !== 0n) return;
      this.#restoreCopies();
      this.#release();
    } finally {
      this.#leave();
    }
  }

  #release(): void {
    const n = this.#n;
    this.#n = 0;
    for (let i = 0; i < n; i++) this.pool.unfix(this.#frames[i]!, LATCH_X);
  }

  /** Appends an mtr of one MLOG_NOOP; returns its start LSN (an unlogged section's stamp). */
  #noop(): bigint {
    const noop = this.#rec;
    noop.reset();
    noop.u8(MLOG_NOOP);
    noop.u32(0);
    noop.u8(MLOG_MTR_END);
    return this.redo!.append(noop.bytes, noop.length);
  }

  /**
   * Runs `fn` without redo (InnoDB's MTR_LOG_NO_REDO for bulk builds): its page changes are
   * stamped with the LSN of an MLOG_NOOP mtr and not logged. REQUIRES: `fn` changes only pages it
   * allocates (new ones, or free ones taken in logged mtrs of their own); the caller makes those
   * pages durable (flush) before logging anything that refers to them. Not nestable inside an mtr.
   */
  unlogged<T>(fn: () => T): T {
    const redo = this.redo;
    if (redo === null) {
      this.begin();
      try {
        return fn();
      } finally {
        if (--this.#depth === 0) this.#leave();
      }
    }
    if (this.#depth > 0) throw new Error('MtrStore.unlogged inside a mini-transaction');
    this.#unloggedLsn = this.#noop();
    this.#depth++;
    try {
      return fn();
    } finally {
      this.#depth--;
      this.#unloggedLsn = 0n;
    }
  }
}
