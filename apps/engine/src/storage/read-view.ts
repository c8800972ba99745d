/**
 * A read view (InnoDB's `ReadView`, read0read.h): which transactions' changes a consistent read
 * sees. Made by {@link TrxSys.openView} from the active list at one moment:
 *
 * - `lowLimitId`: the next transaction id then; ids at or above it started later: not seen;
 * - `upLimitId`: the smallest id active then (or `lowLimitId`); ids below it had committed: seen;
 * - `ids`: the ids active then, sorted (the creator's own excluded): not seen;
 * - `creator`: the transaction the view belongs to (0 for a read-only one): its changes are seen;
 * - `lowLimitNo`: purge may remove undo of transactions whose serialisation number is below it.
 *
 * Id 0 marks a version written outside any transaction (a load, the dictionary): seen by all.
 */
export class ReadView {
  readonly lowLimitId: number;
  readonly upLimitId: number;
  readonly ids: Float64Array;
  /** The creating transaction (0 while it has no id; set when it takes one). */
  creator: number;
  readonly lowLimitNo: number;

  constructor(lowLimitId: number, ids: Float64Array, creator: number, lowLimitNo: number) {
    this.lowLimitId = lowLimitId;
    this.ids = ids;
    this.upLimitId = ids.length > 0 ? ids[0]! : lowLimitId;
    this.creator = creator;
    this.lowLimitNo = lowLimitNo;
  }

  /** Whether changes of transaction `id` are visible (`ReadView::changes_visible`). */
  sees(id: number): boolean {
    if (id < this.upLimitId || id === this.creator) return true;
    if (id >= this.lowLimitId) return false;
    // binary search of the active ids
    const a = this.ids;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid]!;
      if (v === id) return false;
      if (v < id) lo = mid + 1;
      else hi = mid;
    }
    return true;
  }

  /**
   * Whether every change on a secondary-index page whose PAGE_MAX_TRX_ID is `maxTrxId` is
   * visible, so its entries' delete marks can be trusted without the clustered record
   * (`lock_sec_rec_cons_read_sees`).
   */
  seesPage(maxTrxId: number): boolean {
    return maxTrxId < this.upLimitId;
  }
}
