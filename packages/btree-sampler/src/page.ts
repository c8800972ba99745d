import {
  FIL_NULL,
  FIL_PAGE_DATA_END,
  FIL_PAGE_NEXT,
  FIL_PAGE_OFFSET,
  FIL_PAGE_PREV,
  FIL_PAGE_SPACE_ID,
  FIL_PAGE_TYPE,
} from '@enginekit/buffer-pool';
import { readU16, readU32, writeU16, writeU32 } from './internal/bytes.js';

/**
 * The B+tree page format, inside the buffer pool's page envelope. All integers big-endian.
 *
 * ```
 * +-------------------------------+ 0
 * | envelope header (buffer pool) |   checksum, page no, prev, next, LSN, type, space
 * +-------------------------------+ 38  PAGE_HEADER
 * | B+tree page header (34 bytes) |
 * +-------------------------------+ 72  PAGE_DATA
 * | record heap, grows upward  →  |
 * |           free space          |
 * |  ← slot directory grows down  |
 * +-------------------------------+ pageSize − 8
 * | envelope trailer              |
 * +-------------------------------+ pageSize
 * ```
 *
 * The envelope fields are buffer-pool's (`FIL_PAGE_*` of its `envelope.ts`); the tree uses these:
 *
 * | offset | size | field | meaning |
 * |---|---|---|---|
 * | 4 | 4 | FIL_PAGE_OFFSET | page number (written by the store) |
 * | 8 | 4 | FIL_PAGE_PREV | left sibling on the same level, 0xFFFFFFFF: none |
 * | 12 | 4 | FIL_PAGE_NEXT | right sibling on the same level (free pages: next free page) |
 * | 24 | 2 | FIL_PAGE_TYPE | 0x45BF (17855) B+tree page (InnoDB's FIL_PAGE_INDEX), 0 free page |
 * | 34 | 4 | FIL_PAGE_SPACE_ID | tablespace id |
 *
 * The B+tree header and body (InnoDB's PAGE_HEADER fields, in a layout of this package):
 *
 * | offset | size | field | meaning |
 * |---|---|---|---|
 * | 38 | 2 | PAGE_LEVEL | 0 = leaf; the root has the highest level |
 * | 40 | 2 | PAGE_N_RECS | user records on the page (= slots) |
 * | 42 | 2 | PAGE_HEAP_TOP | first byte after the record heap |
 * | 44 | 2 | PAGE_GARBAGE | bytes of deleted records still inside the heap |
 * | 46 | 2 | PAGE_LAST_INSERT | slot + 1 of the last insert, 0: none since the last split/delete |
 * | 48 | 1 | PAGE_DIRECTION | 0 none, 1 left (descending), 2 right (ascending) |
 * | 49 | 1 | PAGE_FLAGS | bit 0 unique, bit 1 clustered, bit 2 keys are codec tuples, bit 3 values are codec tuples |
 * | 50 | 2 | PAGE_N_DIRECTION | consecutive inserts in PAGE_DIRECTION |
 * | 52 | 8 | PAGE_INDEX_ID | index id, the same on every page of a tree |
 * | 60 | 4 | PAGE_FREE_LIST | root page only: first free page of the tree, 0xFFFFFFFF: none |
 * | 64 | 8 | PAGE_MAX_TRX_ID | leaf pages: the largest transaction id that changed a record on the page (raised by the writes given one, never lowered); 0 on non-leaf pages |
 * | 72 | … | PAGE_DATA | records |
 * | pageSize − 8 − 2(i+1) | 2 | slot i | byte offset of the i-th record in key order |
 *
 * A record is `keyLen (2) | valueLen (2) | key | value` on a leaf, followed by `child page (4)` on
 * a non-leaf page. Bit 15 of a leaf record's keyLen is its delete mark (InnoDB's
 * REC_INFO_DELETED_FLAG: the record stays in the tree, flagged, until it is removed); the length
 * is the low 15 bits ({@link recKeyLen} masks the flag). A key is never that long: an entry is at
 * most a quarter of a page minus a node pointer's overhead (`maxEntryBytes`, 16,346 bytes on
 * 64 KiB pages), far below 32 KiB. Node pointers never carry the flag.
 *
 * A node pointer's key (and, in a non-unique tree, its value) is the lower bound
 * of its child's subtree. Slot 0 of a non-leaf page carries the bound the page inherited from its
 * parent — the empty key on the leftmost page of a level, InnoDB's REC_INFO_MIN_REC_FLAG — and is
 * never compared when routing.
 *
 * Unlike InnoDB's sparse directory (one slot owns 4–8 records, records chained by next pointers),
 * every record has its own slot, so a page search is one binary search and records need no
 * header bits or heap numbers. Slot i sits just below slot i − 1, so appending (the common
 * ascending-insert case) moves no slots.
 *
 * Format history: this layout (PAGE_MAX_TRX_ID at 64, records from 72, the delete mark in bit 15
 * of the key length) replaced one whose records started at 64 and had no delete mark or
 * PAGE_MAX_TRX_ID. Pages written in the earlier layout are not readable by this one.
 */

