import { FIL_NULL, readUint32BE, writeUint32BE } from '@enginekit/buffer-pool';

/**
 * The on-page formats of multi-versioning, after InnoDB's (trx0sys.h, trx0rseg.h, trx0undo.h,
 * trx0rec.cc, row0row.h): the hidden fields of a clustered record, the roll pointer, the
 * transaction-system page, rollback-segment header pages, undo log pages and undo records. All
 * integers are big-endian, as in the page envelope. Every page starts with the buffer pool's
 * 38-byte envelope; its FIL_PAGE_PREV / FIL_PAGE_NEXT fields (8 / 12) link the pages of one undo
 * log (InnoDB links them with a file-list node instead).
 *
 * ## A clustered record's value
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 6 | DB_TRX_ID: the transaction that wrote this version (0: written outside any transaction, visible to all) |
 * | 6 | 7 | DB_ROLL_PTR: where the undo record of the previous version is (see below) |
 * | 13 | … | the row, as the table's row codec writes it |
 *
 * The record's delete mark is btree-sampler's record flag, as InnoDB's REC_INFO_DELETED_FLAG.
 *
 * ## DB_ROLL_PTR (7 bytes; `trx_undo_build_roll_ptr`)
 *
 * | bits | field |
 * |---|---|
 * | 55 | insert flag: the version was made by an insert, there is no previous version |
 * | 48–54 | rollback segment id |
 * | 16–47 | undo page number |
 * | 0–15 | byte offset of the undo record in that page |
 *
 * In memory a roll pointer is the number `rseg·2^49 + insert·2^48 + page·2^16 + offset` (exact
 * in a double for rollback segment ids below 16, the most {@link MAX_RSEGS} allows).
 *
 * ## TRX_SYS page (page type 7)
 *
 * | offset | size | field |
 * |---|---|---|
 * | 38 | 8 | TRX_SYS_TRX_ID_STORE: every id below it may have been handed out (raised by 256 at a time) |
 * | 46 | 2 | number of rollback segments |
 * | 48 | 4·n | page number of each rollback segment's header page |
 *
 * ## Rollback segment header page (page type 6; `trx_rsegf_t`)
 *
 * | offset | size | field |
 * |---|---|---|
 * | 38 | 4 | RSEG_HISTORY_SIZE: committed update undo logs waiting for purge |
 * | 42 | 4 | RSEG_HISTORY_FIRST: first page of the oldest such log (FIL_NULL: none) |
 * | 46 | 4 | RSEG_HISTORY_LAST: first page of the newest |
 * | 50 | 4 | RSEG_CACHED_FIRST: a free one-page undo log kept for reuse (TRX_UNDO_CACHED), FIL_NULL: none |
 * | 54 | 4 | RSEG_CACHED_N: cached logs |
 * | 58 | 2 | RSEG_N_SLOTS |
 * | 60 | 4·n | slots: first page of the active undo log using the slot, FIL_NULL: free |
 *
 * ## Undo log page (page type 2; `trx_upagef_t` + `trx_usegf_t` + `trx_ulogf_t`)
 *
 * Every page:
 *
 * | offset | size | field |
 * |---|---|---|
 * | 38 | 2 | UNDO_PAGE_TYPE: 1 insert undo (records of inserts), 2 update undo |
 * | 40 | 2 | UNDO_PAGE_START: offset of the first record on the page |
 * | 42 | 2 | UNDO_PAGE_FREE: offset of the first free byte (the end of the last record) |
 * | 44 | 4 | UNDO_PAGE_LOG: the first page of the log this page belongs to |
 * | 48 | 6 | UNDO_PAGE_TRX: the log's transaction id (a page freed and reused by another log has another) |
 *
 * The first page of a log also holds the log's header:
 *
 * | offset | size | field |
 * |---|---|---|
 * | 54 | 2 | UNDO_STATE: 1 active, 2 cached (free, kept for reuse), 3 to free, 4 to purge |
 * | 56 | 8 | UNDO_TRX_NO: the transaction's serialisation number, set at commit (update undo) |
 * | 64 | 4 | UNDO_LAST_PAGE: the log's last page |
 * | 68 | 4 | UNDO_N_PAGES: pages in the log |
 * | 72 | 2 | UNDO_SLOT: its slot in the rollback segment while active |
 * | 74 | 1 | UNDO_RSEG: the rollback segment |
 * | 75 | 1 | UNDO_DEL_MARKS: 1 when purge must visit the log's records |
 * | 76 | 4 | UNDO_HIST_PREV: first page of the previous log in the history (or cache) list |
 * | 80 | 4 | UNDO_HIST_NEXT: first page of the next one |
 *
 * Records start at {@link UNDO_LOG_RECORDS} on the first page, at {@link UNDO_PAGE_RECORDS} on
 * the others, and never span pages. UNDO_PAGE_LOG and UNDO_PAGE_TRX let a reader that follows a
 * roll pointer check that the page still belongs to the transaction that wrote the version: if
 * it does not, that transaction's log was purged (every read view sees its changes).
 *
 * ## Undo record (`trx_undo_page_report_insert` / `_modify`)
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 2 | next: offset of the next record on the page, 0 for the page's last |
 * | 2 | 1 | type: 11 insert, 12 update of an existing record, 13 update of a delete-marked record (an insert over it), 14 delete mark |
 * | 3 | 6 | undo number: the record's position in its transaction (0, 1, …) |
 * | 9 | 4 | table id |
 * | 13 | 2 | K: clustered key length |
 * | 15 | K | the clustered key |
 * | 15+K | 1 | (types 12–14) info bits: 0x20 when the previous version was delete-marked |
 * | 16+K | 6 | (types 12–14) the previous version's DB_TRX_ID |
 * | 22+K | 7 | (types 12–14) the previous version's DB_ROLL_PTR |
 * | 29+K | 2 | (types 12–14) R: length of the previous version's row |
 * | 31+K | R | (types 12–14) the previous version's row (the whole row, in the row codec) |
 * | end−2 | 2 | offset of this record's start (to walk a page backwards) |
 *
 * An update record holds the whole previous row rather than InnoDB's changed fields only: a
 * previous version is then a copy, and a record is bounded by the clustered tree's entry size.
 */

