import {
  FIL_NULL,
  FIL_PAGE_DATA_END,
  FIL_PAGE_NEXT,
  FIL_PAGE_PREV,
  FIL_PAGE_TYPE,
  type LatchMode,
  readUint32BE,
  setPageType,
  writeUint32BE,
} from '@enginekit/buffer-pool';
import { CorruptionError } from '@enginekit/buffer-pool';
import { freePage } from './fsp.js';
import type { MtrStore } from './redo/mtr.js';
import {
  decodeUndoRecord,
  MAX_RSEGS,
  PAGE_TYPE_RSEG,
  PAGE_TYPE_TRX_SYS,
  PAGE_TYPE_UNDO_LOG,
  readU16,
  readU48,
  readU64n,
  RSEG_CACHED_FIRST,
  RSEG_CACHED_N,
  RSEG_HISTORY_FIRST,
  RSEG_HISTORY_LAST,
  RSEG_HISTORY_SIZE,
  RSEG_N_SLOTS,
  RSEG_SLOTS,
  rollPtr,
  rollPtrOffset,
  rollPtrPage,
  SLOT_FREE,
  TRX_SYS_N_RSEGS,
  TRX_SYS_RSEGS,
  TRX_SYS_TRX_ID_STORE,
  UNDO_ACTIVE,
  UNDO_CACHED,
  UNDO_DEL_MARKS,
  UNDO_HIST_NEXT,
  UNDO_HIST_PREV,
  UNDO_INSERT,
  UNDO_INSERT_REC,
  UNDO_LAST_PAGE,
  UNDO_LOG_RECORDS,
  UNDO_N_PAGES,
  UNDO_PAGE_FREE,
  UNDO_PAGE_LOG,
  UNDO_PAGE_RECORDS,
  UNDO_PAGE_START,
  UNDO_PAGE_TRX,
  UNDO_PAGE_TYPE,
  UNDO_RSEG,
  UNDO_SLOT,
  UNDO_STATE,
  UNDO_TO_FREE,
  UNDO_TO_PURGE,
  UNDO_TRX_NO,
  UNDO_UPDATE,
  type UndoRecord,
  undoRecordNo,
  undoRecordSize,
  writeU16,
  writeU48,
  writeU64n,
  writeUndoRecord,
} from './undo-format.js';

const S: LatchMode = 1;
const X: LatchMode = 2;

/** Cached one-page logs kept per rollback segment for reuse (beyond this they are freed). */
const MAX_CACHED = 128;

/** A transaction's undo log of one type, as the transaction keeps track of it. */
export interface UndoLogRef {
  readonly rseg: number;
  /** UNDO_INSERT or UNDO_UPDATE. */
  readonly type: number;
  /** The log's first page (its header). */
  readonly first: number;
  /** The log's last page. */
  last: number;
  /** Its rollback segment slot while active. */
  readonly slot: number;
  readonly trxId: number;
}

/**
 * A log marked to be freed (UNDO_TO_FREE) whose pages are not all freed yet: it stays named by its
 * rollback segment slot (`slot`) or, after purge, first in the segment's history (`slot` −1)
 * until its last page goes, so a crash part-way leaves it where the next open finds it.
 */
export interface LogToFree {
  readonly rseg: number;
  readonly first: number;
  readonly slot: number;
}

/** Where one undo record lies. */
export interface UndoPosition {
  readonly page: number;
  readonly offset: number;
}

/** What a roll pointer's transaction has become, for a walk over versions. */
export const LOG_GONE = -1;
export const LOG_ACTIVE = -2;

/**
 * The undo logs of a database file (InnoDB's trx0sys, trx0rseg and trx0undo): the TRX_SYS page,
 * the rollback segments' header pages with their slots, history lists and caches, and the undo
 * log pages themselves, all changed inside mini-transactions of `store` (so redo-logged, and
 * shared through the buffer pool by every thread that attaches). Formats: undo-format.ts.
 *
 * Every method that changes pages runs as one mini-transaction (joining the caller's if one is
 * open). Callers serialize writes of one log (a log belongs to one transaction); rollback
 * segment headers are changed only under their page's X latch.
 */
export class UndoSpace {
  readonly store: MtrStore;
  readonly trxSysPage: number;
  readonly rsegPages: readonly number[];
  readonly #ps: number;
  readonly #b: Uint8Array;

