import { checkPageSize, FIL_NULL, FIL_PAGE_LSN, FIL_PAGE_TYPE, type PageStore } from '@enginekit/buffer-pool';
import { compareBytes, DuplicateKeyError } from '@enginekit/common';
import { BulkLoader, type BulkLoadOptions } from './bulk-load.js';
import { Cursor } from './cursor.js';
import type { IndexLatch } from './index-latch.js';
import { readU16 } from './internal/bytes.js';
import { checkTree, treeStats } from './internal/check.js';
import { checkTrxId, markEntry, NO_TRX_ID } from './internal/delete-mark.js';
import { treePages } from './internal/page-list.js';
import { LATCH_S, LATCH_X } from '@enginekit/buffer-pool';
import { freeListLength, treeShape } from './internal/fields.js';
import { LeafWriter, RESTART } from './internal/leaf-write.js';
import { PathModifier } from './internal/modify.js';
import { provideAccess, TreeAccess } from './internal/tree-access.js';
import {
  FLAG_CLUSTERED,
  FLAG_TUPLE_KEYS,
  FLAG_TUPLE_VALUES,
  FLAG_UNIQUE,
  initPage,
  nRecs,
  PAGE_FLAGS,
  PAGE_TYPE_INDEX,
  pageIndexId,
  pageMaxTrxId,
  nextPage,
  pageNo,
  prevPage,
  raisePageMaxTrxId,
  REC_HEADER,
  recDeleted,
  recKeyLen,
  recValLen,
  slotRec,
  copyLeafSlots,
} from './page.js';
import type { TreeShape, TreeStats } from './tree-stats.js';
import type { WriteStats } from './write-stats.js';

const EMPTY = new Uint8Array(0);
/** Entries a detached walk copies from its first leaf: a point read's, and the one past it. */
const DETACHED_FIRST_COPY = 2;

export interface BTreeOptions {
  /** Tablespace id of the pages. Default 0. */
  space?: number;
  /**
   * `true` (default): keys are unique, a second insert of a key throws `DuplicateKeyError`.
   * `false`: entries are ordered by (key, value) and only an identical (key, value) is refused —
   * InnoDB's non-unique secondary index, whose records are made unique by the primary key.
   */
  unique?: boolean;
  /** A clustered (primary-key) index: the bulk loader keeps 1/16 of each page free at fill factor 100. Default: `unique`. */
  clustered?: boolean;
  /** Keys were written by `KeyCodec` (or `KeyWriter`), so the estimators split them into fields. Default false (one field). */
  tupleKeys?: boolean;
  /**
   * Values of this secondary tree are codec tuples too (the primary-key columns the entry
   * carries), so the estimators count each of their fields, as InnoDB counts every primary-key
   * column of a secondary record. Default false: a non-empty value is one field, an empty value none.
   */
  tupleValues?: boolean;
  /**
   * The index is UNIQUE on its first `uniqueFields` fields although its entries hold more (a
   * secondary tree whose key ends with the primary key): InnoDB's n_uniq of a unique secondary
   * index (`dict_index_build_internal_non_clust`), the prefixes the estimators count. Default:
   * every key field of a unique tree; key and value fields of a non-unique one. Not stored in the
   * tree: pass it again to {@link BTree.open}.
   */
  uniqueFields?: number;
  /** Index id stamped on every page. Default 1. */
  indexId?: bigint | number;
  /** MERGE_THRESHOLD: a page whose records fill less than this percent of it merges with a sibling. Default 50, range 1–50. */
  mergeThreshold?: number;
  /** The index latch shared by every thread using this tree; see {@link IndexLatch}. Default none (one thread). */
  indexLatch?: IndexLatch;
  /**
   * Try each insert, delete and update on its leaf alone first (the optimistic descent; see the
   * class comment). Default true. False sends every one down the pessimistic path at once: for a
   * store whose mini-transactions keep each X-latched page until they commit, where a leaf tried
   * first could not be released before the path above it is latched (a latch taken out of order).
   */
  optimisticWrites?: boolean;
}

/**
 * The callback of {@link BTree.forEachRangeRaw}: the entry's key is
 * `bytes[keyOffset, keyOffset + keyLength)` and its value `bytes[valueOffset, valueOffset +
 * valueLength)`. `isDeleteMarked(bytes, keyOffset)` reads its delete mark and
 * `pageMaxTrxId(bytes, pageBaseOf(keyOffset, tree.pageSize))` its leaf's PAGE_MAX_TRX_ID.
 * Return `false` to stop.
 */
export type RangeRawCallback = (
  bytes: Uint8Array,
  keyOffset: number,
  keyLength: number,
  valueOffset: number,
  valueLength: number,
) => boolean | undefined;