/** Bytes of the hidden DB_TRX_ID + DB_ROLL_PTR at the start of a clustered record's value. */
export const HIDDEN_BYTES = 13;
/** DB_TRX_ID width in bytes. */
export const TRX_ID_BYTES = 6;
/** DB_ROLL_PTR width in bytes. */
export const ROLL_PTR_BYTES = 7;
/** The largest transaction id (48 bits). */
export const MAX_TRX_ID: number = 2 ** 48 - 1;
/** Rollback segments at most (their id fits the in-memory roll pointer). */
export const MAX_RSEGS = 16;

/** The insert flag of a roll pointer (bit 55 on disk, 2^48 in memory). */
export const ROLL_PTR_INSERT: number = 2 ** 48;
/** The roll pointer of a version with no undo at all (written outside a transaction). */
export const ROLL_PTR_NONE: number = ROLL_PTR_INSERT;

/** Page types of the formats above (InnoDB's FIL_PAGE_UNDO_LOG, FIL_PAGE_TYPE_SYS, FIL_PAGE_TYPE_TRX_SYS). */
export const PAGE_TYPE_UNDO_LOG = 2;
export const PAGE_TYPE_RSEG = 6;
export const PAGE_TYPE_TRX_SYS = 7;

export const TRX_SYS_TRX_ID_STORE = 38;
export const TRX_SYS_N_RSEGS = 46;
export const TRX_SYS_RSEGS = 48;
/** Ids are made durable this many at a time (`TRX_SYS_TRX_ID_WRITE_MARGIN`). */
export const TRX_ID_WRITE_MARGIN = 256;

export const RSEG_HISTORY_SIZE = 38;
export const RSEG_HISTORY_FIRST = 42;
export const RSEG_HISTORY_LAST = 46;
export const RSEG_CACHED_FIRST = 50;
export const RSEG_CACHED_N = 54;
export const RSEG_N_SLOTS = 58;
export const RSEG_SLOTS = 60;

export const UNDO_PAGE_TYPE = 38;
export const UNDO_PAGE_START = 40;
export const UNDO_PAGE_FREE = 42;
export const UNDO_PAGE_LOG = 44;
export const UNDO_PAGE_TRX = 48;
export const UNDO_PAGE_RECORDS = 54;
export const UNDO_STATE = 54;
export const UNDO_TRX_NO = 56;
export const UNDO_LAST_PAGE = 64;
export const UNDO_N_PAGES = 68;
export const UNDO_SLOT = 72;
export const UNDO_RSEG = 74;
export const UNDO_DEL_MARKS = 75;
export const UNDO_HIST_PREV = 76;
export const UNDO_HIST_NEXT = 80;
export const UNDO_LOG_RECORDS = 84;

