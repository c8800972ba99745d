import { DuplicateKeyError } from './errors.js';
import { compareRange, readU16, readU32, writeU16, writeU32 } from './internal/bytes.js';
import {
  FIL_NULL,
  FIL_PAGE_TYPE,
  FLAG_CLUSTERED,
  FLAG_TUPLE_KEYS,
  FLAG_UNIQUE,
  initPage,
  nextPage,
  nRecs,
  PAGE_FLAGS,
  PAGE_FREE_LIST,
  PAGE_TYPE_FREE,
  PAGE_TYPE_INDEX,
  pageCapacity,
  pageIndexId,
  pageLevel,
  pageNo,
  prevPage,
  REC_CHILD,
  REC_HEADER,
  recChild,
  recKeyLen,
  recValLen,
  setNextPage,
  setPrevPage,
  slotRec,
} from './page.js';
import { LATCH_S, LATCH_X, type LatchMode, type PageStore } from './page-store.js';
import { checkTree, type TreeStats, treeStats } from './check.js';
import { Cursor } from './cursor.js';
import { BulkLoader, type BulkLoadOptions } from './bulk-load.js';
import { PathModifier } from './internal/modify.js';
import { SearchCache } from './internal/search-cache.js';

/** Deepest tree the fixed-size path arrays hold (a 16 KiB-page tree of height 40 is unthinkable). */
const _MAX_HEIGHT = 64;
const EMPTY = new Uint8Array(0);

export interface BTreeOptions {
  /** Tablespace id of the pages. Default 0. */
  space?: number;
  /**
   * `true` (default): keys are unique, a second insert of a key throws {@link DuplicateKeyError}.
   * `false`: entries are ordered by (key, value) and only an identical (key, value) is refused —
   * InnoDB's non-unique secondary index, whose records are made unique by the primary key.
   */
  unique?: boolean;
  /** A clustered (primary-key) index: the bulk loader keeps 1/16 of each page free at fill factor 100. Default: `unique`. */
  clustered?: boolean;
  /** Keys were written by `KeyCodec`, so the estimators may split them into fields. Default false (one field). */
  tupleKeys?: boolean;
  /** Index id stamped on every page. Default 1. */
  indexId?: bigint | number;
  /** MERGE_THRESHOLD: a page whose records fill less than this percent of it merges with a sibling. Default 50, range 1–50. */
  mergeThreshold?: number;
  /** The index latch shared by every thread using this tree; see {@link IndexLatch}. Default none (one thread). */
  indexLatch?: IndexLatch;
}

/**
 * The callback of {@link BTree.forEachRangeRaw}: the entry's key is
 * `bytes[keyOffset, keyOffset + keyLength)` and its value `bytes[valueOffset, valueOffset +
 * valueLength)`. Return `false` to stop.
 */
export type RangeRawCallback = (
  bytes: Uint8Array,
  keyOffset: number,
  keyLength: number,
  valueOffset: number,
  valueLength: number,
) => boolean | undefined;

export interface OpenOptions {
  space?: number;
  /** The root page number, as `tree.rootPage` reported when the tree was created. */
  rootPage: number;
  mergeThreshold?: number;
  indexLatch?: IndexLatch;
}

/**
 * The index latch (`dict_index_t::lock`), e.g. a `RWLock` of @enginekit/mutex-atomics living in a
 * SharedArrayBuffer. Writers hold it in X for the whole operation (so writers are serialized);
 * the estimators, `checkValid()` and `stats()` hold it in S, as InnoDB's statistics do. Point
 * reads, cursors and range scans take no index latch: they couple S page latches top-down and,
 * moving along a level, release a page before latching its sibling (re-seeking when the sibling
 * was freed meanwhile), so they never wait on a writer while holding a page it needs.
 */
export interface IndexLatch {
  sLock(): void;
  sUnlock(): void;
  xLock(): void;
  xUnlock(): void;
}