/** What {@link BTree.getRecord} finds: a copy of the value and the entry's delete mark. */
export interface BTreeRecord {
  value: Uint8Array;
  /** The record carries the delete mark (InnoDB's REC_INFO_DELETED_FLAG). */
  deleted: boolean;
}

export interface OpenOptions {
  space?: number;
  /** The root page number, as `tree.rootPage` reported when the tree was created. */
  rootPage: number;
  mergeThreshold?: number;
  indexLatch?: IndexLatch;
  /** As {@link BTreeOptions.optimisticWrites}. */
  optimisticWrites?: boolean;
  /** As {@link BTreeOptions.uniqueFields} (it is not stored in the tree). */
  uniqueFields?: number;
}

/**
 * A B+tree of byte keys and byte values on pages of a `PageStore` (the buffer pool's contract).
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
 * A write first tries the leaf alone (InnoDB's optimistic descent): S latches coupled down the
 * non-leaf levels, an X latch on the leaf, the index latch in S. When the change needs more than
 * the leaf (a split, a merge, an emptied page, a value of another length) it releases everything
 * and starts again pessimistically: the index latch in X and the path from the root X-latched
 * until the operation ends. Readers couple S latches (fix the child, then unfix the parent).
 * Threads sharing a tree share one index latch; writers of different leaves then run in parallel.
 */
export class BTree {
  readonly space: number;
  readonly rootPage: number;
  readonly pageSize: number;
  readonly unique: boolean;
  readonly clustered: boolean;
  readonly tupleKeys: boolean;
  readonly tupleValues: boolean;
  /** {@link BTreeOptions.uniqueFields}; 0 when not given. */
  readonly uniqueFields: number;
  readonly indexId: bigint;
  readonly mergeThreshold: number;
  /** Largest key.length + value.length an entry may have: a page must hold at least 4 node pointers. */
  readonly maxEntryBytes: number;

  readonly #t: TreeAccess;
  readonly #b: Uint8Array;
  readonly #ps: number;
  readonly #out = new Int32Array(1);
  readonly #m: PathModifier;
  readonly #lw: LeafWriter;
  /** {@link BTreeOptions.optimisticWrites}. */
  readonly #optimistic: boolean;
  /** The delete mark and leaf PAGE_MAX_TRX_ID of the entry the last #delete removed. */
  #removedDeleted = false;
  #removedPageMax = 0;