/** UNDO_PAGE_TYPE values. */
export const UNDO_INSERT = 1;
export const UNDO_UPDATE = 2;

/** UNDO_STATE values (`TRX_UNDO_ACTIVE` … `TRX_UNDO_TO_PURGE`). */
export const UNDO_ACTIVE = 1;
export const UNDO_CACHED = 2;
export const UNDO_TO_FREE = 3;
export const UNDO_TO_PURGE = 4;

/** Undo record types (`TRX_UNDO_INSERT_REC` …). */
export const UNDO_INSERT_REC = 11;
export const UNDO_UPD_EXIST_REC = 12;
export const UNDO_UPD_DEL_REC = 13;
export const UNDO_DEL_MARK_REC = 14;

/** Info bit of an undo record: the previous version was delete-marked. */
export const UNDO_INFO_DELETED = 0x20;

/** A slot of a rollback segment that no log uses. */
export const SLOT_FREE: number = FIL_NULL;

// ------------------------------------------------------------------ numbers in bytes

/** A 48-bit big-endian unsigned integer (DB_TRX_ID, undo numbers) at `o`. */
export function readU48(b: Uint8Array, o: number): number {
  return ((b[o]! << 8) | b[o + 1]!) * 4294967296 + readUint32BE(b, o + 2);
}

export function writeU48(b: Uint8Array, o: number, v: number): void {
  const hi = Math.floor(v / 4294967296);
  b[o] = (hi >>> 8) & 0xff;
  b[o + 1] = hi & 0xff;
  writeUint32BE(b, o + 2, v >>> 0);
}

/** A 64-bit big-endian unsigned integer below 2^53 at `o`. */
export function readU64n(b: Uint8Array, o: number): number {
  return readUint32BE(b, o) * 4294967296 + readUint32BE(b, o + 4);
}

export function writeU64n(b: Uint8Array, o: number, v: number): void {
  writeUint32BE(b, o, Math.floor(v / 4294967296));
  writeUint32BE(b, o + 4, v >>> 0);
}

export function readU16(b: Uint8Array, o: number): number {
  return (b[o]! << 8) | b[o + 1]!;
}

export function writeU16(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 8) & 0xff;
  b[o + 1] = v & 0xff;
}

// ------------------------------------------------------------------ roll pointers

/** A roll pointer from its parts. */
export function rollPtr(rseg: number, insert: boolean, page: number, offset: number): number {
  return rseg * 2 ** 49 + (insert ? ROLL_PTR_INSERT : 0) + page * 65536 + offset;
}

/** Whether the version a roll pointer belongs to was made by an insert (no previous version). */
export function rollPtrIsInsert(p: number): boolean {
  return Math.floor(p / ROLL_PTR_INSERT) % 2 === 1;
}

export function rollPtrRseg(p: number): number {
  return Math.floor(p / 2 ** 49);
}

export function rollPtrPage(p: number): number {
  return Math.floor(p / 65536) % 4294967296;
}

export function rollPtrOffset(p: number): number {
  return p % 65536;
}

/** Reads a 7-byte DB_ROLL_PTR at `o`. */
export function readRollPtr(b: Uint8Array, o: number): number {
  const top = b[o]!;
  return rollPtr(top & 0x7f, (top & 0x80) !== 0, readUint32BE(b, o + 1), readU16(b, o + 5));
}

/** Writes a roll pointer as 7 bytes at `o`. */
export function writeRollPtr(b: Uint8Array, o: number, p: number): void {
  b[o] = (rollPtrIsInsert(p) ? 0x80 : 0) | rollPtrRseg(p);
  writeUint32BE(b, o + 1, rollPtrPage(p));
  writeU16(b, o + 5, rollPtrOffset(p));
}

// ------------------------------------------------------------------ hidden fields

/** DB_TRX_ID of the clustered value that starts at `vo`. */
export function recordTrxId(b: Uint8Array, vo: number): number {
  return readU48(b, vo);
}

