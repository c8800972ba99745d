import {
  CorruptionError,
  getPageLsn,
  initPage,
  type PageDevice,
  sealPage,
  verifyPage,
  writePageLsn,
} from '@enginekit/buffer-pool';
import { readDoublewrite } from './doublewrite.js';
import { MLOG_PAGE_BYTES, MLOG_PAGE_INIT } from './format.js';
import type { LogScan } from './log-scan.js';
import { recordEnd } from './log-scan.js';
import { applyPageBytes, recordPage } from './page-diff.js';

/** What recovery did (`Database.recovery`). */
export interface RecoveryReport {
  /** The checkpoint recovery started from, and where the log ended. */
  readonly checkpointLsn: bigint;
  readonly endLsn: bigint;
  /** Bytes of records scanned and mini-transactions found after the checkpoint. */
  readonly redoBytes: number;
  readonly mtrs: number;
  /** Pages the redo touched, and pages changed by applying it. */
  readonly pagesTouched: number;
  readonly pagesApplied: number;
  /** Torn data pages rebuilt from the doublewrite file. */
  readonly pagesRepaired: number;
  readonly ms: number;
}

/** The result of {@link applyRedo}: the pages to write. */
export interface RedoApplied {
  /** Page number → the page image to write (sealed). */
  readonly pages: Map<number, Uint8Array>;
  readonly touched: number;
  readonly applied: number;
  readonly repaired: number;
}

/**
 * Recovery's page half (`recv_recover_page` over `recv_sys->addr_hash`): computes, in memory,
 * every page the redo after the checkpoint touches — read from the data file (a torn page
 * replaced by its doublewrite copy), or rebuilt from its MLOG_PAGE_INIT — with each mtr applied
 * whose start LSN is above the page's LSN. Nothing is written: a page that is corrupt and cannot
 * be repaired or rebuilt throws CorruptionError first.
 */
export function applyRedo(scan: LogScan, data: PageDevice, dblwr: PageDevice | null, space = 0): RedoApplied {
  const ps = data.pageSize;
  const b = scan.bytes;
  const copies = dblwr === null ? new Map<number, Uint8Array>() : readDoublewrite(dblwr);
  // page → indexes of the mtrs touching it, in order; whether its first touch is a creation.
  const perPage = new Map<number, number[]>();
  const created = new Map<number, number>();
  for (const [m, mtr] of scan.mtrs.entries()) {
    let q = mtr.from;
    while (q < mtr.to) {
      const t = b[q]!;
      if (t === MLOG_PAGE_INIT || t === MLOG_PAGE_BYTES) {
        const [sp, pageNo] = recordPage(b, q + 1);
        if (sp === space) {
          let list = perPage.get(pageNo);
          if (list === undefined) perPage.set(pageNo, (list = []));
          if (list[list.length - 1] !== m) list.push(m);
          if (t === MLOG_PAGE_INIT && !created.has(pageNo)) created.set(pageNo, m);
        }
      }
      q = recordEnd(b, q, ps);
    }
  }
  const pages = new Map<number, Uint8Array>();
  let applied = 0;
  let repaired = 0;
  const onDisk = data.size();
  // Torn pages with a doublewrite copy are repaired whether or not the redo touches them.
  for (const [pageNo, copy] of copies) {
    if (pageNo >= onDisk) continue;
    const page = new Uint8Array(ps);
    data.readPages(pageNo, 1, page, 0);
    if (verifyPage(page, 0, ps, space, pageNo) !== null) {
      pages.set(pageNo, copy);
      repaired++;
    }
  }
  for (const [pageNo, list] of perPage) {
    let page = pages.get(pageNo);
    let first = 0;
    if (page === undefined) {
      page = new Uint8Array(ps);
      let bad: string | null = 'page past the end of the file';
      if (pageNo < onDisk) {
        data.readPages(pageNo, 1, page, 0);
        bad = verifyPage(page, 0, ps, space, pageNo);
        if (bad === null && getPageLsn(page, 0) === 0n && created.get(pageNo) !== list[0]) bad = 'empty page';
      }
      if (bad !== null) {
        const c = created.get(pageNo);
        if (c === undefined)
          throw new CorruptionError(
            data.name,
            space,
            pageNo,
            `${bad} (the redo log changes it and cannot rebuild it)`,
          );
        // Created after the checkpoint: every change since its creation is in the log.
        first = list.indexOf(c);
        initPage(page, 0, ps, space, pageNo);
      }
    }
    let lsn = getPageLsn(page, 0);
    let changed = false;
    for (let k = first; k < list.length; k++) {
      const mtr = scan.mtrs[list[k]!]!;
      if (mtr.start <= lsn) continue;
      let q = mtr.from;
      while (q < mtr.to) {
        const t = b[q]!;
        const next = recordEnd(b, q, ps);
        if (t === MLOG_PAGE_INIT || t === MLOG_PAGE_BYTES) {
          const [sp, p] = recordPage(b, q + 1);
          if (sp === space && p === pageNo) {
            if (t === MLOG_PAGE_INIT) initPage(page, 0, ps, space, pageNo);
            else if (applyPageBytes(b, q + 9, next, page, 0, ps) < 0)
              throw new CorruptionError(data.name, space, pageNo, 'redo record outside the page');
          }
        }
        q = next;
      }
      lsn = mtr.end - 1n;
      writePageLsn(page, 0, ps, lsn);
      changed = true;
      applied++;
    }
    if (changed) {
      sealPage(page, 0, ps, space, pageNo, lsn);
      pages.set(pageNo, page);
    }
  }
  return { pages, touched: perPage.size, applied, repaired };
}