  static {
    provideAccess((tree) => {
      if (!(#t in tree)) throw new TypeError(`tree must be a BTree, got ${String(tree)}`);
      return (tree as BTree).#t;
    });
  }

  private constructor(t: TreeAccess, optimistic = true) {
    this.#t = t;
    this.#b = t.b;
    this.#ps = t.ps;
    this.space = t.space;
    this.rootPage = t.rootPage;
    this.pageSize = t.ps;
    this.unique = t.unique;
    this.clustered = t.clustered;
    this.tupleKeys = t.tupleKeys;
    this.tupleValues = t.tupleValues;
    this.uniqueFields = t.uniqueFields;
    this.indexId = t.indexId;
    this.mergeThreshold = t.mergeThreshold;
    this.maxEntryBytes = t.maxEntryBytes;
    this.#m = new PathModifier(t);
    this.#lw = new LeafWriter(t);
    this.#optimistic = optimistic;
  }

  /** Pages this tree has fixed so far (logical page reads; the estimators report differences of it). */
  get pageFixes(): number {
    return this.#t.pageFixes;
  }

  /** How this object's writes went: leaf-only (optimistic), restarted, pessimistic. See {@link WriteStats}. */
  get writeStats(): WriteStats {
    const t = this.#t;
    return {
      optimistic: t.optimisticWrites,
      restarts: t.optimisticRestarts,
      pessimistic: t.pessimisticWrites,
    };
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
    if (options.tupleValues === true) {
      if (clustered) throw new RangeError('options.tupleValues applies to a secondary (non-clustered) tree');
      flags |= FLAG_TUPLE_VALUES;
    }
    const uf = checkUniqueFields(options.uniqueFields, clustered);
    const indexId = BigInt(options.indexId ?? 1);
    const mt = checkMergeThreshold(options.mergeThreshold);
    const latch = checkLatch(options.indexLatch);
    const frame = store.allocatePage(space);
    const base = frame * store.pageSize;
    const root = pageNo(store.bytes, base);
    initPage(store.bytes, base, space, 0, flags, indexId);
    const lsnBefore = store.bytes.slice(base + FIL_PAGE_LSN, base + FIL_PAGE_LSN + 8);
    store.markDirty(frame);
    const stamped = !sameBytes(lsnBefore, store.bytes, base + FIL_PAGE_LSN);
    store.unfix(frame, LATCH_X);
    return new BTree(
      new TreeAccess(store, space, root, flags, indexId, mt, latch, uf, stamped),
      checkOptimistic(options.optimisticWrites),
    );
  }

  /** Open an existing tree from its root page (after a restart, from the same file). */
  static open(store: PageStore, options: OpenOptions): BTree {
    checkStore(store);
    const space = options.space ?? 0;
    checkUint32(space, 'options.space');
    checkUint32(options.rootPage, 'options.rootPage');
    const mt = checkMergeThreshold(options.mergeThreshold);
    const latch = checkLatch(options.indexLatch);
    const frame = store.fix(space, options.rootPage, LATCH_S);
    const base = frame * store.pageSize;
    let flags: number;
    let indexId: bigint;
    try {
      if (readU16(store.bytes, base + FIL_PAGE_TYPE) !== PAGE_TYPE_INDEX) {
        throw new RangeError(`options.rootPage: page ${options.rootPage} is not a B+tree page`);
      }
      flags = store.bytes[base + PAGE_FLAGS]!;
      indexId = pageIndexId(store.bytes, base);
    } finally {
      store.unfix(frame, LATCH_S);
    }
    const uf = checkUniqueFields(options.uniqueFields, (flags & FLAG_CLUSTERED) !== 0);
    // Whether the store stamps LSNs is learnt at the first insert.
    return new BTree(
      new TreeAccess(store, space, options.rootPage, flags, indexId, mt, latch, uf, false),
      checkOptimistic(options.optimisticWrites),
    );
  }

  // ---- point operations ----

  /** The value stored under `key` (the first one in a non-unique tree), copied; undefined if absent. */
  get(key: Uint8Array): Uint8Array | undefined {
    if (!(key instanceof Uint8Array)) throw new TypeError(`key must be a Uint8Array, got ${String(key)}`);
    const t = this.#t;
    if (!t.unique) {
      const c = new Cursor(t);
      if (!c.seek(key, 'eq')) return undefined;
      return c.value();
    }
    const b = this.#b;
    const ps = this.#ps;
    // One S-coupled descent, no cursor.
    const frame = t.descendS(key, null, false, this.#out);
    const base = frame * ps;
    const slot = this.#out[0]!;
    let found: Uint8Array | undefined;
    if (slot < nRecs(b, base)) {
      const rec = slotRec(b, base, ps, slot);
      const kl = recKeyLen(b, base, rec);
      if (compareBytes(b, base + rec + REC_HEADER, base + rec + REC_HEADER + kl, key, 0, key.length) === 0) {
        const p = base + rec + REC_HEADER + kl;
        found = b.slice(p, p + recValLen(b, base, rec));
      }
    }
    t.unfixPage(frame, LATCH_S);
    return found;
  }

  /**
   * The value (copied) and the delete mark of the entry under `key` (the first one in a
   * non-unique tree); undefined if absent. Delete-marked entries are found, as by `get`.
   */
  getRecord(key: Uint8Array): BTreeRecord | undefined {
    checkBytes(key, 'key');
    const t = this.#t;
    if (!t.unique) {
      const c = new Cursor(t);
      if (!c.seek(key, 'eq')) return undefined;
      return { value: c.value(), deleted: c.deleted() };
    }
    const b = this.#b;
    const frame = t.descendS(key, null, false, this.#out);
    const base = frame * this.#ps;
    const slot = this.#out[0]!;
    let found: BTreeRecord | undefined;
    if (slot < nRecs(b, base)) {
      const rec = slotRec(b, base, this.#ps, slot);
      if (t.compareRec(base, rec, key, null) === 0) {
        const p = base + rec + REC_HEADER + recKeyLen(b, base, rec);
        found = { value: b.slice(p, p + recValLen(b, base, rec)), deleted: recDeleted(b, base, rec) };
      }
    }
    t.unfixPage(frame, LATCH_S);
    return found;
  }

  /** Whether the tree holds `key` (and, when given in a non-unique tree, exactly `value`). */
  has(key: Uint8Array, value?: Uint8Array): boolean {
    checkBytes(key, 'key');
    const t = this.#t;
    if (value === undefined || t.unique) return this.get(key) !== undefined;
    checkBytes(value, 'value');
    const out = new Int32Array(1);
    const frame = t.descendS(key, value, false, out);
    const base = frame * this.#ps;
    const n = nRecs(this.#b, base);
    const found =
      out[0]! < n && t.compareRec(base, slotRec(this.#b, base, this.#ps, out[0]!), key, value) === 0;
    t.unfixPage(frame, LATCH_S);
    return found;
  }

  /**
   * Insert an entry (without a delete mark): into its leaf alone when it fits there, else with a
   * split under the index latch in X (see the class comment). Throws `DuplicateKeyError` if a
   * unique tree holds the key (a non-unique tree: the same key and value). `maxTrxId`, when given
   * (an integer below 2^48), raises the PAGE_MAX_TRX_ID of the leaf the entry goes to (and of the
   * new page, if the leaf splits); it never lowers it.
   */
  insert(key: Uint8Array, value: Uint8Array, maxTrxId?: number): void {
    const trx = checkTrxId(maxTrxId);
    this.#checkEntry(key, value);
    const t = this.#t;
    if (!this.#optimistic) {
      t.writing(() => this.#insert(key, value, trx));
      return;
    }
    const l = t.indexLatch;
    let r: number;
    if (l === null) r = this.#lw.insert(key, value, trx);
    else {
      l.sLock();
      try {
        r = this.#lw.insert(key, value, trx);
      } finally {
        l.sUnlock();
      }
    }
    if (r === 1) return;
    if (r === 0) throw this.#duplicate(key, value);
    t.writing(() => this.#insert(key, value, trx));
  }

  /**
   * Delete an entry, delete-marked or not; in a non-unique tree `value` picks which (default: the
   * first with the key). `maxTrxId`, when given, raises the leaf's PAGE_MAX_TRX_ID first (a merge
   * keeps the larger of the two pages'). Underfull pages merge with a sibling. Returns whether an
   * entry was removed.
   */
  delete(key: Uint8Array, value?: Uint8Array, maxTrxId?: number): boolean {
    const trx = checkTrxId(maxTrxId);
    const t = this.#t;
    if (!this.#optimistic) return t.writing(() => this.#delete(key, value, trx));
    const l = t.indexLatch;
    let r: number;
    if (l === null) r = this.#deleteLeaf(key, value, trx);
    else {
      l.sLock();
      try {
        r = this.#deleteLeaf(key, value, trx);
      } finally {
        l.sUnlock();
      }
    }
    if (r !== RESTART) return r === 1;
    return t.writing(() => this.#delete(key, value, trx));
  }

  /**
   * Set (`marked` true) or clear the delete mark of an entry in place (InnoDB's
   * REC_INFO_DELETED_FLAG): the record stays where it is and every read still returns it; the
   * caller decides what a marked record means. A unique tree finds the entry by `key` (`value` is
   * ignored, pass undefined); a non-unique tree needs the exact (key, value). Only the leaf is
   * X-latched (the pages above are S-latched on the way down, the index latch held in S).
   * `maxTrxId`, when given, raises the leaf's PAGE_MAX_TRX_ID. Returns whether the entry was found.
   *
   * @example
   * ```ts
   * tree.setDeleteMark(key, undefined, true, 42); // a unique tree
   * tree.getRecord(key); // { value, deleted: true }
   * ```
   */
  setDeleteMark(key: Uint8Array, value: Uint8Array | undefined, marked: boolean, maxTrxId?: number): boolean {
    checkBytes(key, 'key');
    const t = this.#t;
    if (!t.unique) {
      if (value === undefined) throw new TypeError('value is required to mark an entry of a non-unique tree');
      checkBytes(value, 'value');
    }
    if (typeof marked !== 'boolean') throw new TypeError(`marked must be a boolean, got ${String(marked)}`);
    const trx = checkTrxId(maxTrxId);
    const l = t.indexLatch;
    t.optimisticWrites++; // it moves no record: the leaf alone, never restarted
    if (l === null) return markEntry(t, key, t.unique ? null : value!, marked, trx);
    l.sLock();
    try {
      return markEntry(t, key, t.unique ? null : value!, marked, trx);
    } finally {
      l.sUnlock();
    }
  }

  /**
   * Replace the value of `key`. A unique tree overwrites in place when the length is unchanged,
   * otherwise deletes and re-inserts; a non-unique tree needs `oldValue` (the value orders the entry).
   * The entry keeps its delete mark, and a re-inserted entry carries its old leaf's
   * PAGE_MAX_TRX_ID to the leaf it lands on. Returns whether the entry existed.
   */
  update(key: Uint8Array, value: Uint8Array, oldValue?: Uint8Array): boolean {
    this.#checkEntry(key, value);
    const t = this.#t;
    if (t.unique && this.#optimistic) {
      const l = t.indexLatch;
      let r: number;
      if (l === null) r = this.#lw.updateInPlace(key, value);
      else {
        l.sLock();
        try {
          r = this.#lw.updateInPlace(key, value);
        } finally {
          l.sUnlock();
        }
      }
      if (r !== RESTART) return r === 1;
    }
    return t.writing(() => this.#update(key, value, oldValue));
  }

  /**
   * Every page the tree holds — the root, the pages of each level, and the pages on the tree's
   * own free list — for a caller that drops the tree and returns its pages to the file space.
   * Reads the non-leaf levels and the free list, not the leaves; not counted in `pageFixes`.
   */
  pages(): number[] {
    const t = this.#t;
    return t.reading(() => treePages(t));
  }

  // ---- private bodies ----

  /** The pessimistic insert. REQUIRES: the entry checked (`#checkEntry`). */
  #insert(key: Uint8Array, value: Uint8Array, trx: number): void {
    const t = this.#t;
    const m = this.#m;
    m.descendX(key, value);
    try {
      const d = m.depth - 1;
      const base = m.frames[d]! * this.#ps;
      const slot = t.sc.searchUncached(base, key, value, false);
      if (
        slot < nRecs(this.#b, base) &&
        t.compareRec(base, slotRec(this.#b, base, this.#ps, slot), key, value) === 0
      ) {
        throw this.#duplicate(key, value);
      }
      t.version++;
      // Raised before a split, which copies the field to the new page (InnoDB updates it when it
      // checks the insert's locks, before the page is split).
      if (trx !== NO_TRX_ID) raisePageMaxTrxId(this.#b, m.frames[d]! * this.#ps, trx);
      if (!t.sc.lsnStamped) {
        const lsnAt = m.frames[d]! * this.#ps + FIL_PAGE_LSN;
        const lsnBefore = this.#b.slice(lsnAt, lsnAt + 8);
        m.insertAt(d, slot, key, 0, key.length, value, 0, value.length, FIL_NULL);
        t.sc.lsnStamped = !sameBytes(lsnBefore, this.#b, lsnAt);
      } else m.insertAt(d, slot, key, 0, key.length, value, 0, value.length, FIL_NULL);
    } finally {
      m.unfixPath();
    }
  }

  #duplicate(key: Uint8Array, value: Uint8Array): DuplicateKeyError {
    return new DuplicateKeyError(
      `duplicate key ${hex(key)}${this.#t.unique ? '' : ` with value ${hex(value)}`}`,
      key.slice(),
    );
  }

  /**
   * The entry a delete of (key, value) names: null in a unique tree (the key alone), else `value`
   * or, when not given, the value of the first entry with the key. Undefined: no such entry.
   */
  #deleteTarget(key: Uint8Array, value: Uint8Array | undefined): Uint8Array | null | undefined {
    checkBytes(key, 'key');
    if (this.#t.unique) return null;
    if (value !== undefined) {
      checkBytes(value, 'value');
      return value;
    }
    const c = new Cursor(this.#t);
    return c.seek(key, 'eq') ? c.value() : undefined;
  }

  /** The optimistic delete: 1 removed, 0 absent, RESTART (nothing changed: go pessimistic). */
  #deleteLeaf(key: Uint8Array, value: Uint8Array | undefined, trx: number): number {
    const val = this.#deleteTarget(key, value);
    if (val === undefined) return 0;
    return this.#lw.delete(key, val, trx);
  }

  #delete(key: Uint8Array, value: Uint8Array | undefined, trx: number): boolean {
    const t = this.#t;
    const m = this.#m;
    const val = this.#deleteTarget(key, value);
    if (val === undefined) return false;
    m.descendX(key, val ?? EMPTY);
    try {
      const d = m.depth - 1;
      const base = m.frames[d]! * this.#ps;
      const slot = t.sc.searchUncached(base, key, val, false);
      if (
        slot >= nRecs(this.#b, base) ||
        t.compareRec(base, slotRec(this.#b, base, this.#ps, slot), key, val) !== 0
      ) {
        return false;
      }
      t.version++;
      if (trx !== NO_TRX_ID) raisePageMaxTrxId(this.#b, base, trx);
      this.#removedDeleted = recDeleted(this.#b, base, slotRec(this.#b, base, this.#ps, slot));
      this.#removedPageMax = pageMaxTrxId(this.#b, base);
      m.removeAt(d, slot);
      return true;
    } finally {
      m.unfixPath();
    }
  }

  #update(key: Uint8Array, value: Uint8Array, oldValue?: Uint8Array): boolean {
    this.#checkEntry(key, value);
    const t = this.#t;
    const m = this.#m;
    if (!t.unique) {
      if (oldValue === undefined) throw new TypeError('oldValue is required to update a non-unique tree');
      checkBytes(oldValue, 'oldValue');
      if (!this.#delete(key, oldValue, NO_TRX_ID)) return false;
      this.#reinsert(key, value);
      return true;
    }
    m.descendX(key, value);
    let sameLength = false;
    try {
      const d = m.depth - 1;
      const base = m.frames[d]! * this.#ps;
      const slot = t.sc.searchUncached(base, key, null, false);
      if (slot >= nRecs(this.#b, base)) return false;
      const rec = slotRec(this.#b, base, this.#ps, slot);
      if (t.compareRec(base, rec, key, null) !== 0) return false;
      if (recValLen(this.#b, base, rec) === value.length) {
        this.#b.set(value, base + rec + REC_HEADER + key.length);
        t.store.markDirty(m.frames[d]!);
        t.version++;
        sameLength = true;
      }
    } finally {
      m.unfixPath();
    }
    if (!sameLength) {
      this.#delete(key, undefined, NO_TRX_ID);
      this.#reinsert(key, value);
    }
    return true;
  }

  /** The second half of an update that moved its entry: insert, then restore the delete mark. */
  #reinsert(key: Uint8Array, value: Uint8Array): void {
    const deleted = this.#removedDeleted;
    this.#insert(key, value, this.#removedPageMax);
    if (deleted) markEntry(this.#t, key, this.#t.unique ? null : value, true, NO_TRX_ID);
  }

  /** A cursor positioned nowhere; see {@link Cursor}. */
  cursor(): Cursor {
    return new Cursor(this.#t);
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
   * `detached`: each leaf is copied when reached and released before `fn` sees its entries, which
   * then point into the copy (a page-sized buffer: `offset / pageSize` is not a frame, the page's
   * header is at the copy's start). No page is latched while `fn` runs, so it may read this tree
   * or any other — a join probing an index while walking another, or the same one — without
   * holding a latch a writer's structure change may wait for; it sees each leaf as it was when
   * copied (an entry written into a leaf already copied is not seen). Moving right re-checks that
   * the next leaf is still the neighbour (else searches again past the last entry seen).
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
  forEachRangeRaw(
    lo: Uint8Array | null,
    hi: Uint8Array | null,
    fn: RangeRawCallback,
    detached = false,
  ): number {
    if (typeof fn !== 'function') throw new TypeError(`fn must be a function, got ${String(fn)}`);
    return this.#forEachRange(lo, hi, null, fn, detached);
  }

  #forEachRange(
    lo: Uint8Array | null,
    hi: Uint8Array | null,
    fn: ((key: Uint8Array, value: Uint8Array) => boolean | undefined) | null,
    raw: RangeRawCallback | null,
    detached = false,
  ): number {
    if (detached) {
      const copy = this.#copies.pop() ?? new Uint8Array(this.#ps);
      try {
        return this.#forEachRangeOn(lo, hi, fn, raw, copy);
      } finally {
        this.#copies.push(copy);
      }
    }
    return this.#forEachRangeOn(lo, hi, fn, raw, null);
  }

  /** Page-sized buffers for detached walks, one per walk under way on this thread (walks nest). */
  readonly #copies: Uint8Array[] = [];

  #forEachRangeOn(
    lo: Uint8Array | null,
    hi: Uint8Array | null,
    fn: ((key: Uint8Array, value: Uint8Array) => boolean | undefined) | null,
    raw: RangeRawCallback | null,
    copy: Uint8Array | null,
  ): number {
    const t = this.#t;
    const pool = this.#b;
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
      frame = t.leftmostS();
      out[0] = 0;
    } else frame = t.descendS(lo, null, false, out);
    let slot = out[0]!;
    let count = 0;
    // A detached walk copies at first only the few entries a point read needs, then a leaf's
    // remaining entries at once: a walk that wants more than the first copy held searches again
    // past its last entry.
    let budget = DETACHED_FIRST_COPY;
    for (;;) {
      // a detached walk reads a copy of the leaf, released before any callback
      let b = pool;
      let base = frame * ps;
      let cur = 0;
      let next = 0;
      let n = nRecs(pool, base);
      let partial = false;
      if (copy !== null) {
        if (n - slot > budget) {
          copyLeafSlots(pool, base, copy, ps, slot, slot + budget);
          n = slot + budget;
          partial = true;
        } else if ((n - slot) * 8 < n)
          copyLeafSlots(pool, base, copy, ps, Math.max(0, Math.min(slot, n - 1)), n);
        else copy.set(pool.subarray(base, base + ps));
        t.unfixPage(frame, LATCH_S);
        b = copy;
        base = 0;
        cur = pageNo(b, 0);
        next = nextPage(b, 0);
      }
      const fixed = copy === null;
      for (; slot < n; slot++) {
        const rec = slotRec(b, base, ps, slot);
        const kl = recKeyLen(b, base, rec);
        const k0 = base + rec + REC_HEADER;
        if (hi !== null && compareBytes(b, k0, k0 + kl, hi, 0, hi.length) >= 0) {
          if (fixed) t.unfixPage(frame, LATCH_S);
          return count;
        }
        count++;
        const vl = recValLen(b, base, rec);
        let go: boolean | undefined;
        try {
          go =
            raw !== null
              ? raw(b, k0, kl, k0 + kl, vl)
              : fn!(b.subarray(k0, k0 + kl), b.subarray(k0 + kl, k0 + kl + vl));
        } catch (e) {
          // a callback that throws (a lock wait, an expression error) leaves no page fixed
          if (fixed) t.unfixPage(frame, LATCH_S);
          throw e;
        }
        if (go === false) {
          if (fixed) t.unfixPage(frame, LATCH_S);
          return count;
        }
      }
      if (n > 0) {
        const rec = slotRec(b, base, ps, n - 1);
        const kl = recKeyLen(b, base, rec);
        const k0 = base + rec + REC_HEADER;
        boundKey = b.slice(k0, k0 + kl);
        boundVal = t.unique ? null : b.slice(k0 + kl, k0 + kl + recValLen(b, base, rec));
        boundStrict = true;
      }
      if (partial) {
        // the leaf has entries past the copied ones: search again for the first past the bound
        budget = ps;
        frame = t.descendS(boundKey!, boundVal, boundStrict, out);
        slot = out[0]!;
        continue;
      }
      const nf = fixed ? t.siblingLeafS(frame, true) : t.siblingOfS(cur, next, true);
      if (nf === -1) return count;
      if (nf === -2) {
        // The right sibling changed under us: search again for the first entry past the bound.
        if (boundKey === null) {
          frame = t.leftmostS();
          slot = 0;
        } else {
          frame = t.descendS(boundKey, boundVal, boundStrict, out);
          slot = out[0]!;
        }
        continue;
      }
      frame = nf;
      // Skip what a concurrent split may have moved here from the page we left.
      slot = boundKey === null ? 0 : t.searchPage(frame * ps, boundKey, boundVal, boundStrict);
    }
  }

  /**
   * {@link BTree.forEachRangeRaw} backward: `fn` gets each entry whose key is below `before`
   * (null: every entry), largest first, until it returns `false`; returns the number of entries
   * passed to it. A leaf is left for its left sibling by releasing it first and S-latching the
   * sibling (latches are only ever waited for left to right, as InnoDB's
   * `btr_pcur_move_backward_from_page` restarts from the left page); a sibling that is no longer
   * the neighbour sends the walk down from the root again, to the last entry below the first one
   * it has passed. `detached` as in {@link BTree.forEachRangeRaw}.
   *
   * @example
   * ```ts
   * // the three largest entries
   * let n = 0;
   * tree.forEachRangeRawBackward(null, (b, ko, kl) => ++n < 3);
   * ```
   */
  forEachRangeRawBackward(before: Uint8Array | null, fn: RangeRawCallback, detached = false): number {
    if (typeof fn !== 'function') throw new TypeError(`fn must be a function, got ${String(fn)}`);
    if (!detached) return this.#backwardOn(before, fn, null);
    const copy = this.#copies.pop() ?? new Uint8Array(this.#ps);
    try {
      return this.#backwardOn(before, fn, copy);
    } finally {
      this.#copies.push(copy);
    }
  }

  #backwardOn(before: Uint8Array | null, fn: RangeRawCallback, copy: Uint8Array | null): number {
    const t = this.#t;
    const pool = this.#b;
    const ps = this.#ps;
    const out = new Int32Array(1);
    // Everything at or above the bound was passed already: `before` at first, then the first
    // entry of each leaf left behind.
    let boundKey: Uint8Array | null = before;
    let boundVal: Uint8Array | null = null;
    let frame: number;
    let slot: number;
    if (before === null) {
      frame = t.rightmostS();
      slot = nRecs(pool, frame * ps) - 1;
    } else {
      frame = t.descendS(before, null, false, out);
      slot = out[0]! - 1;
    }
    let count = 0;
    for (;;) {
      let b = pool;
      let base = frame * ps;
      let cur = 0;
      let prev = 0;
      if (copy !== null) {
        copy.set(pool.subarray(base, base + ps));
        t.unfixPage(frame, LATCH_S);
        b = copy;
        base = 0;
        cur = pageNo(b, 0);
        prev = prevPage(b, 0);
      }
      const fixed = copy === null;
      for (; slot >= 0; slot--) {
        const rec = slotRec(b, base, ps, slot);
        const kl = recKeyLen(b, base, rec);
        const k0 = base + rec + REC_HEADER;
        count++;
        let go: boolean | undefined;
        try {
          go = fn(b, k0, kl, k0 + kl, recValLen(b, base, rec));
        } catch (e) {
          if (fixed) t.unfixPage(frame, LATCH_S);
          throw e;
        }
        if (go === false) {
          if (fixed) t.unfixPage(frame, LATCH_S);
          return count;
        }
      }
      if (nRecs(b, base) > 0) {
        const rec = slotRec(b, base, ps, 0);
        const kl = recKeyLen(b, base, rec);
        const k0 = base + rec + REC_HEADER;
        boundKey = b.slice(k0, k0 + kl);
        boundVal = t.unique ? null : b.slice(k0 + kl, k0 + kl + recValLen(b, base, rec));
      }
      const nf = fixed ? t.siblingLeafS(frame, false) : t.siblingOfS(cur, prev, false);
      if (nf === -1) return count;
      if (nf === -2) {
        // the left sibling changed under us: down from the root to the last entry below the bound
        if (boundKey === null) {
          frame = t.rightmostS();
          slot = nRecs(pool, frame * ps) - 1;
        } else {
          frame = t.descendS(boundKey, boundVal, false, out);
          slot = out[0]! - 1;
        }
        continue;
      }
      frame = nf;
      // skip what a concurrent split may have moved here from the page we left
      slot =
        (boundKey === null ? nRecs(pool, frame * ps) : t.searchPage(frame * ps, boundKey, boundVal, false)) -
        1;
    }
  }

  /** Entries with lo ≤ key < hi as copied [key, value] pairs (convenient, allocates per entry). */
  *entries(lo: Uint8Array | null = null, hi: Uint8Array | null = null): Generator<[Uint8Array, Uint8Array]> {
    const c = this.cursor();
    let ok = lo === null ? c.first() : c.seek(lo, 'ge');
    while (ok) {
      const k = c.key();
      if (hi !== null && compareBytes(k, 0, k.length, hi, 0, hi.length) >= 0) return;
      yield [k, c.value()];
      ok = c.next();
    }
  }

  /** Start a bottom-up bulk load into this tree. REQUIRES: the tree is empty. */
  bulkLoader(options: BulkLoadOptions = {}): BulkLoader {
    return new BulkLoader(this.#t, options);
  }

  /** Walk the whole tree and throw `CorruptionError` at the first broken invariant; returns the stats. */
  checkValid(): TreeStats {
    const t = this.#t;
    return t.reading(() => checkTree(t));
  }

  /** Height, pages and records per level, fill and size. Reads every page. */
  stats(): TreeStats {
    const t = this.#t;
    return t.reading(() => treeStats(t));
  }

  /**
   * Height, leaf pages, pages in the tree and on its free list, from the non-leaf levels and the
   * free list without reading the leaves — the counts InnoDB's `btr_get_size` answers from segment
   * headers. A tree whose root is a leaf has 1 leaf page. Its page reads are not counted in
   * `pageFixes`.
   */
  shape(): TreeShape {
    const t = this.#t;
    return t.reading(() => {
      const s = treeShape(t);
      const freePages = freeListLength(t);
      return { ...s, freePages, totalPages: s.indexPages + freePages };
    });
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
}

function checkOptimistic(v: boolean | undefined): boolean {
  if (v === undefined) return true;
  if (typeof v !== 'boolean') throw new TypeError(`optimisticWrites must be a boolean, got ${String(v)}`);
  return v;
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
  checkPageSize(store.pageSize, 'store.pageSize');
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

function checkUniqueFields(v: number | undefined, clustered: boolean): number {
  if (v === undefined) return 0;
  if (clustered) throw new RangeError('uniqueFields applies to a secondary (non-clustered) tree');
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 64)
    throw new RangeError(`uniqueFields must be an integer in [1, 64], got ${String(v)}`);
  return v;
}

function checkBytes(v: unknown, what: string): void {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array, got ${String(v)}`);
}

function sameBytes(a: Uint8Array, b: Uint8Array, off: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[off + i]) return false;
  return true;
}

function hex(a: Uint8Array): string {
  let s = '';
  for (let i = 0; i < a.length && i < 32; i++) s += a[i]!.toString(16).padStart(2, '0');
  return a.length > 32 ? `${s}…` : s;
}