/** InnoDB's FIL_PAGE_INDEX. */
export const PAGE_TYPE_INDEX = 0x45bf;
/** InnoDB's FIL_PAGE_TYPE_ALLOCATED: a freshly allocated or freed page. */
export const PAGE_TYPE_FREE = 0;

export const PAGE_LEVEL = 38;
export const PAGE_N_RECS = 40;
export const PAGE_HEAP_TOP = 42;
export const PAGE_GARBAGE = 44;
export const PAGE_LAST_INSERT = 46;
export const PAGE_DIRECTION = 48;
export const PAGE_FLAGS = 49;
export const PAGE_N_DIRECTION = 50;
export const PAGE_INDEX_ID = 52;
export const PAGE_FREE_LIST = 60;
export const PAGE_MAX_TRX_ID = 64;
export const PAGE_DATA = 72;

export const DIRECTION_NONE = 0;
export const DIRECTION_LEFT = 1;
export const DIRECTION_RIGHT = 2;

export const FLAG_UNIQUE = 1;
export const FLAG_CLUSTERED = 2;
export const FLAG_TUPLE_KEYS = 4;
export const FLAG_TUPLE_VALUES = 8;

/** Bytes of a record header (key length, value length). */
export const REC_HEADER = 4;
/** The delete mark: bit 15 of a leaf record's key length (bit 7 of its first byte). */
export const REC_DELETED_FLAG = 0x8000;
/** The key length bits of a record's first field. */
export const REC_KEY_LEN_MASK = 0x7fff;
/** Transaction ids are below 2^48 (InnoDB's 6-byte DB_TRX_ID). */
export const MAX_TRX_ID_LIMIT: number = 2 ** 48;
/** Bytes of a node pointer's child page number. */
export const REC_CHILD = 4;

/** Bytes a page offers to records and slots. */
export function pageCapacity(pageSize: number): number {
  return pageSize - FIL_PAGE_DATA_END - PAGE_DATA;
}

/** Format page `base` as an empty B+tree page. Keeps the envelope's page number and LSN. */
export function initPage(
  b: Uint8Array,
  base: number,
  space: number,
  level: number,
  flags: number,
  indexId: bigint,
): void {
  writeU32(b, base + FIL_PAGE_PREV, FIL_NULL);
  writeU32(b, base + FIL_PAGE_NEXT, FIL_NULL);
  writeU16(b, base + FIL_PAGE_TYPE, PAGE_TYPE_INDEX);
  writeU32(b, base + FIL_PAGE_SPACE_ID, space);
  writeU16(b, base + PAGE_LEVEL, level);
  writeU16(b, base + PAGE_N_RECS, 0);
  writeU16(b, base + PAGE_HEAP_TOP, PAGE_DATA);
  writeU16(b, base + PAGE_GARBAGE, 0);
  writeU16(b, base + PAGE_LAST_INSERT, 0);
  b[base + PAGE_DIRECTION] = DIRECTION_NONE;
  b[base + PAGE_FLAGS] = flags;
  writeU16(b, base + PAGE_N_DIRECTION, 0);
  for (let i = 0; i < 8; i++) b[base + PAGE_INDEX_ID + i] = Number((indexId >> BigInt(56 - 8 * i)) & 0xffn);
  writeU32(b, base + PAGE_FREE_LIST, FIL_NULL);
  writeU32(b, base + PAGE_MAX_TRX_ID, 0);
  writeU32(b, base + PAGE_MAX_TRX_ID + 4, 0);
}

