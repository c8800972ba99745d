import type { UndoHost } from './trx-undo.js';

/** What one purge batch did. */
export interface PurgeBatch {
  /** Undo logs removed from the history. */
  readonly logs: number;
  /** Undo records purged. */
  readonly records: number;
  /** Undo log pages handed back. */
  readonly pages: number;
}

/**
 * Purge (trx0purge + row0purge): removes what no read view needs any more. The history lists of
 * the rollback segments hold the update undo logs of committed transactions in commit order;
 * purge takes the oldest log of all (the smallest serialisation number) while that number is
 * below `limit` (the transaction system's purge limit: every open read view sees the
 * transaction), applies each of its records to its table — a delete-marked record and its entries
 * go, and after an update the previous version's entries that no version still has go — then
 * frees the log's pages (or caches a one-page log for reuse). Stops after `maxPages` undo pages
 * (`innodb_purge_batch_size`). Each step is its own mini-transaction, and a log is removed from
 * the history only after all its records were applied, so a crash in the middle purges the log
 * again (every step can run twice).
 *
 * REQUIRES: no other writer changes the tables meanwhile (the caller serializes purge with them).
 */
export function purge(host: UndoHost, limit: number, maxPages: number): PurgeBatch {
  const sp = host.undo;
  let logs = 0;
  let records = 0;
  let pages = 0;
  while (pages < maxPages) {
    let best = -1;
    let head: ReturnType<typeof sp.oldest> = null;
    for (let r = 0; r < sp.rsegPages.length; r++) {
      const o = sp.oldest(r);
      if (o !== null && (head === null || o.trxNo < head.trxNo)) {
        head = o;
        best = r;
      }
    }
    if (head === null || head.trxNo >= limit) break;
    const trxId = head.trxId;
    // a log whose freeing was interrupted has been purged already; only its pages are left
    if (!head.freeing)
      sp.forEachRecord(head.first, (rec, pos) => {
        // a table dropped since: only the off-page values of its old versions are left to free
        const t = host.tableById(rec.tableId);
        if (t !== undefined) t.purgeChange(rec, trxId, pos);
        else host.droppedTable(rec.tableId)?.purgeDropped(rec, pos);
        records++;
        return true;
      });
    sp.purgeOldest(best, head.first);
    logs++;
    pages += head.pages;
  }
  if (logs > 0) host.trxSys.historyAdd(-logs);
  return { logs, records, pages };
}