/**
 * A B+tree of byte keys and byte values on pages of a {@link PageStore}.
 *
 * Invariants (verified by {@link BTree.checkValid}):
 * - every leaf is at level 0, a node pointer's child is one level lower, the root has the top level;
 * - on each page the records are strictly increasing (by key; by (key, value) when not unique);
 * - the node pointer in slot i > 0 is a lower bound of its child's subtree and greater than every
 *   entry of the subtree of slot i − 1; slot 0 of a non-leaf page is not used for routing;
 * - the pages of each level are linked left to right through FIL_PAGE_PREV / FIL_PAGE_NEXT;
 * - only the root may be empty; the root page number never changes (a root split copies the root
 *   down, as `btr_root_raise_and_insert`; a one-child root pulls its child up, as `btr_lift_page_up`).
 *
 * Writers fix the path from the root with X latches and hold them until the operation ends;
 * readers couple S latches (fix the child, then unfix the parent). Concurrent writers must be
 * serialized by the caller (the index latch in X mode).
 */
export class BTree {
  readonly store: PageStore;
  readonly space: number;
  readonly rootPage: number;
  readonly pageSize: number;
  readonly unique: boolean;
  readonly clustered: boolean;
  readonly tupleKeys: boolean;
  readonly indexId: bigint;
  readonly mergeThreshold: number;
  readonly indexLatch: IndexLatch | null;
  /** Largest key.length + value.length an entry may have: a page must hold at least 4 node pointers. */
  readonly maxEntryBytes: number;
  /** Pages fixed by this tree so far (logical page reads; the estimators report differences of it). */
  pageFixes = 0;
  /** Incremented by every write; cursors compare it to know when to re-seek. */
  version = 0;

  readonly #b: Uint8Array;
  readonly #ps: number;
  readonly #out = new Int32Array(1);
  /** PAGE_FLAGS of every page of this tree (unique, clustered, tuple keys). */
  readonly flags: number;
  readonly #m: PathModifier;
  readonly #sc: SearchCache;

  private constructor(
    store: PageStore,
    space: number,
    rootPage: number,
    flags: number,
    indexId: bigint,
    mergeThreshold: number,
    indexLatch: IndexLatch | null,
    lsnStamped: boolean,
  ) {
    this.indexLatch = indexLatch;
    this.store = store;
    this.space = space;
    this.rootPage = rootPage;
    this.pageSize = store.pageSize;
    this.#ps = store.pageSize;
    this.#b = store.bytes;
    this.flags = flags;
    this.unique = (flags & FLAG_UNIQUE) !== 0;
    this.clustered = (flags & FLAG_CLUSTERED) !== 0;
    this.tupleKeys = (flags & FLAG_TUPLE_KEYS) !== 0;
    this.indexId = indexId;
    this.mergeThreshold = mergeThreshold;
    this.maxEntryBytes = Math.floor(pageCapacity(store.pageSize) / 4) - 2 - REC_HEADER - REC_CHILD - 8;
    this.#m = new PathModifier(this);
    this.#sc = new SearchCache(store.bytes, store.pageSize, this.unique);
    this.#sc.lsnStamped = lsnStamped;
  }