/** DB_ROLL_PTR of the clustered value that starts at `vo`. */
export function recordRollPtr(b: Uint8Array, vo: number): number {
  return readRollPtr(b, vo + TRX_ID_BYTES);
}

/** Writes DB_TRX_ID and DB_ROLL_PTR at the start of a clustered value. */
export function writeHidden(b: Uint8Array, vo: number, trxId: number, roll: number): void {
  writeU48(b, vo, trxId);
  writeRollPtr(b, vo + TRX_ID_BYTES, roll);
}

// ------------------------------------------------------------------ undo records

/** An undo record as read from a page (views into a copy; see {@link decodeUndoRecord}). */
export interface UndoRecord {
  readonly type: number;
  readonly undoNo: number;
  readonly tableId: number;
  readonly key: Uint8Array;
  /** Update types: the previous version was delete-marked. */
  readonly oldDeleted: boolean;
  readonly oldTrxId: number;
  readonly oldRollPtr: number;
  /** Update types: the previous version's row (no hidden fields); empty for an insert record. */
  readonly oldRow: Uint8Array;
}

/** Bytes an undo record takes on a page. */
export function undoRecordSize(type: number, keyLen: number, rowLen: number): number {
  return type === UNDO_INSERT_REC ? 15 + keyLen + 2 : 31 + keyLen + rowLen + 2;
}

/**
 * Writes an undo record at `at` (its `next` field 0) and returns its end (where the next record
 * may start). `row` is ignored for an insert record.
 */
export function writeUndoRecord(
  b: Uint8Array,
  at: number,
  type: number,
  undoNo: number,
  tableId: number,
  key: Uint8Array,
  oldDeleted: boolean,
  oldTrxId: number,
  oldRollPtr: number,
  row: Uint8Array,
  rowOff: number,
  rowLen: number,
  pageBase: number,
): number {
  writeU16(b, at, 0);
  b[at + 2] = type;
  writeU48(b, at + 3, undoNo);
  writeUint32BE(b, at + 9, tableId);
  writeU16(b, at + 13, key.length);
  b.set(key, at + 15);
  let p = at + 15 + key.length;
  if (type !== UNDO_INSERT_REC) {
    b[p] = oldDeleted ? UNDO_INFO_DELETED : 0;
    writeU48(b, p + 1, oldTrxId);
    writeRollPtr(b, p + 7, oldRollPtr);
    writeU16(b, p + 14, rowLen);
    b.set(row.subarray(rowOff, rowOff + rowLen), p + 16);
    p += 16 + rowLen;
  }
  writeU16(b, p, at - pageBase);
  return p + 2;
}

/** Reads the undo record at `at` of a page (copying its key and row). */
export function decodeUndoRecord(b: Uint8Array, at: number): UndoRecord {
  const type = b[at + 2]!;
  const keyLen = readU16(b, at + 13);
  const key = b.slice(at + 15, at + 15 + keyLen);
  if (type === UNDO_INSERT_REC)
    return {
      type,
      undoNo: readU48(b, at + 3),
      tableId: readUint32BE(b, at + 9),
      key,
      oldDeleted: false,
      oldTrxId: 0,
      oldRollPtr: ROLL_PTR_NONE,
      oldRow: EMPTY,
    };
  if (type !== UNDO_UPD_EXIST_REC && type !== UNDO_UPD_DEL_REC && type !== UNDO_DEL_MARK_REC)
    throw new RangeError(`undo record at ${at} has type ${type}`);
  const p = at + undoRecordRowStart(keyLen) - 16;
  const rowLen = readU16(b, p + 14);
  return {
    type,
    undoNo: readU48(b, at + 3),
    tableId: readUint32BE(b, at + 9),
    key,
    oldDeleted: (b[p]! & UNDO_INFO_DELETED) !== 0,
    oldTrxId: readU48(b, p + 1),
    oldRollPtr: readRollPtr(b, p + 7),
    oldRow: b.slice(p + 16, p + 16 + rowLen),
  };
}

/** Where the previous version's row starts in an update undo record whose key is `keyLen` bytes. */
export function undoRecordRowStart(keyLen: number): number {
  return 15 + keyLen + 16;
}

/** The undo number of the record at `at`, without decoding the rest. */
export function undoRecordNo(b: Uint8Array, at: number): number {
  return readU48(b, at + 3);
}

const EMPTY = new Uint8Array(0);