export function pageNo(b: Uint8Array, base: number): number {
  return readU32(b, base + FIL_PAGE_OFFSET);
}
export function prevPage(b: Uint8Array, base: number): number {
  return readU32(b, base + FIL_PAGE_PREV);
}
export function nextPage(b: Uint8Array, base: number): number {
  return readU32(b, base + FIL_PAGE_NEXT);
}
export function setPrevPage(b: Uint8Array, base: number, p: number): void {
  writeU32(b, base + FIL_PAGE_PREV, p);
}
export function setNextPage(b: Uint8Array, base: number, p: number): void {
  writeU32(b, base + FIL_PAGE_NEXT, p);
}
export function pageLevel(b: Uint8Array, base: number): number {
  return readU16(b, base + PAGE_LEVEL);
}
export function nRecs(b: Uint8Array, base: number): number {
  return readU16(b, base + PAGE_N_RECS);
}
export function pageIndexId(b: Uint8Array, base: number): bigint {
  let v = 0n;
  for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(b[base + PAGE_INDEX_ID + i]!);
  return v;
}

/** Byte offset (from the page start) of the record in slot i. */
export function slotRec(b: Uint8Array, base: number, pageSize: number, i: number): number {
  return readU16(b, base + pageSize - FIL_PAGE_DATA_END - 2 - 2 * i);
}
/**
 * Copies the part of leaf `src[base, base+pageSize)` that slots `from … to−1` need into `dst` (a
 * page-sized buffer), at the same offsets: the page's headers, those slots and their records. What
 * else `dst` holds is left as it was; read only those slots from it.
 */
export function copyLeafSlots(
  src: Uint8Array,
  base: number,
  dst: Uint8Array,
  pageSize: number,
  from: number,
  to: number,
): void {
  dst.set(src.subarray(base, base + PAGE_DATA), 0);
  if (to <= from) return;
  const dirLo = pageSize - FIL_PAGE_DATA_END - 2 * to;
  const dirHi = pageSize - FIL_PAGE_DATA_END - 2 * from;
  dst.set(src.subarray(base + dirLo, base + dirHi), dirLo);
  for (let i = from; i < to; i++) {
    const rec = slotRec(src, base, pageSize, i);
    const end = rec + REC_HEADER + recKeyLen(src, base, rec) + recValLen(src, base, rec);
    dst.set(src.subarray(base + rec, base + end), rec);
  }
}
/** The key length of a record, without its delete mark. */
export function recKeyLen(b: Uint8Array, base: number, rec: number): number {
  return ((b[base + rec]! & 0x7f) << 8) | b[base + rec + 1]!;
}
/** Whether the record carries the delete mark. */
export function recDeleted(b: Uint8Array, base: number, rec: number): boolean {
  return (b[base + rec]! & 0x80) !== 0;
}
/** Set or clear the record's delete mark. REQUIRES: a leaf record. */
export function setRecDeleted(b: Uint8Array, base: number, rec: number, deleted: boolean): void {
  if (deleted) b[base + rec] = b[base + rec]! | 0x80;
  else b[base + rec] = b[base + rec]! & 0x7f;
}

/**
 * Whether the entry whose key starts at `keyOffset` of the store's bytes is delete-marked: for a
 * `forEachRangeRaw` callback, whose `keyOffset` points just past the record header.
 */
export function isDeleteMarked(bytes: Uint8Array, keyOffset: number): boolean {
  return (bytes[keyOffset - REC_HEADER]! & 0x80) !== 0;
}

/**
 * PAGE_MAX_TRX_ID of the page at `pageBase`: 8 bytes big-endian, read as two 32-bit halves (the
 * value is below 2^48, exact in a double).
 */
export function pageMaxTrxId(bytes: Uint8Array, pageBase: number): number {
  return (
    readU32(bytes, pageBase + PAGE_MAX_TRX_ID) * 4294967296 + readU32(bytes, pageBase + PAGE_MAX_TRX_ID + 4)
  );
}

