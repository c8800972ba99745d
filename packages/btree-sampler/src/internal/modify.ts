import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_DATA_END } from '@enginekit/buffer-pool';
import {
  copyRec,
  deleteRec,
  initPage,
  insertRec,
  nextPage,
  noteInsert,
  nRecs,
  PAGE_DIRECTION,
  PAGE_FREE_LIST,
  PAGE_GARBAGE,
  PAGE_LAST_INSERT,
  PAGE_N_DIRECTION,
  PAGE_N_RECS,
  pageCapacity,
  pageLevel,
  pageMaxTrxId,
  pageNo,
  prevPage,
  raisePageMaxTrxId,
  REC_CHILD,
  REC_HEADER,
  recChild,
  recKeyLen,
  recSize,
  recValLen,
  setNextPage,
  setPageMaxTrxId,
  setPrevPage,
  slotRec,
  totalFree,
  usedBytes,
} from '../page.js';
import { readU16, readU32, writeU16, writeU32 } from './bytes.js';
import { LATCH_X } from '@enginekit/buffer-pool';
import type { TreeAccess } from './tree-access.js';

/** Deepest tree the fixed-size path arrays hold (a 16 KiB-page tree of height 40 is unthinkable). */
const MAX_HEIGHT = 64;
const EMPTY = new Uint8Array(0);

/**
 * The pessimistic write path of a tree (InnoDB's BTR_MODIFY_TREE descent): the X-latched path
 * from the root to a leaf, and the structure changes made along it (insert with page split and
 * root raise; delete with discard, merge and root lift). One per `BTree` object; the caller holds
 * the index latch in X, so no other writer — optimistic or pessimistic — runs meanwhile, only
 * readers, which take no index latch.
 *
 * Latch order (every thread, every path; it is what keeps the tree deadlock-free):
 * 1. The index latch before any page latch, and never waited for while a page is latched: an
 *    optimistic writer that must restart releases its leaf and the S index latch, then asks for X.
 *    S: optimistic writers (`LeafWriter`), the estimators, `checkValid()`, `stats()`; X: this path.
 * 2. Down a level, top-down only: a page is latched while holding its parent (S coupling for
 *    readers and optimistic writers, the whole X path here), never a parent while holding a child.
 *    An optimistic writer X-latches nothing but its leaf, and while it holds the leaf it waits
 *    for no latch at all.
 * 3. Along a level: readers hold no page while waiting for a sibling (they unfix the page first,
 *    then re-check the sibling's back link and search again from the root if it changed). This
 *    path, holding its X path, latches a sibling of a path page (the old right neighbour of a split
 *    page, the left or right neighbour of an unlinked or merged page, on the left before the page
 *    itself when merging to the left). That is safe only because the index latch in X leaves
 *    readers as the sole other latch holders: a reader holding such a sibling waits either for
 *    nothing or for one of the sibling's children, which are never on this path.
 * Any new writer that latches two pages of one level while another writer may run must keep
 * left-to-right order instead.
 */
export class PathModifier {
  readonly #t: TreeAccess;
  readonly #b: Uint8Array;
  readonly #ps: number;
  readonly #scratch: Uint8Array;
  /** Frames of the X-fixed path, root first. */
  readonly frames: Float64Array = new Float64Array(MAX_HEIGHT);
  /** The slot followed on each non-leaf page of the path. */
  readonly slots: Int32Array = new Int32Array(MAX_HEIGHT);
  /** Pages on the path. */
  depth = 0;

  constructor(tree: TreeAccess) {
    this.#t = tree;
    this.#b = tree.b;
    this.#ps = tree.ps;
    this.#scratch = new Uint8Array(tree.ps);
  }

  /** X-fix the path from the root to the leaf where (key, val) belongs; the path stays fixed. */
  descendX(key: Uint8Array, val: Uint8Array): void {
    const b = this.#b;
    const ps = this.#ps;
    let page = this.#t.rootPage;
    let d = 0;
    for (;;) {
      const frame = this.#t.fixPage(page, LATCH_X);
      this.frames[d] = frame;
      this.depth = d + 1;
      const base = frame * ps;
      if (pageLevel(b, base) === 0) return;
      let slot = this.#t.searchPage(base, key, val, true) - 1;
      if (slot < 0) slot = 0;
      this.slots[d] = slot;
      page = recChild(b, base, slotRec(b, base, ps, slot));
      d++;
    }
  }