  constructor(store: MtrStore, trxSysPage: number) {
    this.store = store;
    this.trxSysPage = trxSysPage;
    this.#ps = store.pageSize;
    this.#b = store.bytes;
    const f = store.fix(0, trxSysPage, S);
    try {
      const base = f * this.#ps;
      if (readU16(this.#b, base + FIL_PAGE_TYPE) !== PAGE_TYPE_TRX_SYS)
        throw new CorruptionError('database', 0, trxSysPage, 'the TRX_SYS page has the wrong type');
      const n = readU16(this.#b, base + TRX_SYS_N_RSEGS);
      const pages: number[] = [];
      for (let i = 0; i < n; i++) pages.push(readUint32BE(this.#b, base + TRX_SYS_RSEGS + 4 * i));
      this.rsegPages = pages;
    } finally {
      store.unfix(f, S);
    }
  }

  /**
   * Formats the TRX_SYS page and `rsegs` rollback segment header pages (`trx_sys_create`,
   * `trx_rseg_header_create`) in the caller's mini-transaction; returns the TRX_SYS page number.
   */
  static create(store: MtrStore, rsegs: number): number {
    if (!Number.isInteger(rsegs) || rsegs < 1 || rsegs > MAX_RSEGS)
      throw new RangeError(`rollback segments must be an integer in [1, ${MAX_RSEGS}], got ${rsegs}`);
    const ps = store.pageSize;
    const b = store.bytes;
    const t = store.allocatePage(0);
    const tBase = t * ps;
    const tPage = readUint32BE(b, tBase + 4);
    setPageType(b, tBase, PAGE_TYPE_TRX_SYS);
    writeU64n(b, tBase + TRX_SYS_TRX_ID_STORE, 1);
    writeU16(b, tBase + TRX_SYS_N_RSEGS, rsegs);
    const slots = slotsPerRseg(ps);
    for (let i = 0; i < rsegs; i++) {
      const r = store.allocatePage(0);
      const rBase = r * ps;
      setPageType(b, rBase, PAGE_TYPE_RSEG);
      writeUint32BE(b, rBase + RSEG_HISTORY_SIZE, 0);
      writeUint32BE(b, rBase + RSEG_HISTORY_FIRST, FIL_NULL);
      writeUint32BE(b, rBase + RSEG_HISTORY_LAST, FIL_NULL);
      writeUint32BE(b, rBase + RSEG_CACHED_FIRST, FIL_NULL);
      writeUint32BE(b, rBase + RSEG_CACHED_N, 0);
      writeU16(b, rBase + RSEG_N_SLOTS, slots);
      for (let s = 0; s < slots; s++) writeUint32BE(b, rBase + RSEG_SLOTS + 4 * s, SLOT_FREE);
      writeUint32BE(b, tBase + TRX_SYS_RSEGS + 4 * i, readUint32BE(b, rBase + 4));
      store.markDirty(r);
      store.unfix(r, X);
    }
    store.markDirty(t);
    store.unfix(t, X);
    return tPage;
  }

  /** Runs `fn` as one mini-transaction of the store. */
  #mtr<T>(fn: () => T): T {
    const m = this.store;
    m.begin();
    let r: T;
    try {
      r = fn();
    } catch (e) {
      m.rollback();
      throw e;
    }
    m.commit();
    return r;
  }

  // ------------------------------------------------------------------ transaction ids

  /** TRX_SYS_TRX_ID_STORE: every id below it may have been used. */
  readTrxIdStore(): number {
    const f = this.store.fix(0, this.trxSysPage, S);
    const v = readU64n(this.#b, f * this.#ps + TRX_SYS_TRX_ID_STORE);
    this.store.unfix(f, S);
    return v;
  }

  /** Raises TRX_SYS_TRX_ID_STORE to `bound` (a logged mini-transaction of its own). */
  writeTrxIdStore(bound: number): void {
    this.#mtr(() => {
      const f = this.store.fix(0, this.trxSysPage, X);
      writeU64n(this.#b, f * this.#ps + TRX_SYS_TRX_ID_STORE, bound);
      this.store.markDirty(f);
      this.store.unfix(f, X);
    });
  }

  // ------------------------------------------------------------------ creating and writing logs

  /**
   * A new undo log of `type` for transaction `trxId` in rollback segment `rseg`
   * (`trx_undo_assign_undo`): a cached one-page log if the segment has one, else a new page; it
   * takes a free slot of the segment. Throws RangeError when every slot is taken.
   */
  createLog(rseg: number, type: number, trxId: number): UndoLogRef {
    return this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      const ps = this.#ps;
      const r = m.fix(0, this.rsegPages[rseg]!, X);
      const rBase = r * ps;
      const nSlots = readU16(b, rBase + RSEG_N_SLOTS);
      let slot = -1;
      for (let s = 0; s < nSlots; s++)
        if (readUint32BE(b, rBase + RSEG_SLOTS + 4 * s) === SLOT_FREE) {
          slot = s;
          break;
        }
      if (slot < 0) {
        m.unfix(r, X);
        throw new RangeError(`rollback segment ${rseg} has no free undo slot (all ${nSlots} in use)`);
      }
      let f: number;
      const cached = readUint32BE(b, rBase + RSEG_CACHED_FIRST);
      if (cached !== FIL_NULL) {
        f = m.fix(0, cached, X);
        writeUint32BE(b, rBase + RSEG_CACHED_FIRST, readUint32BE(b, f * ps + UNDO_HIST_NEXT));
        writeUint32BE(b, rBase + RSEG_CACHED_N, readUint32BE(b, rBase + RSEG_CACHED_N) - 1);
      } else f = m.allocatePage(0);
      const base = f * ps;
      const page = readUint32BE(b, base + 4);
      setPageType(b, base, PAGE_TYPE_UNDO_LOG);
      writeUint32BE(b, base + FIL_PAGE_PREV, FIL_NULL);
      writeUint32BE(b, base + FIL_PAGE_NEXT, FIL_NULL);
      writeU16(b, base + UNDO_PAGE_TYPE, type);
      writeU16(b, base + UNDO_PAGE_START, UNDO_LOG_RECORDS);
      writeU16(b, base + UNDO_PAGE_FREE, UNDO_LOG_RECORDS);
      writeUint32BE(b, base + UNDO_PAGE_LOG, page);
      writeU48(b, base + UNDO_PAGE_TRX, trxId);
      writeU16(b, base + UNDO_STATE, UNDO_ACTIVE);
      writeU64n(b, base + UNDO_TRX_NO, 0);
      writeUint32BE(b, base + UNDO_LAST_PAGE, page);
      writeUint32BE(b, base + UNDO_N_PAGES, 1);
      writeU16(b, base + UNDO_SLOT, slot);
      b[base + UNDO_RSEG] = rseg;
      b[base + UNDO_DEL_MARKS] = 0;
      writeUint32BE(b, base + UNDO_HIST_PREV, FIL_NULL);
      writeUint32BE(b, base + UNDO_HIST_NEXT, FIL_NULL);
      m.markDirty(f);
      m.unfix(f, X);
      writeUint32BE(b, rBase + RSEG_SLOTS + 4 * slot, page);
      m.markDirty(r);
      m.unfix(r, X);
      return { rseg, type, first: page, last: page, slot, trxId };
    });
  }

  /**
   * Appends an undo record to `log` (`trx_undo_report_row_operation`) as a mini-transaction of its
   * own, and returns the roll pointer that names it. A record that does not fit the last page goes
   * on a new page linked after it. `row[rowOff, rowOff + rowLen)` is the previous version's row
   * (update records only).
   */
  append(
    log: UndoLogRef,
    type: number,
    undoNo: number,
    tableId: number,
    key: Uint8Array,
    oldDeleted: boolean,
    oldTrxId: number,
    oldRoll: number,
    row: Uint8Array,
    rowOff: number,
    rowLen: number,
  ): number {
    const size = undoRecordSize(type, key.length, type === UNDO_INSERT_REC ? 0 : rowLen);
    const ps = this.#ps;
    const room = ps - FIL_PAGE_DATA_END;
    if (UNDO_PAGE_RECORDS + size > room)
      throw new RangeError(`an undo record of ${size} bytes does not fit a ${ps}-byte page`);
    return this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      let f = m.fix(0, log.last, X);
      let base = f * ps;
      let free = readU16(b, base + UNDO_PAGE_FREE);
      if (free + size > room) {
        // a new page after the last one (`trx_undo_add_page`)
        const n = m.allocatePage(0);
        const nBase = n * ps;
        const page = readUint32BE(b, nBase + 4);
        setPageType(b, nBase, PAGE_TYPE_UNDO_LOG);
        writeUint32BE(b, nBase + FIL_PAGE_PREV, log.last);
        writeUint32BE(b, nBase + FIL_PAGE_NEXT, FIL_NULL);
        writeU16(b, nBase + UNDO_PAGE_TYPE, log.type);
        writeU16(b, nBase + UNDO_PAGE_START, UNDO_PAGE_RECORDS);
        writeU16(b, nBase + UNDO_PAGE_FREE, UNDO_PAGE_RECORDS);
        writeUint32BE(b, nBase + UNDO_PAGE_LOG, log.first);
        writeU48(b, nBase + UNDO_PAGE_TRX, log.trxId);
        writeUint32BE(b, base + FIL_PAGE_NEXT, page);
        m.markDirty(f);
        m.unfix(f, X);
        const h = m.fix(0, log.first, X);
        writeUint32BE(b, h * ps + UNDO_LAST_PAGE, page);
        writeUint32BE(b, h * ps + UNDO_N_PAGES, readUint32BE(b, h * ps + UNDO_N_PAGES) + 1);
        m.markDirty(h);
        m.unfix(h, X);
        log.last = page;
        f = n;
        base = nBase;
        free = UNDO_PAGE_RECORDS;
      }
      const start = readU16(b, base + UNDO_PAGE_START);
      if (free > start) {
        // link the page's previous last record to this one
        const prev = readU16(b, base + free - 2);
        writeU16(b, base + prev, free);
      }
      const end = writeUndoRecord(
        b,
        base + free,
        type,
        undoNo,
        tableId,
        key,
        oldDeleted,
        oldTrxId,
        oldRoll,
        row,
        rowOff,
        rowLen,
        base,
      );
      writeU16(b, base + UNDO_PAGE_FREE, end - base);
      // purge must visit a log with update records (the flag lives in the header page)
      const mark = type !== UNDO_INSERT_REC;
      if (mark && log.first === log.last) b[base + UNDO_DEL_MARKS] = 1;
      m.markDirty(f);
      m.unfix(f, X);
      if (mark && log.first !== log.last) {
        const h = m.fix(0, log.first, X);
        if (b[h * ps + UNDO_DEL_MARKS] === 0) {
          b[h * ps + UNDO_DEL_MARKS] = 1;
          m.markDirty(h);
        }
        m.unfix(h, X);
      }
      return rollPtr(log.rseg, !mark, log.last, free);
    });
  }

