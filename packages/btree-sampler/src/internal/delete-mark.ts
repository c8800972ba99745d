/**
 * Multi-versioning support on the write path: the delete mark set or cleared in place (InnoDB's
 * `btr_cur_del_mark_set_sec_rec` / `btr_cur_del_mark_set_clust_rec`, which flip
 * REC_INFO_DELETED_FLAG under the leaf's X latch and move nothing), and the transaction id a
 * write raises its leaf's PAGE_MAX_TRX_ID to (`page_update_max_trx_id`).
 */
import { LATCH_X } from '@enginekit/buffer-pool';
import { MAX_TRX_ID_LIMIT, nRecs, raisePageMaxTrxId, setRecDeleted, slotRec } from '../page.js';
import type { TreeAccess } from './tree-access.js';

/** No transaction id given: the write leaves PAGE_MAX_TRX_ID alone. */
export const NO_TRX_ID = -1;

/**
 * A write's transaction id: `undefined` → {@link NO_TRX_ID}; otherwise an integer in
 * [0, 2^48) (InnoDB's 6-byte DB_TRX_ID), else a `TypeError`/`RangeError` naming the value.
 */
export function checkTrxId(v: unknown): number {
  if (v === undefined) return NO_TRX_ID;
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new TypeError(`maxTrxId must be an integer, got ${String(v)}`);
  if (v < 0 || v >= MAX_TRX_ID_LIMIT) throw new RangeError(`maxTrxId must be in [0, 2^48), got ${v}`);
  return v;
}

/**
 * Set (`marked`) or clear the delete mark of the entry (key, val) — `val` null in a unique tree —
 * and raise its leaf's PAGE_MAX_TRX_ID to `trx` (unless {@link NO_TRX_ID}). The non-leaf pages are
 * S-latched on the way down, the leaf X-latched. Returns whether the entry exists.
 * REQUIRES: the index latch held in S or X, so no structure change moves the entry meanwhile.
 */
export function markEntry(
  t: TreeAccess,
  key: Uint8Array,
  val: Uint8Array | null,
  marked: boolean,
  trx: number,
): boolean {
  const b = t.b;
  const frame = t.descendLeafX(key, val);
  try {
    const base = frame * t.ps;
    const slot = t.sc.searchUncached(base, key, val, false);
    if (slot >= nRecs(b, base)) return false;
    const rec = slotRec(b, base, t.ps, slot);
    if (t.compareRec(base, rec, key, val) !== 0) return false;
    setRecDeleted(b, base, rec, marked);
    if (trx !== NO_TRX_ID) raisePageMaxTrxId(b, base, trx);
    t.version++;
    t.store.markDirty(frame);
    return true;
  } finally {
    t.unfixPage(frame, LATCH_X);
  }
}
