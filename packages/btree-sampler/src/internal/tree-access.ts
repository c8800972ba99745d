/**
 * Page access for one tree: the state and the primitives the tree's operations, cursors, the bulk
 * loader, the write path, the checker and the estimators share. A `BTree` owns one; nothing
 * outside this package sees it (`accessOf` is exported from no public module).
 *
 * Readers couple S latches top-down (fix the child, then unfix the parent) and, moving along a
 * level, release a page before latching its sibling. Optimistic writers (`LeafWriter`, under the
 * index latch in S) couple S latches down to the leaf and X-latch the leaf alone; pessimistic
 * writers (`PathModifier`, under the index latch in X) hold the X-latched path. The latch order
 * that keeps them deadlock-free is written down on `PathModifier`. Every page fix goes through
 * {@link TreeAccess.fixPage}, so `pageFixes` counts the logical page reads the estimators report.
 */
import { compareBytes } from '@enginekit/common';
import { FIL_NULL, FIL_PAGE_TYPE, type LatchMode, type PageStore } from '@enginekit/buffer-pool';
import { readU16, readU32, writeU16, writeU32 } from './bytes.js';
import { LATCH_S, LATCH_X } from '@enginekit/buffer-pool';
import {
  FLAG_CLUSTERED,
  FLAG_TUPLE_KEYS,
  FLAG_TUPLE_VALUES,
  FLAG_UNIQUE,
  nextPage,
  nRecs,
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
  setNextPage,
  setPrevPage,
  slotRec,
} from '../page.js';
import type { IndexLatch } from '../index-latch.js';
import { corruption } from './corruption.js';
import { keyCode, SearchCache } from './search-cache.js';

/** Times one broken sibling link may be found in a row before it is called corruption. */
const STUCK_LIMIT = 8;

export class TreeAccess {
  readonly store: PageStore;
  /** The store's frames (frame f is bytes[f·pageSize, (f+1)·pageSize)). */
  readonly b: Uint8Array;
  readonly ps: number;
  readonly space: number;
  readonly rootPage: number;
  /** PAGE_FLAGS of every page of this tree. */
  readonly flags: number;
  readonly unique: boolean;
  readonly clustered: boolean;
  readonly tupleKeys: boolean;
  readonly tupleValues: boolean;
  /** InnoDB's n_uniq when the index is unique on fewer fields than an entry holds; 0: not given. */
  readonly uniqueFields: number;
  readonly indexId: bigint;
  readonly mergeThreshold: number;
  readonly indexLatch: IndexLatch | null;
  /** Largest key.length + value.length an entry may have: a page must hold at least 4 node pointers. */
  readonly maxEntryBytes: number;
  /** Pages fixed through this tree so far (logical page reads). */
  pageFixes = 0;
  /** Incremented by every write; cursors compare it to know when to re-seek. */
  version = 0;
  /** Writes done on the leaf alone, under the index latch in S (optimistic descents). */
  optimisticWrites = 0;
  /** Optimistic attempts given up because the change needed more than the leaf. */
  optimisticRestarts = 0;
  /** Writes that took the index latch in X and the X-latched path (pessimistic descents). */
  pessimisticWrites = 0;
  readonly sc: SearchCache;

  constructor(
    store: PageStore,
    space: number,
    rootPage: number,
    flags: number,
    indexId: bigint,
    mergeThreshold: number,
    indexLatch: IndexLatch | null,
    uniqueFields: number,
    lsnStamped: boolean,
  ) {
    this.store = store;
    this.b = store.bytes;
    this.ps = store.pageSize;
    this.space = space;
    this.rootPage = rootPage;
    this.flags = flags;
    this.unique = (flags & FLAG_UNIQUE) !== 0;
    this.clustered = (flags & FLAG_CLUSTERED) !== 0;
    this.tupleKeys = (flags & FLAG_TUPLE_KEYS) !== 0;
    this.tupleValues = (flags & FLAG_TUPLE_VALUES) !== 0;
    this.uniqueFields = uniqueFields;
    this.indexId = indexId;
    this.mergeThreshold = mergeThreshold;
    this.indexLatch = indexLatch;
    this.maxEntryBytes = Math.floor(pageCapacity(store.pageSize) / 4) - 2 - REC_HEADER - REC_CHILD - 8;
    this.sc = new SearchCache(store.bytes, store.pageSize, this.unique);
    this.sc.lsnStamped = lsnStamped;
  }

