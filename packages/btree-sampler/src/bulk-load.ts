import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_DATA_END } from '@enginekit/buffer-pool';
import { compareBytes, DuplicateKeyError } from '@enginekit/common';
import { OutOfOrderError } from './errors.js';
import { readU32, writeU16, writeU32 } from './internal/bytes.js';
import { LATCH_X } from '@enginekit/buffer-pool';
import { checkTrxId, NO_TRX_ID } from './internal/delete-mark.js';
import type { TreeAccess } from './internal/tree-access.js';
import {
  DIRECTION_RIGHT,
  initPage,
  insertRec,
  nRecs,
  PAGE_DIRECTION,
  PAGE_FLAGS,
  PAGE_FREE_LIST,
  PAGE_LAST_INSERT,
  pageLevel,
  pageNo,
  REC_CHILD,
  REC_HEADER,
  recKeyLen,
  recValLen,
  setNextPage,
  setPageMaxTrxId,
  setPrevPage,
  slotRec,
  totalFree,
} from './page.js';

export interface BulkLoadOptions {
  /**
   * `innodb_fill_factor`: percent of each page filled by the loader, 10–100, default 100. At 100 a
   * clustered index still leaves 1/16 of every page free (`dict_index_get_space_reserve`), a
   * secondary index none; below 100 every page keeps pageSize·(100 − f)/100 bytes free.
   */
  innodb_fill_factor?: number;
  /**
   * PAGE_MAX_TRX_ID of every leaf the loader writes: the id of the transaction that builds the
   * index (InnoDB's `PageBulk` stamps the leaves of a secondary index with it). Default: none, the
   * leaves keep 0. An integer below 2^48.
   */
  maxTrxId?: number;
}

/** What {@link BulkLoader.finish} built. */
export interface BulkLoadResult {
  rootPage: number;
  height: number;
  records: number;
  /** Pages written per level (the top level is then copied into the root page). */
  pagesPerLevel: number[];
}

/** The shape an external sorter feeds: sorted entries in, a tree out. */
export interface BulkLoadSink<R> {
  add(key: Uint8Array, value: Uint8Array): void;
  finish(): R;
}

/**
 * Builds a tree bottom-up from entries in strictly increasing order, as MySQL 5.7's `BtrBulk`:
 * entries are appended to the current page of each level; a full page is linked to a new right
 * sibling and its first key goes up as a node pointer; `finish()` closes every level and copies
 * the single top page into the root page (whose number never changes). No page is searched and
 * no record is moved.
 *
 * The root stays X-fixed, and the index latch (if any) X-locked, from construction to `finish()`
 * (or `abort()`). The current page of each level stays X-fixed while it fills and is marked dirty
 * once, when the loader leaves it (InnoDB's `PageBulk` likewise notes the modification when the
 * page's mini-transaction commits, not per record).
 */
export class BulkLoader implements BulkLoadSink<BulkLoadResult> {
  readonly #tree: TreeAccess;
  readonly #b: Uint8Array;
  readonly #ps: number;
  readonly #reserve: number;
  readonly #trx: number;
  readonly #rootFrame: number;
  readonly #frames: number[] = [];
  readonly #pagesPerLevel: number[] = [];
  #last = new Uint8Array(64);
  #lastLen = -1;
  #lastVal = new Uint8Array(64);
  #lastValLen = 0;
  #records = 0;
  #open = true;