  /**
   * Create an empty tree: allocates its root page.
   *
   * @example
   * ```ts
   * const tree = BTree.create(pool, { space: 1 });
   * tree.insert(codec.encode([42]), new TextEncoder().encode('answer'));
   * tree.get(codec.encode([42])); // Uint8Array of 'answer'
   * ```
   */
  static create(store: PageStore, options: BTreeOptions = {}): BTree {
    checkStore(store);
    const space = options.space ?? 0;
    checkUint32(space, 'options.space');
    const unique = options.unique ?? true;
    const clustered = options.clustered ?? unique;
    let flags = 0;
    if (unique) flags |= FLAG_UNIQUE;
    if (clustered) flags |= FLAG_CLUSTERED;
    if (options.tupleKeys === true) flags |= FLAG_TUPLE_KEYS;
    const indexId = BigInt(options.indexId ?? 1);
    const mt = checkMergeThreshold(options.mergeThreshold);
    const frame = store.allocatePage(space);
    const base = frame * store.pageSize;
    const root = pageNo(store.bytes, base);
    initPage(store.bytes, base, space, 0, flags, indexId);
    const lsnBefore = store.bytes.slice(base + FIL_PAGE_LSN, base + FIL_PAGE_LSN + 8);
    store.markDirty(frame);
    const stamped = !sameBytes(lsnBefore, store.bytes, base + FIL_PAGE_LSN);
    store.unfix(frame, LATCH_X);
    return new BTree(store, space, root, flags, indexId, mt, checkLatch(options.indexLatch), stamped);
  }

  /** Open an existing tree from its root page (after a restart, from the same file). */
  static open(store: PageStore, options: OpenOptions): BTree {
    checkStore(store);
    const space = options.space ?? 0;
    checkUint32(space, 'options.space');
    checkUint32(options.rootPage, 'options.rootPage');
    const frame = store.fix(space, options.rootPage, LATCH_S);
    const base = frame * store.pageSize;
    try {
      if (readU16(store.bytes, base + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX) {
        throw new RangeError(`options.rootPage: page ${options.rootPage} is not a B+tree page`);
      }
      const flags = store.bytes[base + PAGE_FLAGS]!;
      return new BTree(
        store,
        space,
        options.rootPage,
        flags,
        pageIndexId(store.bytes, base),
        checkMergeThreshold(options.mergeThreshold),
        checkLatch(options.indexLatch),
        false, // until the first insert shows whether the store stamps LSNs
      );
    } finally {
      store.unfix(frame, LATCH_S);
    }
  }

  // ---- the index latch ----

  /** Take the index latch in S (no-op without one). Pair with {@link BTree.unlatchS}. */
  latchS(): void {
    this.indexLatch?.sLock();
  }
  unlatchS(): void {
    this.indexLatch?.sUnlock();
  }
  /** Run `fn` under the index latch in S. */
  reading<T>(fn: () => T): T {
    const l = this.indexLatch;
    if (l === null) return fn();
    l.sLock();
    try {
      return fn();
    } finally {
      l.sUnlock();
    }
  }
  #writing<T>(fn: () => T): T {
    const l = this.indexLatch;
    if (l === null) return fn();
    l.xLock();
    try {
      return fn();
    } finally {
      l.xUnlock();
    }
  }

  // ---- page access shared with cursors, dives and estimators ----

  /** Fix a page of this tree's space and count it in {@link BTree.pageFixes}. */
  fixPage(page: number, latch: LatchMode): number {
    this.pageFixes++;
    return this.store.fix(this.space, page, latch);
  }

  unfixPage(frame: number, latch: LatchMode): void {
    this.store.unfix(frame, latch);
  }

  /**
   * Compare the record at byte `rec` of the page at `base` with a target: by key, then (non-unique
   * trees, `val` not null) by value.
   */
  compareRec(base: number, rec: number, key: Uint8Array, val: Uint8Array | null): number {
    const b = this.#b;
    const kl = readU16(b, base + rec);
    const c = compareRange(b, base + rec + REC_HEADER, kl, key, 0, key.length);
    if (c !== 0 || val === null || this.unique) return c;
    return compareRange(b, base + rec + REC_HEADER + kl, readU16(b, base + rec + 2), val, 0, val.length);
  }

  /**
   * First slot whose record is ≥ the target (`strict`: > the target). Hot path: a page searched
   * again without a change in between is searched over cached key prefixes (see `SearchCache`).
   */
  searchPage(base: number, key: Uint8Array, val: Uint8Array | null, strict: boolean): number {
    return this.#sc.search(base, key, val, strict, this.version);
  }