  unfixPath(): void {
    for (let i = 0; i < this.depth; i++) this.#t.store.unfix(this.frames[i]!, LATCH_X);
    this.depth = 0;
  }

  insertAt(
    d: number,
    slot: number,
    key: Uint8Array,
    kOff: number,
    kLen: number,
    val: Uint8Array,
    vOff: number,
    vLen: number,
    child: number,
  ): void {
    const b = this.#b;
    const ps = this.#ps;
    const frame = this.frames[d]!;
    const base = frame * ps;
    const size = REC_HEADER + kLen + vLen + (pageLevel(b, base) > 0 ? REC_CHILD : 0);
    if (totalFree(b, base, ps) >= size + 2) {
      insertRec(b, base, ps, slot, key, kOff, kLen, val, vOff, vLen, child, this.#scratch);
      noteInsert(b, base, slot);
      this.#t.store.markDirty(frame);
      return;
    }
    if (d === 0) {
      this.#raiseRoot();
      d = 1;
    }
    this.#split(d, slot, key, kOff, kLen, val, vOff, vLen, child);
  }

  /** Copy the root into a new page one level down and make the root its only parent. */
  #raiseRoot(): void {
    const b = this.#b;
    const ps = this.#ps;
    const rootFrame = this.frames[0]!;
    const rootBase = rootFrame * ps;
    const level = pageLevel(b, rootBase);
    const newFrame = this.#t.allocPage(rootFrame);
    const newBase = newFrame * ps;
    const newNo = pageNo(b, newBase);
    initPage(b, newBase, this.#t.space, level, this.#t.flags, this.#t.indexId);
    b.copyWithin(newBase + FIL_PAGE_DATA, rootBase + FIL_PAGE_DATA, rootBase + ps - FIL_PAGE_DATA_END);
    writeU32(b, newBase + PAGE_FREE_LIST, FIL_NULL);
    const freeHead = readU32(b, rootBase + PAGE_FREE_LIST);
    initPage(b, rootBase, this.#t.space, level + 1, this.#t.flags, this.#t.indexId);
    writeU32(b, rootBase + PAGE_FREE_LIST, freeHead);
    insertRec(b, rootBase, ps, 0, EMPTY, 0, 0, EMPTY, 0, 0, newNo, this.#scratch);
    this.#t.store.markDirty(newFrame);
    this.#t.store.markDirty(rootFrame);
    for (let i = this.depth; i >= 2; i--) {
      this.frames[i] = this.frames[i - 1]!;
      this.slots[i] = this.slots[i - 1]!;
    }
    this.frames[1] = newFrame;
    this.slots[1] = this.slots[0]!;
    this.slots[0] = 0;
    this.depth++;
  }

  /**
   * Split the page at path depth d (d ≥ 1) and insert the pending record. At the insert point when
   * the previous insert was just before it (ascending) or at it (descending), as
   * `btr_page_get_split_rec_to_right/left`; otherwise in the middle by bytes.
   */
  #split(
    d: number,
    slot: number,
    key: Uint8Array,
    kOff: number,
    kLen: number,
    val: Uint8Array,
    vOff: number,
    vLen: number,
    child: number,
  ): void {
    const b = this.#b;
    const ps = this.#ps;
    const frame = this.frames[d]!;
    const base = frame * ps;
    const n = nRecs(b, base);
    const level = pageLevel(b, base);
    const newSize = REC_HEADER + kLen + vLen + (level > 0 ? REC_CHILD : 0) + 2;
    const last = readU16(b, base + PAGE_LAST_INSERT);
    let s = slot;
    let newLeft = false;
    let atInsertPoint = false;
    if (last !== 0 && (last === slot || last - 1 === slot)) {
      // Ascending (the previous insert was just before this one) or descending (at it).
      newLeft = last - 1 === slot;
      let leftBytes = newLeft ? newSize : 0;
      for (let i = 0; i < s; i++) leftBytes += recSize(b, base, slotRec(b, base, ps, i), level) + 2;
      const rightBytes = usedBytes(b, base, ps) + newSize - leftBytes;
      atInsertPoint = leftBytes <= pageCapacity(ps) && rightBytes <= pageCapacity(ps);
    }
    if (!atInsertPoint) {
      const half = (usedBytes(b, base, ps) + newSize) / 2;
      let acc = 0;
      let c = 0;
      for (; c < n; c++) {
        const sz =
          c === slot ? newSize : recSize(b, base, slotRec(b, base, ps, c < slot ? c : c - 1), level) + 2;
        acc += sz;
        if (acc >= half) break;
      }
      c = Math.min(Math.max(c, 0), n - 1) + 1;
      if (c <= slot) {
        s = c;
        newLeft = false;
      } else {
        s = c - 1;
        newLeft = true;
      }
    }
    const rootFrame = this.frames[0]!;
    const rFrame = this.#t.allocPage(rootFrame);
    const rBase = rFrame * ps;
    const rNo = pageNo(b, rBase);
    initPage(b, rBase, this.#t.space, level, this.#t.flags, this.#t.indexId);
    // The new page starts with the split page's PAGE_MAX_TRX_ID, before any record moves or the
    // pending one lands there (InnoDB copies it when it moves the records of a secondary leaf).
    setPageMaxTrxId(b, rBase, pageMaxTrxId(b, base));
    let moved = 0;
    for (let i = s; i < n; i++) {
      const rec = slotRec(b, base, ps, i);
      // a byte copy: the record keeps its delete mark
      copyRec(b, rBase, ps, i - s, base, rec, this.#scratch);
      moved += recSize(b, base, rec, level);
    }
    writeU16(b, base + PAGE_N_RECS, s);
    writeU16(b, base + PAGE_GARBAGE, readU16(b, base + PAGE_GARBAGE) + moved);
    writeU16(b, base + PAGE_LAST_INSERT, 0);
    b[base + PAGE_DIRECTION] = 0;
    writeU16(b, base + PAGE_N_DIRECTION, 0);
    const tBase = newLeft ? base : rBase;
    const tSlot = newLeft ? slot : slot - s;
    if (totalFree(b, tBase, ps) < newSize) {
      throw new RangeError('split left no room for the record (entry too large for the page size)');
    }
    insertRec(b, tBase, ps, tSlot, key, kOff, kLen, val, vOff, vLen, child, this.#scratch);
    noteInsert(b, tBase, tSlot);
    // Link R between L and L's old right sibling.
    const lNo = pageNo(b, base);
    const oldNext = nextPage(b, base);
    setPrevPage(b, rBase, lNo);
    setNextPage(b, rBase, oldNext);
    setNextPage(b, base, rNo);
    if (oldNext !== FIL_NULL) {
      const nf = this.#t.fixPage(oldNext, LATCH_X);
      setPrevPage(b, nf * ps, rNo);
      this.#t.store.markDirty(nf);
      this.#t.store.unfix(nf, LATCH_X);
    }
    // The node pointer: R's first key (and value, when the value is part of the order).
    const r0 = slotRec(b, rBase, ps, 0);
    const kl = recKeyLen(b, rBase, r0);
    const sepKey = b.slice(rBase + r0 + REC_HEADER, rBase + r0 + REC_HEADER + kl);
    const sepVal = this.#t.unique
      ? EMPTY
      : b.slice(rBase + r0 + REC_HEADER + kl, rBase + r0 + REC_HEADER + kl + recValLen(b, rBase, r0));
    this.#t.store.markDirty(frame);
    this.#t.store.markDirty(rFrame);
    this.#t.store.unfix(rFrame, LATCH_X);
    this.insertAt(d - 1, this.slots[d - 1]! + 1, sepKey, 0, sepKey.length, sepVal, 0, sepVal.length, rNo);
  }

  removeAt(d: number, slot: number): void {
    const b = this.#b;
    const ps = this.#ps;
    const frame = this.frames[d]!;
    const base = frame * ps;
    if (slot === 0 && pageLevel(b, base) > 0 && nRecs(b, base) > 1) {
      // The leftmost node pointer carries the page's lower bound: the next one inherits it, so
      // keys between the bound and its own key still route to it correctly (InnoDB marks the new
      // leftmost pointer REC_INFO_MIN_REC_FLAG in the same situation).
      const r0 = slotRec(b, base, ps, 0);
      const kl = recKeyLen(b, base, r0);
      const bound = b.slice(base + r0 + REC_HEADER, base + r0 + REC_HEADER + kl + recValLen(b, base, r0));
      deleteRec(b, base, ps, 0);
      const child = recChild(b, base, slotRec(b, base, ps, 0));
      deleteRec(b, base, ps, 0);
      insertRec(b, base, ps, 0, bound, 0, kl, bound, kl, bound.length - kl, child, this.#scratch);
    } else deleteRec(b, base, ps, slot);
    this.#t.store.markDirty(frame);
    if (d === 0) {
      this.#shrinkRoot();
      return;
    }
    if (nRecs(b, base) === 0) {
      this.#unlink(frame);
      this.#t.freePage(frame, this.frames[0]!);
      this.removeAt(d - 1, this.slots[d - 1]!);
      return;
    }
    if (usedBytes(b, base, ps) * 100 >= pageCapacity(ps) * this.#t.mergeThreshold) return;
    this.#tryMerge(d);
  }

  /** Unlink an X-fixed page from its level's list (fixing its neighbours). */
  #unlink(frame: number): void {
    const b = this.#b;
    const ps = this.#ps;
    const base = frame * ps;
    const prev = prevPage(b, base);
    const next = nextPage(b, base);
    if (prev !== FIL_NULL) {
      const f = this.#t.fixPage(prev, LATCH_X);
      setNextPage(b, f * ps, next);
      this.#t.store.markDirty(f);
      this.#t.store.unfix(f, LATCH_X);
    }
    if (next !== FIL_NULL) {
      const f = this.#t.fixPage(next, LATCH_X);
      setPrevPage(b, f * ps, prev);
      this.#t.store.markDirty(f);
      this.#t.store.unfix(f, LATCH_X);
    }
  }

  /** Merge the underfull page at depth d into its left sibling, or its right sibling into it, under the same parent. */
  #tryMerge(d: number): void {
    const b = this.#b;
    const ps = this.#ps;
    const cap = pageCapacity(ps);
    const parentBase = this.frames[d - 1]! * ps;
    const ps0 = this.slots[d - 1]!;
    const pn = nRecs(b, parentBase);
    const frame = this.frames[d]!;
    const base = frame * ps;
    if (ps0 > 0) {
      const leftNo = recChild(b, parentBase, slotRec(b, parentBase, ps, ps0 - 1));
      const lf = this.#t.fixPage(leftNo, LATCH_X);
      if (usedBytes(b, lf * ps, ps) + usedBytes(b, base, ps) <= cap) {
        this.#moveAll(frame, lf, parentBase, ps0);
        const next = nextPage(b, base);
        setNextPage(b, lf * ps, next);
        if (next !== FIL_NULL) {
          const nf = this.#t.fixPage(next, LATCH_X);
          setPrevPage(b, nf * ps, leftNo);
          this.#t.store.markDirty(nf);
          this.#t.store.unfix(nf, LATCH_X);
        }
        this.#t.store.markDirty(lf);
        this.#t.store.unfix(lf, LATCH_X);
        this.#t.freePage(frame, this.frames[0]!);
        this.removeAt(d - 1, ps0);
        return;
      }
      this.#t.store.unfix(lf, LATCH_X);
    }
    if (ps0 + 1 < pn) {
      const rightNo = recChild(b, parentBase, slotRec(b, parentBase, ps, ps0 + 1));
      const rf = this.#t.fixPage(rightNo, LATCH_X);
      const rBase = rf * ps;
      if (usedBytes(b, rBase, ps) + usedBytes(b, base, ps) <= cap) {
        this.#moveAll(rf, frame, parentBase, ps0 + 1);
        const next = nextPage(b, rBase);
        setNextPage(b, base, next);
        if (next !== FIL_NULL) {
          const nf = this.#t.fixPage(next, LATCH_X);
          setPrevPage(b, nf * ps, pageNo(b, base));
          this.#t.store.markDirty(nf);
          this.#t.store.unfix(nf, LATCH_X);
        }
        this.#t.store.markDirty(frame);
        this.#t.freePage(rf, this.frames[0]!);
        this.#t.store.unfix(rf, LATCH_X);
        this.removeAt(d - 1, ps0 + 1);
      } else this.#t.store.unfix(rf, LATCH_X);
    }
  }

  /**
   * Append every record of page `src` to page `dst`. On non-leaf pages the first moved node
   * pointer takes the parent's separator for `src` (its own slot-0 key is not a bound).
   */
  #moveAll(src: number, dst: number, parentBase: number, parentSlot: number): void {
    const b = this.#b;
    const ps = this.#ps;
    const sBase = src * ps;
    const dBase = dst * ps;
    const n = nRecs(b, sBase);
    const level = pageLevel(b, sBase);
    let at = nRecs(b, dBase);
    for (let i = 0; i < n; i++) {
      const rec = slotRec(b, sBase, ps, i);
      if (i === 0 && level > 0) {
        const ch = recChild(b, sBase, rec);
        const prec = slotRec(b, parentBase, ps, parentSlot);
        const pkl = recKeyLen(b, parentBase, prec);
        const pvl = recValLen(b, parentBase, prec);
        const pp = parentBase + prec + REC_HEADER;
        insertRec(b, dBase, ps, at++, b, pp, pkl, b, pp + pkl, pvl, ch, this.#scratch);
      } else copyRec(b, dBase, ps, at++, sBase, rec, this.#scratch); // keeps the delete mark
    }
    writeU16(b, dBase + PAGE_LAST_INSERT, 0);
    // The merged page covers the records of both: it keeps the larger PAGE_MAX_TRX_ID.
    raisePageMaxTrxId(b, dBase, pageMaxTrxId(b, sBase));
  }

  /** While the root is a non-leaf with one child, pull the child up (`btr_lift_page_up`). */
  #shrinkRoot(): void {
    const b = this.#b;
    const ps = this.#ps;
    const rootFrame = this.frames[0]!;
    const rootBase = rootFrame * ps;
    for (;;) {
      const level = pageLevel(b, rootBase);
      const n = nRecs(b, rootBase);
      if (level === 0) return;
      if (n === 0) {
        const freeHead = readU32(b, rootBase + PAGE_FREE_LIST);
        initPage(b, rootBase, this.#t.space, 0, this.#t.flags, this.#t.indexId);
        writeU32(b, rootBase + PAGE_FREE_LIST, freeHead);
        this.#t.store.markDirty(rootFrame);
        return;
      }
      if (n > 1) return;
      const childNo = recChild(b, rootBase, slotRec(b, rootBase, ps, 0));
      // The child may already be X-fixed on the path (a merge into it): reuse that fix.
      let cf = -1;
      for (let i = 1; i < this.depth; i++)
        if (pageNo(b, this.frames[i]! * ps) === childNo) cf = this.frames[i]!;
      const onPath = cf >= 0;
      if (!onPath) cf = this.#t.fixPage(childNo, LATCH_X);
      const freeHead = readU32(b, rootBase + PAGE_FREE_LIST);
      b.copyWithin(rootBase + FIL_PAGE_DATA, cf * ps + FIL_PAGE_DATA, cf * ps + ps - FIL_PAGE_DATA_END);
      writeU32(b, rootBase + PAGE_FREE_LIST, freeHead);
      writeU16(b, rootBase + PAGE_LAST_INSERT, 0);
      this.#t.store.markDirty(rootFrame);
      this.#t.freePage(cf, rootFrame);
      if (!onPath) this.#t.store.unfix(cf, LATCH_X);
    }
  }
}