  /** Made by `tree.bulkLoader()`. */
  constructor(tree: TreeAccess, options: BulkLoadOptions = {}) {
    const ff = options.innodb_fill_factor ?? 100;
    if (!Number.isInteger(ff) || ff < 10 || ff > 100)
      throw new RangeError(`innodb_fill_factor must be an integer in [10, 100], got ${String(ff)}`);
    this.#trx = checkTrxId(options.maxTrxId);
    this.#tree = tree;
    this.#b = tree.b;
    this.#ps = tree.ps;
    this.#reserve =
      ff === 100
        ? tree.clustered
          ? Math.floor(this.#ps / 16)
          : 0
        : Math.floor((this.#ps * (100 - ff)) / 100);
    tree.indexLatch?.xLock();
    this.#rootFrame = tree.fixPage(tree.rootPage, LATCH_X);
    const base = this.#rootFrame * this.#ps;
    if (pageLevel(this.#b, base) !== 0 || nRecs(this.#b, base) !== 0) {
      tree.unfixPage(this.#rootFrame, LATCH_X);
      tree.indexLatch?.xUnlock();
      throw new RangeError('bulk load needs an empty tree');
    }
  }

  /** Append an entry. REQUIRES: (key, value) greater than the previous entry (key alone for a unique tree). */
  add(key: Uint8Array, value: Uint8Array): void {
    if (!this.#open) throw new RangeError('bulk loader already finished');
    if (!(key instanceof Uint8Array)) throw new TypeError(`key must be a Uint8Array, got ${String(key)}`);
    if (!(value instanceof Uint8Array))
      throw new TypeError(`value must be a Uint8Array, got ${String(value)}`);
    const t = this.#tree;
    if (key.length + value.length > t.maxEntryBytes) {
      throw new RangeError(
        `key.length + value.length must be at most ${t.maxEntryBytes}, got ${key.length + value.length}`,
      );
    }
    if (this.#lastLen >= 0) {
      let c = compareBytes(key, 0, key.length, this.#last, 0, this.#lastLen);
      if (c === 0 && !t.unique) c = compareBytes(value, 0, value.length, this.#lastVal, 0, this.#lastValLen);
      if (c === 0) throw new DuplicateKeyError(`bulk load: duplicate entry at position ${this.#records}`);
      if (c < 0)
        throw new OutOfOrderError(`bulk load: entry ${this.#records} is smaller than the previous one`);
    }
    if (this.#last.length < key.length) this.#last = new Uint8Array(key.length * 2);
    this.#last.set(key);
    this.#lastLen = key.length;
    if (!t.unique) {
      if (this.#lastVal.length < value.length) this.#lastVal = new Uint8Array(value.length * 2);
      this.#lastVal.set(value);
      this.#lastValLen = value.length;
    }
    this.#insert(0, key, 0, key.length, value, 0, value.length, FIL_NULL);
    this.#records++;
  }

  /** Close every level and install the root. */
  finish(): BulkLoadResult {
    if (!this.#open) throw new RangeError('bulk loader already finished');
    this.#open = false;
    const t = this.#tree;
    const b = this.#b;
    const ps = this.#ps;
    const rootBase = this.#rootFrame * ps;
    for (let level = 0; level < this.#frames.length; level++) {
      const frame = this.#frames[level]!;
      const base = frame * ps;
      writeU16(b, base + PAGE_LAST_INSERT, nRecs(b, base));
      b[base + PAGE_DIRECTION] = DIRECTION_RIGHT;
      if (level === this.#frames.length - 1) {
        const freeHead = readU32(b, rootBase + PAGE_FREE_LIST);
        b.copyWithin(rootBase + FIL_PAGE_DATA, base + FIL_PAGE_DATA, base + ps - FIL_PAGE_DATA_END);
        writeU32(b, rootBase + PAGE_FREE_LIST, freeHead);
        b[rootBase + PAGE_FLAGS] = b[base + PAGE_FLAGS]!;
        t.store.markDirty(this.#rootFrame);
        t.freePage(frame, this.#rootFrame);
        t.unfixPage(frame, LATCH_X);
      } else {
        this.#pushPointer(level, frame);
        t.store.markDirty(frame);
        t.unfixPage(frame, LATCH_X);
      }
    }
    t.unfixPage(this.#rootFrame, LATCH_X);
    t.indexLatch?.xUnlock();
    t.version++;
    return {
      rootPage: t.rootPage,
      height: Math.max(1, this.#frames.length),
      records: this.#records,
      pagesPerLevel: [...this.#pagesPerLevel],
    };
  }

  /** Give up: unfix every page. The pages already written stay allocated; the tree is left empty only if nothing was added. */
  abort(): void {
    if (!this.#open) return;
    this.#open = false;
    // every latch is released even when noting a change fails (a full redo log): the first
    // failure is thrown after
    let failure: unknown;
    for (const f of this.#frames) {
      try {
        // Its records were written without a markDirty each; note the change once before letting go.
        this.#tree.store.markDirty(f);
      } catch (e) {
        failure ??= e;
      }
      this.#tree.unfixPage(f, LATCH_X);
    }
    this.#tree.unfixPage(this.#rootFrame, LATCH_X);
    this.#tree.indexLatch?.xUnlock();
    if (failure !== undefined) throw failure;
  }

  /** Node pointer (first key [+ value], page) of the page in `frame` into level + 1. */
  #pushPointer(level: number, frame: number): void {
    const b = this.#b;
    const base = frame * this.#ps;
    const r0 = slotRec(b, base, this.#ps, 0);
    const kl = recKeyLen(b, base, r0);
    const vl = this.#tree.unique ? 0 : recValLen(b, base, r0);
    const p = base + r0 + REC_HEADER;
    // Copy out: the append below may reorganize nothing, but the key lives in a frame we are about to unfix.
    // The first page of a level gets an empty bound (InnoDB's REC_INFO_MIN_REC_FLAG): keys
    // below its first key that arrive later must route to it.
    if (this.#pagesPerLevel.length <= level + 1) {
      this.#insert(level + 1, EMPTY_SCRATCH, 0, 0, EMPTY_SCRATCH, 0, 0, pageNo(b, base));
      return;
    }
    const sep = b.slice(p, p + kl + vl);
    this.#insert(level + 1, sep, 0, kl, sep, kl, vl, pageNo(b, base));
  }

  #insert(
    level: number,
    key: Uint8Array,
    kOff: number,
    kLen: number,
    val: Uint8Array,
    vOff: number,
    vLen: number,
    child: number,
  ): void {
    const t = this.#tree;
    const b = this.#b;
    const ps = this.#ps;
    if (this.#frames.length <= level) {
      this.#frames.push(this.#newPage(level));
      this.#pagesPerLevel.push(1);
    }
    let frame = this.#frames[level]!;
    let base = frame * ps;
    const need = REC_HEADER + kLen + vLen + (level > 0 ? REC_CHILD : 0) + 2;
    const free = totalFree(b, base, ps);
    const n = nRecs(b, base);
    if (need > free || (n >= 2 && free - need < this.#reserve)) {
      const nf = this.#newPage(level);
      const nBase = nf * ps;
      setNextPage(b, base, pageNo(b, nBase));
      setPrevPage(b, nBase, pageNo(b, base));
      writeU16(b, base + PAGE_LAST_INSERT, n);
      b[base + PAGE_DIRECTION] = DIRECTION_RIGHT;
      this.#frames[level] = nf;
      this.#pagesPerLevel[level]!++;
      this.#pushPointer(level, frame);
      t.store.markDirty(frame);
      t.unfixPage(frame, LATCH_X);
      frame = nf;
      base = nBase;
    }
    // No markDirty here: the page is marked once when the loader leaves it (above, in finish()
    // or in abort()). It stays X-fixed until then, so it cannot be flushed or evicted half-built.
    insertRec(b, base, ps, nRecs(b, base), key, kOff, kLen, val, vOff, vLen, child, EMPTY_SCRATCH);
  }

  #newPage(level: number): number {
    const t = this.#tree;
    const frame = t.allocPage(this.#rootFrame);
    const flags = this.#b[this.#rootFrame * this.#ps + PAGE_FLAGS]!;
    initPage(this.#b, frame * this.#ps, t.space, level, flags, t.indexId);
    if (level === 0 && this.#trx !== NO_TRX_ID) setPageMaxTrxId(this.#b, frame * this.#ps, this.#trx);
    return frame;
  }
}

/** Appends never fragment a page, so insertRec never needs its reorganize buffer here. */
const EMPTY_SCRATCH = new Uint8Array(0);
