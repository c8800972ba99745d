/**
 * The optimistic write path (InnoDB's BTR_MODIFY_LEAF descent): S-latch coupling down the
 * non-leaf levels, an X latch on the leaf alone, and the change made there only when it touches
 * no other page — an insert that needs no split, a delete that leaves the leaf above the merge
 * threshold, an update of a value of the same length. Anything else answers {@link RESTART}; the
 * caller releases everything and runs the pessimistic path (`PathModifier`) under the index
 * latch in X.
 *
 * REQUIRES: the index latch held in S (or X) by the caller when the tree has one, so no
 * structure change runs while a descent is under way: the node pointers read on the way down
 * stay true until the leaf is released. Other optimistic writers may change other leaves, or
 * this leaf before or after this one, meanwhile.
 *
 * A delete of a leaf's first record is optimistic too: node pointers here are lower bounds of
 * their subtree (not copies of the child's first key), so removing the first record of a leaf
 * leaves every node pointer true, and the pessimistic path would change no other page either.
 */
import { FIL_NULL, FIL_PAGE_LSN, LATCH_X } from '@enginekit/buffer-pool';
import {
  deleteRec,
  insertRec,
  noteInsert,
  nRecs,
  pageCapacity,
  pageNo,
  raisePageMaxTrxId,
  REC_HEADER,
  recSize,
  recValLen,
  slotRec,
  totalFree,
  usedBytes,
} from '../page.js';
import { NO_TRX_ID } from './delete-mark.js';
import type { TreeAccess } from './tree-access.js';

/** The change needs more than the leaf: release everything and go pessimistic. */
export const RESTART = -1;

export class LeafWriter {
  readonly #t: TreeAccess;
  readonly #scratch: Uint8Array;

  constructor(tree: TreeAccess) {
    this.#t = tree;
    this.#scratch = new Uint8Array(tree.ps);
  }

  /**
   * Insert (key, value) into its leaf if it fits there. Returns 1 when inserted, 0 when the entry
   * exists (nothing changed: the caller reports the duplicate), {@link RESTART} when the leaf
   * would have to split (nothing changed).
   */
  insert(key: Uint8Array, value: Uint8Array, trx: number): number {
    const t = this.#t;
    const b = t.b;
    const ps = t.ps;
    const frame = t.descendLeafX(key, value);
    try {
      const base = frame * ps;
      const slot = t.sc.searchUncached(base, key, value, false);
      if (slot < nRecs(b, base) && t.compareRec(base, slotRec(b, base, ps, slot), key, value) === 0) {
        return 0;
      }
      if (totalFree(b, base, ps) < REC_HEADER + key.length + value.length + 2) {
        t.optimisticRestarts++;
        return RESTART;
      }
      t.version++;
      if (trx !== NO_TRX_ID) raisePageMaxTrxId(b, base, trx);
      insertRec(b, base, ps, slot, key, 0, key.length, value, 0, value.length, FIL_NULL, this.#scratch);
      noteInsert(b, base, slot);
      if (t.sc.lsnStamped) t.store.markDirty(frame);
      else {
        // Learn whether the store stamps a new LSN on every markDirty (the search cache then
        // needs no write counter).
        const at = base + FIL_PAGE_LSN;
        const before = b.slice(at, at + 8);
        t.store.markDirty(frame);
        t.sc.lsnStamped = !sameBytes(before, b, at);
      }
      t.optimisticWrites++;
      return 1;
    } finally {
      t.unfixPage(frame, LATCH_X);
    }
  }

  /**
   * Delete the entry (key, val) — `val` null in a unique tree — if the leaf stays above the merge
   * threshold (or is the root). Returns 1 when removed, 0 when absent, {@link RESTART} when the
   * leaf would empty or fall below the threshold (nothing changed).
   */
  delete(key: Uint8Array, val: Uint8Array | null, trx: number): number {
    const t = this.#t;
    const b = t.b;
    const ps = t.ps;
    const frame = t.descendLeafX(key, val);
    try {
      const base = frame * ps;
      const slot = t.sc.searchUncached(base, key, val, false);
      const n = nRecs(b, base);
      if (slot >= n) return 0;
      const rec = slotRec(b, base, ps, slot);
      if (t.compareRec(base, rec, key, val) !== 0) return 0;
      if (pageNo(b, base) !== t.rootPage) {
        // The pessimistic path frees an emptied leaf and merges one filled below the threshold.
        const after = usedBytes(b, base, ps) - recSize(b, base, rec, 0) - 2;
        if (n === 1 || after * 100 < pageCapacity(ps) * t.mergeThreshold) {
          t.optimisticRestarts++;
          return RESTART;
        }
      }
      t.version++;
      if (trx !== NO_TRX_ID) raisePageMaxTrxId(b, base, trx);
      deleteRec(b, base, ps, slot);
      t.store.markDirty(frame);
      t.optimisticWrites++;
      return 1;
    } finally {
      t.unfixPage(frame, LATCH_X);
    }
  }

  /**
   * Overwrite the value of `key` in a unique tree when the new value has the same length (the
   * record keeps its place and its delete mark). Returns 1 when done, 0 when the key is absent,
   * {@link RESTART} when the length differs (the entry must move: delete and insert).
   */
  updateInPlace(key: Uint8Array, value: Uint8Array): number {
    const t = this.#t;
    const b = t.b;
    const ps = t.ps;
    const frame = t.descendLeafX(key, null);
    try {
      const base = frame * ps;
      const slot = t.sc.searchUncached(base, key, null, false);
      if (slot >= nRecs(b, base)) return 0;
      const rec = slotRec(b, base, ps, slot);
      if (t.compareRec(base, rec, key, null) !== 0) return 0;
      if (recValLen(b, base, rec) !== value.length) {
        t.optimisticRestarts++;
        return RESTART;
      }
      b.set(value, base + rec + REC_HEADER + key.length);
      t.version++;
      t.store.markDirty(frame);
      t.optimisticWrites++;
      return 1;
    } finally {
      t.unfixPage(frame, LATCH_X);
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array, off: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[off + i]) return false;
  return true;
}