  // ------------------------------------------------------------------ reading

  /**
   * The undo record a roll pointer names, if the page still belongs to transaction `trxId`'s log
   * (null: that log was purged and its page reused or freed — every read view sees the version).
   */
  readAt(roll: number, trxId: number): UndoRecord | null {
    const page = rollPtrPage(roll);
    const offset = rollPtrOffset(roll);
    const m = this.store;
    const f = m.fix(0, page, S);
    try {
      const base = f * this.#ps;
      if (
        readU16(this.#b, base + FIL_PAGE_TYPE) !== PAGE_TYPE_UNDO_LOG ||
        readU48(this.#b, base + UNDO_PAGE_TRX) !== trxId
      )
        return null;
      const start = readU16(this.#b, base + UNDO_PAGE_START);
      const free = readU16(this.#b, base + UNDO_PAGE_FREE);
      if (offset < start || offset >= free) return null;
      return decodeUndoRecord(this.#b, base + offset);
    } finally {
      m.unfix(f, S);
    }
  }

  /**
   * What became of transaction `trxId`, whose undo record `roll` names: {@link LOG_GONE} (its log
   * was purged), {@link LOG_ACTIVE} (it has not committed), or its serialisation number.
   */
  logStatus(roll: number, trxId: number): number {
    const m = this.store;
    const f = m.fix(0, rollPtrPage(roll), S);
    let first: number;
    try {
      const base = f * this.#ps;
      if (
        readU16(this.#b, base + FIL_PAGE_TYPE) !== PAGE_TYPE_UNDO_LOG ||
        readU48(this.#b, base + UNDO_PAGE_TRX) !== trxId
      )
        return LOG_GONE;
      first = readUint32BE(this.#b, base + UNDO_PAGE_LOG);
    } finally {
      m.unfix(f, S);
    }
    const h = m.fix(0, first, S);
    try {
      const base = h * this.#ps;
      if (readU48(this.#b, base + UNDO_PAGE_TRX) !== trxId) return LOG_GONE;
      const state = readU16(this.#b, base + UNDO_STATE);
      if (state === UNDO_ACTIVE) return LOG_ACTIVE;
      if (state === UNDO_TO_PURGE) return readU64n(this.#b, base + UNDO_TRX_NO);
      return LOG_GONE;
    } finally {
      m.unfix(h, S);
    }
  }

  /** The log's last record, or null when it has none. */
  lastRecord(log: UndoLogRef): UndoPosition | null {
    return this.#lastFrom(log.last, log.first);
  }

  #lastFrom(page: number, first: number): UndoPosition | null {
    const m = this.store;
    let p = page;
    for (;;) {
      const f = m.fix(0, p, S);
      const base = f * this.#ps;
      const start = readU16(this.#b, base + UNDO_PAGE_START);
      const free = readU16(this.#b, base + UNDO_PAGE_FREE);
      const prev = readUint32BE(this.#b, base + FIL_PAGE_PREV);
      const last = free > start ? readU16(this.#b, base + free - 2) : -1;
      m.unfix(f, S);
      if (last >= 0) return { page: p, offset: last };
      if (p === first || prev === FIL_NULL) return null;
      p = prev;
    }
  }

  /** The record before `pos` in its log, or null at the first. */
  previous(pos: UndoPosition, first: number): UndoPosition | null {
    const m = this.store;
    const f = m.fix(0, pos.page, S);
    const base = f * this.#ps;
    const start = readU16(this.#b, base + UNDO_PAGE_START);
    const prev = readUint32BE(this.#b, base + FIL_PAGE_PREV);
    const before = pos.offset > start ? readU16(this.#b, base + pos.offset - 2) : -1;
    m.unfix(f, S);
    if (before >= 0) return { page: pos.page, offset: before };
    if (pos.page === first || prev === FIL_NULL) return null;
    return this.#lastFrom(prev, first);
  }

  /** The record at `pos` (decoded, copied). */
  record(pos: UndoPosition): UndoRecord {
    const m = this.store;
    const f = m.fix(0, pos.page, S);
    try {
      return decodeUndoRecord(this.#b, f * this.#ps + pos.offset);
    } finally {
      m.unfix(f, S);
    }
  }

  /** The undo number of the record at `pos`. */
  recordNo(pos: UndoPosition): number {
    const m = this.store;
    const f = m.fix(0, pos.page, S);
    try {
      return undoRecordNo(this.#b, f * this.#ps + pos.offset);
    } finally {
      m.unfix(f, S);
    }
  }

  /**
   * Calls `fn` with every record of the log whose first page is `first`, oldest first (purge's
   * order). Stops when `fn` returns false.
   */
  forEachRecord(first: number, fn: (rec: UndoRecord, pos: UndoPosition) => boolean | undefined): void {
    const m = this.store;
    let page = first;
    while (page !== FIL_NULL) {
      const f = m.fix(0, page, S);
      const base = f * this.#ps;
      const recs: Array<[UndoRecord, number]> = [];
      let at = readU16(this.#b, base + UNDO_PAGE_START);
      const free = readU16(this.#b, base + UNDO_PAGE_FREE);
      while (at < free && at !== 0) {
        recs.push([decodeUndoRecord(this.#b, base + at), at]);
        at = readU16(this.#b, base + at);
      }
      const next = readUint32BE(this.#b, base + FIL_PAGE_NEXT);
      m.unfix(f, S);
      for (const [rec, offset] of recs) if (fn(rec, { page, offset }) === false) return;
      page = next;
    }
  }

  // ------------------------------------------------------------------ truncating and ending logs

  /**
   * Removes the log's last record (after a rollback applied it: `trx_undo_truncate_end`); a page
   * left empty, other than the first, is freed. One mini-transaction.
   */
  removeLast(log: UndoLogRef, pos: UndoPosition): void {
    this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      const ps = this.#ps;
      const f = m.fix(0, pos.page, X);
      const base = f * ps;
      const start = readU16(b, base + UNDO_PAGE_START);
      writeU16(b, base + UNDO_PAGE_FREE, pos.offset);
      if (pos.offset > start) writeU16(b, base + readU16(b, base + pos.offset - 2), 0);
      m.markDirty(f);
      const prev = readUint32BE(b, base + FIL_PAGE_PREV);
      m.unfix(f, X);
      if (pos.offset === start && pos.page !== log.first) {
        // the page is empty: unlink and free it (it is the last page)
        const p = m.fix(0, prev, X);
        writeUint32BE(b, p * ps + FIL_PAGE_NEXT, FIL_NULL);
        m.markDirty(p);
        m.unfix(p, X);
        const h = m.fix(0, log.first, X);
        writeUint32BE(b, h * ps + UNDO_LAST_PAGE, prev);
        writeUint32BE(b, h * ps + UNDO_N_PAGES, readUint32BE(b, h * ps + UNDO_N_PAGES) - 1);
        m.markDirty(h);
        m.unfix(h, X);
        freePage(m, pos.page);
        log.last = prev;
      }
    });
  }

  /**
   * Ends an insert undo log at commit, or either log after a full rollback
   * (`trx_undo_insert_cleanup`): nobody needs its records any more. A one-page log is kept in the
   * segment's cache for reuse, a longer one freed.
   */
  freeLog(log: UndoLogRef): void {
    const f = this.releaseLog(log);
    if (f !== null) this.finishFree(f);
  }

  /**
   * The first half of {@link freeLog}, in the caller's mini-transaction (or one of its own): a
   * one-page log leaves its slot for the cache (null: nothing left to do); a longer one is marked
   * to be freed and keeps its slot until {@link finishFree} has freed its last page, so a crash
   * in between leaves it where the next open finds it.
   */
  releaseLog(log: UndoLogRef): LogToFree | null {
    return this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      const ps = this.#ps;
      const r = m.fix(0, this.rsegPages[log.rseg]!, X);
      const h = m.fix(0, log.first, X);
      const cached = this.#cacheable(r, h);
      if (cached) {
        writeUint32BE(b, r * ps + RSEG_SLOTS + 4 * log.slot, SLOT_FREE);
        this.#cache(r, h, log.first);
      } else writeU16(b, h * ps + UNDO_STATE, UNDO_TO_FREE);
      m.markDirty(h);
      m.unfix(h, X);
      m.markDirty(r);
      m.unfix(r, X);
      return cached ? null : { rseg: log.rseg, first: log.first, slot: log.slot };
    });
  }

  /** Frees the pages of a log marked to be freed, step by step (`trx_undo_seg_free`). */
  finishFree(f: LogToFree): void {
    while (!this.freeStep(f));
  }

  /**
   * One mini-transaction of {@link finishFree} (`fseg_free_step`): hands the next 64 pages after
   * the log's header page to the free list, the header's page chain and count shrinking with
   * them, so a crash between two steps leaves a log whose chain names exactly the pages not yet
   * freed. The last step frees the header page and takes the log out of its slot or its history
   * list. Returns true after that last step.
   */
  freeStep(f: LogToFree): boolean {
    return this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      const ps = this.#ps;
      const h = m.fix(0, f.first, X);
      const hBase = h * ps;
      let next = readUint32BE(b, hBase + FIL_PAGE_NEXT);
      if (next !== FIL_NULL) {
        let n = readUint32BE(b, hBase + UNDO_N_PAGES);
        for (let i = 0; i < 64 && next !== FIL_NULL; i++) {
          const page = next;
          const p = m.fix(0, page, X);
          next = readUint32BE(b, p * ps + FIL_PAGE_NEXT);
          m.unfix(p, X);
          freePage(m, page);
          n--;
        }
        writeUint32BE(b, hBase + FIL_PAGE_NEXT, next);
        writeUint32BE(b, hBase + UNDO_N_PAGES, n);
        if (next === FIL_NULL) writeUint32BE(b, hBase + UNDO_LAST_PAGE, f.first);
        else {
          const p = m.fix(0, next, X);
          writeUint32BE(b, p * ps + FIL_PAGE_PREV, f.first);
          m.markDirty(p);
          m.unfix(p, X);
        }
        m.markDirty(h);
        m.unfix(h, X);
        return false;
      }
      m.unfix(h, X);
      const r = m.fix(0, this.rsegPages[f.rseg]!, X);
      if (f.slot >= 0) writeUint32BE(b, r * ps + RSEG_SLOTS + 4 * f.slot, SLOT_FREE);
      else this.#removeHistoryFirst(r, f.first);
      m.markDirty(r);
      m.unfix(r, X);
      freePage(m, f.first);
      return true;
    });
  }

  /** Whether the log with header page frame `h` may go to the cache of the rollback segment whose header is frame `r`. */
  #cacheable(r: number, h: number): boolean {
    return (
      readUint32BE(this.#b, h * this.#ps + UNDO_N_PAGES) === 1 &&
      readUint32BE(this.#b, r * this.#ps + RSEG_CACHED_N) < MAX_CACHED
    );
  }

  /** Puts the one-page log `first` (header frame `h`) in the cache of the rollback segment whose header is frame `r`. */
  #cache(r: number, h: number, first: number): void {
    const b = this.#b;
    const rBase = r * this.#ps;
    const hBase = h * this.#ps;
    writeU16(b, hBase + UNDO_STATE, UNDO_CACHED);
    writeU48(b, hBase + UNDO_PAGE_TRX, 0);
    writeU16(b, hBase + UNDO_PAGE_FREE, UNDO_LOG_RECORDS);
    writeU16(b, hBase + UNDO_SLOT, 0xffff);
    writeUint32BE(b, hBase + UNDO_HIST_PREV, FIL_NULL);
    writeUint32BE(b, hBase + UNDO_HIST_NEXT, readUint32BE(b, rBase + RSEG_CACHED_FIRST));
    writeUint32BE(b, rBase + RSEG_CACHED_FIRST, first);
    writeUint32BE(b, rBase + RSEG_CACHED_N, readUint32BE(b, rBase + RSEG_CACHED_N) + 1);
  }

  /**
   * Commits an update undo log (`trx_undo_update_cleanup` + `trx_purge_add_update_undo_to_history`):
   * it waits for purge, appended to its rollback segment's history list under the serialisation
   * number `assignNo()` gives (called with the segment's header X-latched, so the list stays in
   * number order), and its slot is released. One mini-transaction; returns the number.
   */
  commitUpdate(log: UndoLogRef, assignNo: () => number): number {
    return this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      const ps = this.#ps;
      const r = m.fix(0, this.rsegPages[log.rseg]!, X);
      const rBase = r * ps;
      const no = assignNo();
      const h = m.fix(0, log.first, X);
      const hBase = h * ps;
      writeU16(b, hBase + UNDO_STATE, UNDO_TO_PURGE);
      writeU64n(b, hBase + UNDO_TRX_NO, no);
      writeU16(b, hBase + UNDO_SLOT, 0xffff);
      const lastLog = readUint32BE(b, rBase + RSEG_HISTORY_LAST);
      writeUint32BE(b, hBase + UNDO_HIST_PREV, lastLog);
      writeUint32BE(b, hBase + UNDO_HIST_NEXT, FIL_NULL);
      m.markDirty(h);
      m.unfix(h, X);
      if (lastLog === FIL_NULL) writeUint32BE(b, rBase + RSEG_HISTORY_FIRST, log.first);
      else {
        const p = m.fix(0, lastLog, X);
        writeUint32BE(b, p * ps + UNDO_HIST_NEXT, log.first);
        m.markDirty(p);
        m.unfix(p, X);
      }
      writeUint32BE(b, rBase + RSEG_HISTORY_LAST, log.first);
      writeUint32BE(b, rBase + RSEG_HISTORY_SIZE, readUint32BE(b, rBase + RSEG_HISTORY_SIZE) + 1);
      writeUint32BE(b, rBase + RSEG_SLOTS + 4 * log.slot, SLOT_FREE);
      m.markDirty(r);
      m.unfix(r, X);
      return no;
    });
  }

  // ------------------------------------------------------------------ history (purge)

  /** Undo logs in every history list (InnoDB's `History list length`). */
  historyLength(): number {
    let n = 0;
    for (const p of this.rsegPages) {
      const f = this.store.fix(0, p, S);
      n += readUint32BE(this.#b, f * this.#ps + RSEG_HISTORY_SIZE);
      this.store.unfix(f, S);
    }
    return n;
  }

  /** The oldest log of rollback segment `rseg`'s history: its first page, transaction id and number. */
  oldest(
    rseg: number,
  ): { first: number; trxId: number; trxNo: number; pages: number; freeing: boolean } | null {
    const m = this.store;
    const r = m.fix(0, this.rsegPages[rseg]!, S);
    const first = readUint32BE(this.#b, r * this.#ps + RSEG_HISTORY_FIRST);
    m.unfix(r, S);
    if (first === FIL_NULL) return null;
    const h = m.fix(0, first, S);
    const base = h * this.#ps;
    const out = {
      first,
      trxId: readU48(this.#b, base + UNDO_PAGE_TRX),
      trxNo: readU64n(this.#b, base + UNDO_TRX_NO),
      pages: readUint32BE(this.#b, base + UNDO_N_PAGES),
      freeing: readU16(this.#b, base + UNDO_STATE) === UNDO_TO_FREE,
    };
    m.unfix(h, S);
    return out;
  }

  /**
   * Ends the oldest log of `rseg`'s history once purge applied its records: a one-page log moves
   * to the cache in one mini-transaction; a longer one is marked to be freed (purge will not read
   * its records again, `trx_purge_free_segment`) and stays first in the history while its pages
   * are freed, leaving it with the last one.
   */
  purgeOldest(rseg: number, first: number): void {
    const f = this.#mtr(() => {
      const m = this.store;
      const b = this.#b;
      const ps = this.#ps;
      const r = m.fix(0, this.rsegPages[rseg]!, X);
      if (readUint32BE(b, r * ps + RSEG_HISTORY_FIRST) !== first)
        throw new RangeError(`undo log ${first} is not the oldest in rollback segment ${rseg}'s history`);
      const h = m.fix(0, first, X);
      const cached = this.#cacheable(r, h);
      if (cached) {
        this.#removeHistoryFirst(r, first);
        this.#cache(r, h, first);
      } else writeU16(b, h * ps + UNDO_STATE, UNDO_TO_FREE);
      m.markDirty(h);
      m.unfix(h, X);
      m.markDirty(r);
      m.unfix(r, X);
      return cached ? null : { rseg, first, slot: -1 };
    });
    if (f !== null) this.finishFree(f);
  }

  /** Takes `first`, the oldest log, off the history of the rollback segment whose header is frame `r`. */
  #removeHistoryFirst(r: number, first: number): void {
    const m = this.store;
    const b = this.#b;
    const ps = this.#ps;
    const rBase = r * ps;
    const h = m.fix(0, first, X);
    const next = readUint32BE(b, h * ps + UNDO_HIST_NEXT);
    m.unfix(h, X);
    writeUint32BE(b, rBase + RSEG_HISTORY_FIRST, next);
    if (next === FIL_NULL) writeUint32BE(b, rBase + RSEG_HISTORY_LAST, FIL_NULL);
    else {
      const n = m.fix(0, next, X);
      writeUint32BE(b, n * ps + UNDO_HIST_PREV, FIL_NULL);
      m.markDirty(n);
      m.unfix(n, X);
    }
    writeUint32BE(b, rBase + RSEG_HISTORY_SIZE, readUint32BE(b, rBase + RSEG_HISTORY_SIZE) - 1);
  }

  // ------------------------------------------------------------------ recovery

  /** Every active log in a slot (transactions that were active at the crash), as refs. */
  activeLogs(): UndoLogRef[] {
    return this.#slotLogs().filter((l) => !l.freeing);
  }

  /**
   * Logs whose freeing a crash interrupted: marked to be freed in a slot (a committed insert log,
   * a rolled-back transaction's logs) or first in a history list (after purge).
   */
  unfinishedFrees(): LogToFree[] {
    const out: LogToFree[] = this.#slotLogs().filter((l) => l.freeing);
    for (let rseg = 0; rseg < this.rsegPages.length; rseg++) {
      const o = this.oldest(rseg);
      if (o?.freeing) out.push({ rseg, first: o.first, slot: -1 });
    }
    return out;
  }

  #slotLogs(): Array<UndoLogRef & { freeing: boolean }> {
    const m = this.store;
    const out: Array<UndoLogRef & { freeing: boolean }> = [];
    for (const [rseg, rp] of this.rsegPages.entries()) {
      const r = m.fix(0, rp, S);
      const rBase = r * this.#ps;
      const n = readU16(this.#b, rBase + RSEG_N_SLOTS);
      const firsts: Array<[number, number]> = [];
      for (let s = 0; s < n; s++) {
        const p = readUint32BE(this.#b, rBase + RSEG_SLOTS + 4 * s);
        if (p !== SLOT_FREE) firsts.push([s, p]);
      }
      m.unfix(r, S);
      for (const [slot, first] of firsts) {
        const h = m.fix(0, first, S);
        const base = h * this.#ps;
        out.push({
          rseg,
          type: readU16(this.#b, base + UNDO_PAGE_TYPE) === UNDO_INSERT ? UNDO_INSERT : UNDO_UPDATE,
          first,
          last: readUint32BE(this.#b, base + UNDO_LAST_PAGE),
          slot,
          trxId: readU48(this.#b, base + UNDO_PAGE_TRX),
          freeing: readU16(this.#b, base + UNDO_STATE) === UNDO_TO_FREE,
        });
        m.unfix(h, S);
      }
    }
    return out;
  }

  /** The largest transaction id named by any log in a slot or a history list (0: none). */
  maxTrxIdInLogs(): number {
    let max = 0;
    for (const l of this.#slotLogs()) if (l.trxId > max) max = l.trxId;
    return max;
  }
}

/** Slots per rollback segment header page: as many as fit, at most 1024 (`TRX_RSEG_N_SLOTS`). */
export function slotsPerRseg(pageSize: number): number {
  return Math.min(1024, Math.floor((pageSize - RSEG_SLOTS - FIL_PAGE_DATA_END) / 4));
}