/** Write PAGE_MAX_TRX_ID. REQUIRES: 0 ≤ id < 2^48, an integer. */
export function setPageMaxTrxId(bytes: Uint8Array, pageBase: number, id: number): void {
  writeU32(bytes, pageBase + PAGE_MAX_TRX_ID, Math.floor(id / 4294967296));
  writeU32(bytes, pageBase + PAGE_MAX_TRX_ID + 4, id >>> 0);
}

/** Raise PAGE_MAX_TRX_ID to `id` if it is lower (InnoDB's `page_update_max_trx_id`); whether it changed. */
export function raisePageMaxTrxId(bytes: Uint8Array, pageBase: number, id: number): boolean {
  if (pageMaxTrxId(bytes, pageBase) >= id) return false;
  setPageMaxTrxId(bytes, pageBase, id);
  return true;
}

/**
 * The start of the page holding byte `offset` of a store's bytes: frames are page-aligned there
 * (the PageStore contract), so a raw callback's offset finds its page's header.
 */
export function pageBaseOf(offset: number, pageSize: number): number {
  return offset - (offset % pageSize);
}
export function recValLen(b: Uint8Array, base: number, rec: number): number {
  return readU16(b, base + rec + 2);
}
/** The child page of a node pointer. REQUIRES: a non-leaf page. */
export function recChild(b: Uint8Array, base: number, rec: number): number {
  return readU32(b, base + rec + REC_HEADER + recKeyLen(b, base, rec) + recValLen(b, base, rec));
}
export function recSize(b: Uint8Array, base: number, rec: number, level: number): number {
  return REC_HEADER + recKeyLen(b, base, rec) + recValLen(b, base, rec) + (level > 0 ? REC_CHILD : 0);
}

/** Contiguous free bytes between the heap top and the slot directory. */
export function contiguousFree(b: Uint8Array, base: number, pageSize: number): number {
  return pageSize - FIL_PAGE_DATA_END - 2 * nRecs(b, base) - readU16(b, base + PAGE_HEAP_TOP);
}
/** Free bytes after a reorganization (contiguous + garbage). */
export function totalFree(b: Uint8Array, base: number, pageSize: number): number {
  return contiguousFree(b, base, pageSize) + readU16(b, base + PAGE_GARBAGE);
}
/** Bytes used by live records and their slots. */
export function usedBytes(b: Uint8Array, base: number, pageSize: number): number {
  return pageCapacity(pageSize) - totalFree(b, base, pageSize);
}

/**
 * Rewrite the record heap in slot order, dropping garbage (InnoDB's page reorganize).
 * `scratch` must hold at least pageSize bytes.
 */
export function reorganize(b: Uint8Array, base: number, pageSize: number, scratch: Uint8Array): void {
  const n = nRecs(b, base);
  const level = pageLevel(b, base);
  let top = PAGE_DATA;
  for (let i = 0; i < n; i++) {
    const rec = slotRec(b, base, pageSize, i);
    const size = recSize(b, base, rec, level);
    scratch.set(b.subarray(base + rec, base + rec + size), top);
    writeU16(b, base + pageSize - FIL_PAGE_DATA_END - 2 - 2 * i, top);
    top += size;
  }
  b.set(scratch.subarray(PAGE_DATA, top), base + PAGE_DATA);
  writeU16(b, base + PAGE_HEAP_TOP, top);
  writeU16(b, base + PAGE_GARBAGE, 0);
}

/**
 * Insert a copy of the record at byte `srcRec` of the page at `srcBase` (header, delete mark and,
 * on a non-leaf page, child page included) at slot `slot` of the page at `base`, on the same
 * level. REQUIRES: totalFree ≥ record size + 2. Reorganizes first when the heap is fragmented.
 */
export function copyRec(
  b: Uint8Array,
  base: number,
  pageSize: number,
  slot: number,
  srcBase: number,
  srcRec: number,
  scratch: Uint8Array,
): void {
  const size = recSize(b, srcBase, srcRec, pageLevel(b, base));
  if (contiguousFree(b, base, pageSize) < size + 2) reorganize(b, base, pageSize, scratch);
  const n = nRecs(b, base);
  const rec = readU16(b, base + PAGE_HEAP_TOP);
  b.copyWithin(base + rec, srcBase + srcRec, srcBase + srcRec + size);
  writeU16(b, base + PAGE_HEAP_TOP, rec + size);
  const dirEnd = base + pageSize - FIL_PAGE_DATA_END;
  if (slot < n) b.copyWithin(dirEnd - 2 * n - 2, dirEnd - 2 * n, dirEnd - 2 * slot);
  writeU16(b, dirEnd - 2 - 2 * slot, rec);
  writeU16(b, base + PAGE_N_RECS, n + 1);
}