  /** Run `fn` under the index latch in S (directly when the tree has none). */
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

  /**
   * Run `fn` under the index latch in X (directly when the tree has none): a pessimistic write,
   * counted in `pessimisticWrites`.
   */
  writing<T>(fn: () => T): T {
    this.pessimisticWrites++;
    const l = this.indexLatch;
    if (l === null) return fn();
    l.xLock();
    try {
      return fn();
    } finally {
      l.xUnlock();
    }
  }

  /** Fix a page of this tree's space and count it in `pageFixes`. */
  /** The last sibling move found broken (from, to) and how many times in a row. */
  #stuckFrom = -1;
  #stuckTo = -1;
  #stuck = 0;

  fixPage(page: number, latch: LatchMode): number {
    this.pageFixes++;
    return this.store.fix(this.space, page, latch);
  }

  unfixPage(frame: number, latch: LatchMode): void {
    this.store.unfix(frame, latch);
  }

  /**
   * Fixes `child`, the page a node pointer of the fixed page `parent` names, and checks it is a
   * page of this index one level down. With the parent latched no writer can have moved the child
   * meanwhile, so anything else (an all-zero page, a page of another index, a wrong level) is
   * corruption: both pages are released and a CorruptionError names the child (a reader must never
   * decode such a page as records, or follow its links round in circles).
   */
  fixChild(parent: number, child: number, latch: LatchMode): number {
    const b = this.b;
    const ps = this.ps;
    const f = this.fixPage(child, latch);
    const cb = f * ps;
    const want = pageLevel(b, parent * ps) - 1;
    const why =
      readU16(b, cb + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX
        ? 'not a B+tree page'
        : pageIndexId(b, cb) !== this.indexId
          ? `a page of index ${pageIndexId(b, cb)}, not of index ${this.indexId}`
          : pageLevel(b, cb) !== want
            ? `at level ${pageLevel(b, cb)} below a node pointer of level ${want + 1}`
            : null;
    if (why === null) return f;
    this.unfixPage(f, latch);
    this.unfixPage(parent, LATCH_S);
    throw corruption(`${why} (named by page ${pageNo(b, parent * ps)})`, child, this.space);
  }

  /**
   * Compare the record at byte `rec` of the page at `base` with a target: by key, then (non-unique
   * trees, `val` not null) by value.
   */
  compareRec(base: number, rec: number, key: Uint8Array, val: Uint8Array | null): number {
    const b = this.b;
    const kl = recKeyLen(b, base, rec);
    const c = compareBytes(b, base + rec + REC_HEADER, base + rec + REC_HEADER + kl, key, 0, key.length);
    if (c !== 0 || val === null || this.unique) return c;
    return compareBytes(
      b,
      base + rec + REC_HEADER + kl,
      base + rec + REC_HEADER + kl + readU16(b, base + rec + 2),
      val,
      0,
      val.length,
    );
  }

  /** First slot whose record is ≥ the target (`strict`: >), through the search cache. */
  searchPage(base: number, key: Uint8Array, val: Uint8Array | null, strict: boolean): number {
    return this.sc.search(base, key, val, strict, this.version, keyCode(key, 0, key.length));
  }

  /**
   * Descend with S-latch coupling to the leaf that holds the first entry ≥ target (`strict`: >).
   * Returns the S-fixed leaf frame; `out[0]` gets the slot (may equal the record count: the entry is
   * further right). Routing takes the last node pointer < target (≤ when `strict`, or when the
   * target is a whole entry of a unique tree).
   */
  descendS(key: Uint8Array, val: Uint8Array | null, strict: boolean, out: Int32Array): number {
    const b = this.b;
    const ps = this.ps;
    const routeStrict = strict || this.unique || val !== null;
    const code = keyCode(key, 0, key.length);
    const sc = this.sc;
    let frame = this.fixPage(this.rootPage, LATCH_S);
    for (;;) {
      const base = frame * ps;
      if (pageLevel(b, base) === 0) {
        out[0] = sc.search(base, key, val, strict, this.version, code);
        return frame;
      }
      let slot = sc.search(base, key, val, routeStrict, this.version, code) - 1;
      if (slot < 0) slot = 0;
      const child = recChild(b, base, slotRec(b, base, ps, slot));
      const next = this.fixChild(frame, child, LATCH_S);
      this.unfixPage(frame, LATCH_S);
      frame = next;
    }
  }

  /**
   * Descend to the leaf where (key, val) belongs with S-latch coupling on the non-leaf pages and
   * an X latch on the leaf alone (InnoDB's BTR_MODIFY_LEAF), for a change that moves no record.
   * Returns the X-fixed leaf frame. REQUIRES: the caller holds the index latch in S or X (if the
   * tree has one), so no structure change runs meanwhile: the node pointers read on the way down
   * stay true until the leaf is released.
   */
  descendLeafX(key: Uint8Array, val: Uint8Array | null): number {
    const b = this.b;
    const ps = this.ps;
    const routeStrict = this.unique || val !== null;
    const code = keyCode(key, 0, key.length);
    let frame = this.fixPage(this.rootPage, LATCH_S);
    if (pageLevel(b, frame * ps) === 0) {
      // The root is the leaf: take it again in X (no writer can raise it in between: raising
      // the root is a structure change, which needs the index latch in X).
      this.unfixPage(frame, LATCH_S);
      return this.fixPage(this.rootPage, LATCH_X);
    }
    for (;;) {
      const base = frame * ps;
      const level = pageLevel(b, base);
      let slot = this.sc.search(base, key, val, routeStrict, this.version, code) - 1;
      if (slot < 0) slot = 0;
      const child = recChild(b, base, slotRec(b, base, ps, slot));
      const next = this.fixChild(frame, child, level === 1 ? LATCH_X : LATCH_S);
      this.unfixPage(frame, LATCH_S);
      if (level === 1) return next;
      frame = next;
    }
  }

  /** S-fix the leftmost page of `level` (0: the leftmost leaf). REQUIRES: level ≤ root level. */
  leftmostS(level = 0): number {
    const b = this.b;
    const ps = this.ps;
    let frame = this.fixPage(this.rootPage, LATCH_S);
    while (pageLevel(b, frame * ps) > level) {
      const base = frame * ps;
      const next = this.fixChild(frame, recChild(b, base, slotRec(b, base, ps, 0)), LATCH_S);
      this.unfixPage(frame, LATCH_S);
      frame = next;
    }
    return frame;
  }

  /** S-fix the rightmost leaf. */
  rightmostS(): number {
    const b = this.b;
    const ps = this.ps;
    let frame = this.fixPage(this.rootPage, LATCH_S);
    while (pageLevel(b, frame * ps) > 0) {
      const base = frame * ps;
      const last = slotRec(b, base, ps, nRecs(b, base) - 1);
      const next = this.fixChild(frame, recChild(b, base, last), LATCH_S);
      this.unfixPage(frame, LATCH_S);
      frame = next;
    }
    return frame;
  }

  /**
   * Leave the S-fixed page `frame` for its right sibling on the same level, checked: a page of
   * this index, on that level, whose back link names the page left; anything else is corruption (a
   * CorruptionError naming the sibling). Returns -1 at the end of the level. REQUIRES: the index
   * latch (S is enough), so no structure change moves pages meanwhile (estimators, checks).
   */
  nextOnLevelS(frame: number): number {
    const b = this.b;
    const ps = this.ps;
    const base = frame * ps;
    const next = nextPage(b, base);
    const cur = pageNo(b, base);
    const level = pageLevel(b, base);
    this.unfixPage(frame, LATCH_S);
    if (next === FIL_NULL) return -1;
    const nf = this.fixPage(next, LATCH_S);
    const nb = nf * ps;
    const why =
      readU16(b, nb + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX
        ? 'not a B+tree page'
        : pageIndexId(b, nb) !== this.indexId
          ? `a page of index ${pageIndexId(b, nb)}, not of index ${this.indexId}`
          : pageLevel(b, nb) !== level
            ? `at level ${pageLevel(b, nb)}, not ${level}`
            : prevPage(b, nb) !== cur
              ? `its back link names page ${prevPage(b, nb)}`
              : null;
    if (why === null) return nf;
    this.unfixPage(nf, LATCH_S);
    throw corruption(`${why} (the right sibling of page ${cur})`, next, this.space);
  }

  /**
   * Leave the S-fixed leaf `frame` for its right (or left) sibling: unfix it first, then S-fix the
   * sibling, so a reader never waits for a page while holding another on the same level (writers
   * latch siblings in any order). Returns the sibling's frame; -1 at the end of the level; -2 when
   * the sibling is no longer the neighbour of the page left (freed, reused, or a page was split in
   * between) — the caller re-seeks from the root.
   */
  siblingLeafS(frame: number, right: boolean): number {
    const b = this.b;
    const ps = this.ps;
    const base = frame * ps;
    const next = right ? nextPage(b, base) : prevPage(b, base);
    const cur = pageNo(b, base);
    this.unfixPage(frame, LATCH_S);
    return this.siblingOfS(cur, next, right);
  }

  /**
   * {@link siblingLeafS} from a leaf no longer fixed: `cur` the leaf's page number and `next` its
   * link as read (from a copy of the page, say). The same checks that the page is still its
   * neighbour: -1 no sibling, -2 changed meanwhile (search again), else the sibling S-fixed.
   */
  siblingOfS(cur: number, next: number, right: boolean): number {
    const b = this.b;
    const ps = this.ps;
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
      // A change under way ends once the writer releases the pages: the caller's fresh search
      // then finds another neighbour. The same broken link found again and again is no change
      // under way but a damaged level (an all-zero page, a link into another index): corruption,
      // not an endless loop of searches.
      if (this.#stuckFrom === cur && this.#stuckTo === next) {
        if (++this.#stuck >= STUCK_LIMIT) {
          this.#stuck = 0;
          const why =
            readU16(b, nb + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX
              ? 'not a B+tree page'
              : 'not linked back to its neighbour';
          throw corruption(
            `${why} (the ${right ? 'right' : 'left'} sibling of leaf ${cur})`,
            next,
            this.space,
          );
        }
      } else {
        this.#stuckFrom = cur;
        this.#stuckTo = next;
        this.#stuck = 1;
      }
      return -2;
    }
    this.#stuck = 0;
    return nf;
  }

  /** A page for this tree, X-fixed: from the tree's free list, else from the store. REQUIRES: the root is X-fixed. */
  allocPage(rootFrame: number): number {
    const b = this.b;
    const rootBase = rootFrame * this.ps;
    const head = readU32(b, rootBase + PAGE_FREE_LIST);
    if (head === FIL_NULL) return this.store.allocatePage(this.space);
    const frame = this.fixPage(head, LATCH_X);
    writeU32(b, rootBase + PAGE_FREE_LIST, nextPage(b, frame * this.ps));
    this.store.markDirty(rootFrame);
    return frame;
  }

  /** Put an X-fixed page on the tree's free list (the caller unfixes it). */
  freePage(frame: number, rootFrame: number): void {
    const b = this.b;
    const base = frame * this.ps;
    const rootBase = rootFrame * this.ps;
    writeU16(b, base + FIL_PAGE_TYPE, PAGE_TYPE_FREE);
    setPrevPage(b, base, FIL_NULL);
    setNextPage(b, base, readU32(b, rootBase + PAGE_FREE_LIST));
    writeU32(b, rootBase + PAGE_FREE_LIST, pageNo(b, base));
    this.store.markDirty(frame);
    this.store.markDirty(rootFrame);
  }
}

let getAccess: ((tree: object) => TreeAccess) | null = null;

/** Called once by the `BTree` class, which alone can read a tree's access. */
export function provideAccess(fn: (tree: object) => TreeAccess): void {
  getAccess = fn;
}

/** The page access of a `BTree`; a `TypeError` naming `what` for anything else. */
export function accessOf(tree: unknown, what = 'tree'): TreeAccess {
  if (getAccess === null || typeof tree !== 'object' || tree === null) {
    throw new TypeError(`${what} must be a BTree, got ${String(tree)}`);
  }
  return getAccess(tree);
}