  /**
   * Descend with S-latch coupling to the leaf that holds the first entry ≥ target (`strict`: >).
   * Returns the S-fixed leaf frame; `out[0]` gets the slot (may equal the record count: the entry is
   * further right). Routing takes the last node pointer < target (≤ when `strict`, or when the
   * target is a whole entry of a unique tree).
   */
  descendS(key: Uint8Array, val: Uint8Array | null, strict: boolean, out: Int32Array): number {
    const b = this.#b;
    const ps = this.#ps;
    const routeStrict = strict || this.unique || val !== null;
    let frame = this.fixPage(this.rootPage, LATCH_S);
    for (;;) {
      const base = frame * ps;
      if (pageLevel(b, base) === 0) {
        out[0] = this.searchPage(base, key, val, strict);
        return frame;
      }
      let slot = this.searchPage(base, key, val, routeStrict) - 1;
      if (slot < 0) slot = 0;
      const child = recChild(b, base, slotRec(b, base, ps, slot));
      const next = this.fixPage(child, LATCH_S);
      this.unfixPage(frame, LATCH_S);
      frame = next;
    }
  }

  // ---- point operations (public: take the index latch, then call the private bodies) ----

  /** The value stored under `key` (the first one in a non-unique tree), copied; undefined if absent. */
  get(key: Uint8Array): Uint8Array | undefined {
    return this.#get(key);
  }

  /** Whether the tree holds `key` (and, when given in a non-unique tree, exactly `value`). */
  has(key: Uint8Array, value?: Uint8Array): boolean {
    return this.#has(key, value);
  }

  /**
   * Insert an entry. Throws {@link DuplicateKeyError} if a unique tree holds the key (a non-unique
   * tree: the same key and value).
   */
  insert(key: Uint8Array, value: Uint8Array): void {
    const l = this.indexLatch;
    if (l === null) {
      this.#insert(key, value);
      return;
    }
    l.xLock();
    try {
      this.#insert(key, value);
    } finally {
      l.xUnlock();
    }
  }

  /**
   * Delete an entry; in a non-unique tree `value` picks which (default: the first with the key).
   * Underfull pages merge with a sibling. Returns whether an entry was removed.
   */
  delete(key: Uint8Array, value?: Uint8Array): boolean {
    return this.#writing(() => this.#delete(key, value));
  }

  /**
   * Replace the value of `key`. A unique tree overwrites in place when the length is unchanged,
   * otherwise deletes and re-inserts; a non-unique tree needs `oldValue` (the value orders the entry).
   * Returns whether the entry existed.
   */
  update(key: Uint8Array, value: Uint8Array, oldValue?: Uint8Array): boolean {
    return this.#writing(() => this.#update(key, value, oldValue));
  }

  // ---- private bodies ----

  /** The value stored under `key` (the first one in a non-unique tree), copied; undefined if absent. */
  #get(key: Uint8Array): Uint8Array | undefined {
    checkBytes(key, 'key');
    if (this.unique) {
      const b = this.#b;
      const ps = this.#ps;
      // One S-coupled descent, no cursor.
      const frame = this.descendS(key, null, false, this.#out);
      const base = frame * ps;
      const slot = this.#out[0]!;
      let found: Uint8Array | undefined;
      if (slot < nRecs(b, base)) {
        const rec = slotRec(b, base, ps, slot);
        const kl = recKeyLen(b, base, rec);
        if (compareRange(b, base + rec + REC_HEADER, kl, key, 0, key.length) === 0) {
          const p = base + rec + REC_HEADER + kl;
          found = b.slice(p, p + recValLen(b, base, rec));
        }
      }
      this.unfixPage(frame, LATCH_S);
      return found;
    }
    const c = new Cursor(this);
    if (!c.seek(key, 'eq')) return undefined;
    return c.value();
  }