/**
 * Insert a record at slot `slot` (0 ≤ slot ≤ n), without a delete mark. `child` is written for non-leaf pages.
 * REQUIRES: totalFree ≥ record size + 2. Reorganizes first when the heap is fragmented.
 */
export function insertRec(
  b: Uint8Array,
  base: number,
  pageSize: number,
  slot: number,
  key: Uint8Array,
  keyOff: number,
  keyLen: number,
  val: Uint8Array,
  valOff: number,
  valLen: number,
  child: number,
  scratch: Uint8Array,
): void {
  const level = pageLevel(b, base);
  const size = REC_HEADER + keyLen + valLen + (level > 0 ? REC_CHILD : 0);
  if (contiguousFree(b, base, pageSize) < size + 2) reorganize(b, base, pageSize, scratch);
  const n = nRecs(b, base);
  const rec = readU16(b, base + PAGE_HEAP_TOP);
  const p = base + rec;
  writeU16(b, p, keyLen);
  writeU16(b, p + 2, valLen);
  b.set(key.subarray(keyOff, keyOff + keyLen), p + REC_HEADER);
  b.set(val.subarray(valOff, valOff + valLen), p + REC_HEADER + keyLen);
  if (level > 0) writeU32(b, p + REC_HEADER + keyLen + valLen, child);
  writeU16(b, base + PAGE_HEAP_TOP, rec + size);
  // Slots slot..n-1 move one position down in memory (two bytes lower).
  const dirEnd = base + pageSize - FIL_PAGE_DATA_END;
  if (slot < n) b.copyWithin(dirEnd - 2 * n - 2, dirEnd - 2 * n, dirEnd - 2 * slot);
  writeU16(b, dirEnd - 2 - 2 * slot, rec);
  writeU16(b, base + PAGE_N_RECS, n + 1);
}

/** Remove the record in slot `slot`; its bytes become garbage. */
export function deleteRec(b: Uint8Array, base: number, pageSize: number, slot: number): void {
  const n = nRecs(b, base);
  const rec = slotRec(b, base, pageSize, slot);
  const size = recSize(b, base, rec, pageLevel(b, base));
  const dirEnd = base + pageSize - FIL_PAGE_DATA_END;
  if (slot < n - 1) b.copyWithin(dirEnd - 2 * n + 2, dirEnd - 2 * n, dirEnd - 2 - 2 * slot);
  writeU16(b, base + PAGE_N_RECS, n - 1);
  if (rec + size === readU16(b, base + PAGE_HEAP_TOP)) writeU16(b, base + PAGE_HEAP_TOP, rec);
  else writeU16(b, base + PAGE_GARBAGE, readU16(b, base + PAGE_GARBAGE) + size);
  writeU16(b, base + PAGE_LAST_INSERT, 0);
  b[base + PAGE_DIRECTION] = DIRECTION_NONE;
  writeU16(b, base + PAGE_N_DIRECTION, 0);
}

/** Record the insert at `slot` for the split heuristic (PAGE_LAST_INSERT / PAGE_DIRECTION). */
export function noteInsert(b: Uint8Array, base: number, slot: number): void {
  const last = readU16(b, base + PAGE_LAST_INSERT);
  let dir = DIRECTION_NONE;
  if (last !== 0 && last - 1 === slot - 1) dir = DIRECTION_RIGHT;
  else if (last !== 0 && last - 1 === slot) dir = DIRECTION_LEFT;
  const same = dir !== DIRECTION_NONE && dir === b[base + PAGE_DIRECTION];
  b[base + PAGE_DIRECTION] = dir;
  writeU16(
    b,
    base + PAGE_N_DIRECTION,
    same ? readU16(b, base + PAGE_N_DIRECTION) + 1 : dir === DIRECTION_NONE ? 0 : 1,
  );
  writeU16(b, base + PAGE_LAST_INSERT, slot + 1);
}