  /** Whether the tree holds `key` (and, when given in a non-unique tree, exactly `value`). */
  #has(key: Uint8Array, value?: Uint8Array): boolean {
    checkBytes(key, 'key');
    if (value === undefined || this.unique) return this.#get(key) !== undefined;
    checkBytes(value, 'value');
    const out = new Int32Array(1);
    const frame = this.descendS(key, value, false, out);
    const base = frame * this.#ps;
    const n = nRecs(this.#b, base);
    const found =
      out[0]! < n && this.compareRec(base, slotRec(this.#b, base, this.#ps, out[0]!), key, value) === 0;
    this.unfixPage(frame, LATCH_S);
    return found;
  }

  /**
   * Insert an entry. Throws {@link DuplicateKeyError} if a unique tree holds the key (a non-unique
   * tree: the same key and value).
   */
  #insert(key: Uint8Array, value: Uint8Array): void {
    this.#checkEntry(key, value);
    this.#m.descendX(key, value);
    try {
      const d = this.#m.depth - 1;
      const base = this.#m.frames[d]! * this.#ps;
      const slot = this.#sc.searchUncached(base, key, value, false);
      if (
        slot < nRecs(this.#b, base) &&
        this.compareRec(base, slotRec(this.#b, base, this.#ps, slot), key, value) === 0
      ) {
        throw new DuplicateKeyError(
          `duplicate key ${hex(key)}${this.unique ? '' : ` with value ${hex(value)}`}`,
        );
      }
      this.version++;
      if (!this.#sc.lsnStamped) {
        const lsnAt = this.#m.frames[d]! * this.#ps + FIL_PAGE_LSN;
        const lsnBefore = this.#b.slice(lsnAt, lsnAt + 8);
        this.#m.insertAt(d, slot, key, 0, key.length, value, 0, value.length, FIL_NULL);
        this.#sc.lsnStamped = !sameBytes(lsnBefore, this.#b, lsnAt);
      } else this.#m.insertAt(d, slot, key, 0, key.length, value, 0, value.length, FIL_NULL);
    } finally {
      this.#m.unfixPath();
    }
  }

  /**
   * Delete an entry; in a non-unique tree `value` picks which (default: the first with the key).
   * Underfull pages merge with a sibling. Returns whether an entry was removed.
   */
  #delete(key: Uint8Array, value?: Uint8Array): boolean {
    checkBytes(key, 'key');
    let val: Uint8Array | null = null;
    if (!this.unique) {
      if (value === undefined) {
        const c = new Cursor(this);
        if (!c.seek(key, 'eq')) return false;
        val = c.value();
      } else {
        checkBytes(value, 'value');
        val = value;
      }
    }
    this.#m.descendX(key, val ?? EMPTY);
    try {
      const d = this.#m.depth - 1;
      const base = this.#m.frames[d]! * this.#ps;
      const slot = this.#sc.searchUncached(base, key, val, false);
      if (
        slot >= nRecs(this.#b, base) ||
        this.compareRec(base, slotRec(this.#b, base, this.#ps, slot), key, val) !== 0
      ) {
        return false;
      }
      this.version++;
      this.#m.removeAt(d, slot);
      return true;
    } finally {
      this.#m.unfixPath();
    }
  }

  /**
   * Replace the value of `key`. A unique tree overwrites in place when the length is unchanged,
   * otherwise deletes and re-inserts; a non-unique tree needs `oldValue` (the value orders the entry).
   * Returns whether the entry existed.
   */
  #update(key: Uint8Array, value: Uint8Array, oldValue?: Uint8Array): boolean {
    this.#checkEntry(key, value);
    if (!this.unique) {
      if (oldValue === undefined) throw new TypeError('oldValue is required to update a non-unique tree');
      if (!this.#delete(key, oldValue)) return false;
      this.#insert(key, value);
      return true;
    }
    this.#m.descendX(key, value);
    let sameLength = false;
    try {
      const d = this.#m.depth - 1;
      const base = this.#m.frames[d]! * this.#ps;
      const slot = this.#sc.searchUncached(base, key, null, false);
      if (slot >= nRecs(this.#b, base)) return false;
      const rec = slotRec(this.#b, base, this.#ps, slot);
      if (this.compareRec(base, rec, key, null) !== 0) return false;
      if (recValLen(this.#b, base, rec) === value.length) {
        this.#b.set(value, base + rec + REC_HEADER + key.length);
        this.store.markDirty(this.#m.frames[d]!);
        this.version++;
        sameLength = true;
      }
    } finally {
      this.#m.unfixPath();
    }
    if (!sameLength) {
      this.#delete(key);
      this.#insert(key, value);
    }
    return true;
  }

  /** A cursor positioned nowhere; see {@link Cursor}. */
  cursor(): Cursor {
    return new Cursor(this);
  }

  /**
   * Call `fn(key, value)` for each entry with lo ≤ key < hi (null: unbounded) in key order; the
   * arrays are views into the page, valid only during the call. Return `false` to stop.
   * The leaf stays S-latched during its callbacks: do not write to the tree from `fn`.
   * Creates two views per entry; {@link BTree.forEachRangeRaw} creates none.
   */
  forEachRange(
    lo: Uint8Array | null,
    hi: Uint8Array | null,
    fn: (key: Uint8Array, value: Uint8Array) => boolean | undefined,
  ): number {
    return this.#forEachRange(lo, hi, fn, null);
  }

  /**
   * {@link BTree.forEachRange} without views: `fn(bytes, keyOffset, keyLength, valueOffset,
   * valueLength)` gets the store's whole byte array and where the entry lies in it, valid only
   * during the call (the page is S-latched; do not write to the tree or keep the offsets).
   * Returns the number of entries passed to `fn`.
   *
   * @example
   * ```ts
   * let bytes = 0;
   * tree.forEachRangeRaw(null, null, (b, ko, kl, vo, vl) => {
   *   bytes += kl + vl;
   *   return undefined;
   * });
   * ```
   */
  forEachRangeRaw(lo: Uint8Array | null, hi: Uint8Array | null, fn: RangeRawCallback): number {
    if (typeof fn !== 'function') throw new TypeError(`fn must be a function, got ${String(fn)}`);
    return this.#forEachRange(lo, hi, null, fn);
  }

  #forEachRange(
    lo: Uint8Array | null,
    hi: Uint8Array | null,
    fn: ((key: Uint8Array, value: Uint8Array) => boolean | undefined) | null,
    raw: RangeRawCallback | null,
  ): number {
    const b = this.#b;
    const ps = this.#ps;
    const out = new Int32Array(1);
    // The bound below which everything was already returned: lo (inclusive) at first, then the
    // last entry of each page left behind (exclusive). Moving right releases the page first, so a
    // writer may split, merge or free pages in between; the bound re-positions the scan.
    let boundKey: Uint8Array | null = lo;
    let boundVal: Uint8Array | null = null;
    let boundStrict = false;
    let frame: number;
    if (lo === null) {
      frame = this.#leftmostLeafS();
      out[0] = 0;
    } else frame = this.descendS(lo, null, false, out);
    let slot = out[0]!;
    let count = 0;
    for (;;) {
      const base = frame * ps;
      const n = nRecs(b, base);
      for (; slot < n; slot++) {
        const rec = slotRec(b, base, ps, slot);
        const kl = recKeyLen(b, base, rec);
        const k0 = base + rec + REC_HEADER;
        if (hi !== null && compareRange(b, k0, kl, hi, 0, hi.length) >= 0) {
          this.unfixPage(frame, LATCH_S);
          return count;
        }
        count++;
        const vl = recValLen(b, base, rec);
        const go =
          raw !== null
            ? raw(b, k0, kl, k0 + kl, vl)
            : fn!(b.subarray(k0, k0 + kl), b.subarray(k0 + kl, k0 + kl + vl));
        if (go === false) {
          this.unfixPage(frame, LATCH_S);
          return count;
        }
      }
      if (n > 0) {
        const rec = slotRec(b, base, ps, n - 1);
        const kl = recKeyLen(b, base, rec);
        const k0 = base + rec + REC_HEADER;
        boundKey = b.slice(k0, k0 + kl);
        boundVal = this.unique ? null : b.slice(k0 + kl, k0 + kl + recValLen(b, base, rec));
        boundStrict = true;
      }
      const nf = this.siblingLeafS(frame, true);
      if (nf === -1) return count;
      if (nf === -2) {
        // The right sibling changed under us: search again for the first entry past the bound.
        if (boundKey === null) {
          frame = this.#leftmostLeafS();
          slot = 0;
        } else {
          frame = this.descendS(boundKey, boundVal, boundStrict, out);
          slot = out[0]!;
        }
        continue;
      }
      frame = nf;
      // Skip what a concurrent split may have moved here from the page we left.
      slot = boundKey === null ? 0 : this.searchPage(frame * ps, boundKey, boundVal, boundStrict);
    }
  }

  /**
   * Leave the S-fixed leaf `frame` for its right (or left) sibling: unfix it first, then S-fix the
   * sibling, so a reader never waits for a page while holding another on the same level (writers
   * latch siblings in any order). Returns the sibling's frame; -1 at the end of the level; -2 when
   * the sibling is no longer the neighbour of the page left (freed, reused, or a page was split in
   * between) — the caller re-seeks from the root.
   */
  siblingLeafS(frame: number, right: boolean): number {
    const b = this.#b;
    const ps = this.#ps;
    const base = frame * ps;
    const next = right ? nextPage(b, base) : prevPage(b, base);
    const cur = pageNo(b, base);
    this.unfixPage(frame, LATCH_S);
    if (next === FIL_NULL) return -1;
    const nf = this.fixPage(next, LATCH_S);
    const nb = nf * ps;
    // Still our neighbour: a B+tree leaf of this index whose back link points at the page we left
    // (a page freed and reused elsewhere, or a split in between, fails this).
    if (
      readU16(b, nb + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX ||
      pageLevel(b, nb) !== 0 ||
      (right ? prevPage(b, nb) : nextPage(b, nb)) !== cur ||
      pageIndexId(b, nb) !== this.indexId
    ) {
      this.unfixPage(nf, LATCH_S);
      return -2;
    }
    return nf;
  }

  /** Entries with lo ≤ key < hi as copied [key, value] pairs (convenient, allocates per entry). */
  *entries(lo: Uint8Array | null = null, hi: Uint8Array | null = null): Generator<[Uint8Array, Uint8Array]> {
    const c = this.cursor();
    let ok = lo === null ? c.first() : c.seek(lo, 'ge');
    while (ok) {
      const k = c.key();
      if (hi !== null && compareRange(k, 0, k.length, hi, 0, hi.length) >= 0) return;
      yield [k, c.value()];
      ok = c.next();
    }
  }

  /** Start a bottom-up bulk load into this tree. REQUIRES: the tree is empty. */
  bulkLoader(options: BulkLoadOptions = {}): BulkLoader {
    return new BulkLoader(this, options);
  }

  /** Walk the whole tree and throw {@link CorruptionError} at the first broken invariant; returns the stats. */
  checkValid(): TreeStats {
    return this.reading(() => checkTree(this));
  }

  /** Height, pages and records per level, fill and size. Reads every page. */
  stats(): TreeStats {
    return this.reading(() => treeStats(this));
  }

  /** S-fix the leftmost leaf. */
  #leftmostLeafS(): number {
    const b = this.#b;
    let frame = this.fixPage(this.rootPage, LATCH_S);
    for (;;) {
      const base = frame * this.#ps;
      if (pageLevel(b, base) === 0) return frame;
      const child = recChild(b, base, slotRec(b, base, this.#ps, 0));
      const next = this.fixPage(child, LATCH_S);
      this.unfixPage(frame, LATCH_S);
      frame = next;
    }
  }

  // ---- the write path ----

  #checkEntry(key: Uint8Array, value: Uint8Array): void {
    checkBytes(key, 'key');
    checkBytes(value, 'value');
    if (key.length + value.length > this.maxEntryBytes) {
      throw new RangeError(
        `key.length + value.length must be at most ${this.maxEntryBytes} for ${this.#ps}-byte pages, got ${key.length + value.length}`,
      );
    }
  }

  /** A page for this tree, X-fixed: from the tree's free list, else from the store. REQUIRES: the root is X-fixed. */
  allocPage(rootFrame: number): number {
    const b = this.#b;
    const rootBase = rootFrame * this.#ps;
    const head = readU32(b, rootBase + PAGE_FREE_LIST);
    if (head === FIL_NULL) return this.store.allocatePage(this.space);
    const frame = this.fixPage(head, LATCH_X);
    writeU32(b, rootBase + PAGE_FREE_LIST, nextPage(b, frame * this.#ps));
    this.store.markDirty(rootFrame);
    return frame;
  }

  /** Put an X-fixed page on the tree's free list (the caller unfixes it). */
  freePage(frame: number, rootFrame: number): void {
    const b = this.#b;
    const base = frame * this.#ps;
    const rootBase = rootFrame * this.#ps;
    writeU16(b, base + FIL_PAGE_TYPE, PAGE_TYPE_FREE);
    setPrevPage(b, base, FIL_NULL);
    setNextPage(b, base, readU32(b, rootBase + PAGE_FREE_LIST));
    writeU32(b, rootBase + PAGE_FREE_LIST, pageNo(b, base));
    this.store.markDirty(frame);
    this.store.markDirty(rootFrame);
  }
}

function checkLatch(l: IndexLatch | undefined): IndexLatch | null {
  if (l === undefined) return null;
  if (typeof l !== 'object' || l === null || typeof l.sLock !== 'function' || typeof l.xLock !== 'function') {
    throw new TypeError(`indexLatch must have sLock/sUnlock/xLock/xUnlock, got ${String(l)}`);
  }
  return l;
}

function checkStore(store: PageStore): void {
  if (typeof store !== 'object' || store === null || typeof store.fix !== 'function') {
    throw new TypeError(`store must implement PageStore, got ${String(store)}`);
  }
  if (!Number.isInteger(store.pageSize) || store.pageSize < 256 || store.pageSize > 65536) {
    throw new RangeError(`store.pageSize must be an integer in [256, 65536], got ${String(store.pageSize)}`);
  }
}

function checkUint32(v: number, what: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new TypeError(`${what} must be an integer, got ${String(v)}`);
  if (v < 0 || v >= FIL_NULL) throw new RangeError(`${what} must be in [0, 2^32 - 1), got ${v}`);
}

function checkMergeThreshold(v: number | undefined): number {
  if (v === undefined) return 50;
  if (!Number.isInteger(v) || v < 1 || v > 50)
    throw new RangeError(`mergeThreshold must be an integer in [1, 50], got ${String(v)}`);
  return v;
}

function checkBytes(v: unknown, what: string): void {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array, got ${String(v)}`);
}

/** FIL_PAGE_LSN: the envelope's newest-modification LSN (8 bytes), stamped by the store's markDirty. */
const FIL_PAGE_LSN = 16;

function sameBytes(a: Uint8Array, b: Uint8Array, off: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[off + i]) return false;
  return true;
}

function hex(a: Uint8Array): string {
  let s = '';
  for (let i = 0; i < a.length && i < 32; i++) s += a[i]!.toString(16).padStart(2, '0');
  return a.length > 32 ? `${s}…` : s;
}
