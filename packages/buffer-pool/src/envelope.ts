import { crc32 } from 'node:zlib';

/**
 * The page envelope, after InnoDB's FIL header and trailer (`include/fil0fil.h`). Every integer is
 * big-endian, as in InnoDB.
 *
 * | offset        | size | field                                                  |
 * |---------------|------|--------------------------------------------------------|
 * | 0             | 4    | checksum: CRC-32 of bytes [4, pageSize − 8)            |
 * | 4             | 4    | page number                                            |
 * | 8             | 4    | previous page in the level (0xFFFFFFFF: none)          |
 * | 12            | 4    | next page in the level (0xFFFFFFFF: none)              |
 * | 16            | 8    | LSN of the newest modification                         |
 * | 24            | 2    | page type                                              |
 * | 26            | 8    | reserved (InnoDB's FIL_PAGE_FILE_FLUSH_LSN)            |
 * | 34            | 4    | space id                                               |
 * | 38            | …    | body, owned by the page's user                         |
 * | pageSize − 8  | 4    | copy of the checksum                                   |
 * | pageSize − 4  | 4    | low 32 bits of the LSN                                 |
 *
 * The pool writes the checksum, page number, space id and LSN when it writes a page, and checks
 * them on every read from a device. Prev/next and type belong to the page's user.
 */
export const FIL_PAGE_SPACE_OR_CHKSUM = 0;
export const FIL_PAGE_OFFSET = 4;
export const FIL_PAGE_PREV = 8;
export const FIL_PAGE_NEXT = 12;
export const FIL_PAGE_LSN = 16;
export const FIL_PAGE_TYPE = 24;
export const FIL_PAGE_FILE_FLUSH_LSN = 26;
export const FIL_PAGE_SPACE_ID = 34;
/** First byte of the body: `FIL_PAGE_DATA` in InnoDB. */
export const FIL_PAGE_DATA = 38;
/** Bytes of the trailer: `FIL_PAGE_DATA_END` in InnoDB. */
export const FIL_PAGE_DATA_END = 8;
/** "No page" in the prev/next links: `FIL_NULL`. */
export const FIL_NULL = 0xffffffff;
/** Page type of a page the pool allocated and nobody has typed yet (`FIL_PAGE_TYPE_ALLOCATED`). */
export const FIL_PAGE_TYPE_ALLOCATED = 0;
/** Page type of a B+tree page (`FIL_PAGE_INDEX`). */
export const FIL_PAGE_INDEX = 0x45bf;

/** Smallest page size the envelope fits in with a useful body. */
export const MIN_PAGE_SIZE = 512;
/** Largest page size (InnoDB's 64 KiB pages). */
export const MAX_PAGE_SIZE = 65536;

/**
 * The page-size rule every page user shares: a power of two in [{@link MIN_PAGE_SIZE},
 * {@link MAX_PAGE_SIZE}] (InnoDB allows 4 KiB to 64 KiB; the smaller sizes keep tests small).
 */
export function isValidPageSize(pageSize: unknown): pageSize is number {
  return (
    typeof pageSize === 'number' &&
    Number.isInteger(pageSize) &&
    pageSize >= MIN_PAGE_SIZE &&
    pageSize <= MAX_PAGE_SIZE &&
    (pageSize & (pageSize - 1)) === 0
  );
}

/**
 * Checks {@link isValidPageSize} and returns `pageSize`; a TypeError (not an integer) or
 * RangeError (out of the rule) names `name`.
 */
export function checkPageSize(pageSize: unknown, name = 'pageSize'): number {
  if (typeof pageSize !== 'number' || !Number.isInteger(pageSize)) {
    throw new TypeError(`${name} must be an integer, got ${String(pageSize)}`);
  }
  if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || (pageSize & (pageSize - 1)) !== 0) {
    throw new RangeError(`${name} must be a power of two in [512, 65536], got ${pageSize}`);
  }
  return pageSize;
}

function view(page: Uint8Array, offset: number, pageSize: number): DataView {
  return new DataView(page.buffer, page.byteOffset + offset, pageSize);
}

/** CRC-32 of bytes [4, pageSize − 8) of the page at `page[offset…]`. */
export function pageChecksum(page: Uint8Array, offset: number, pageSize: number): number {
  return crc32(page.subarray(offset + 4, offset + pageSize - FIL_PAGE_DATA_END)) >>> 0;
}

/**
 * Writes a fresh envelope (`buf_page_create` + `fil_page_set_type`): zeroes the page, sets the
 * page number and space id, prev/next = FIL_NULL, LSN 0, type ALLOCATED.
 */
export function initPage(
  page: Uint8Array,
  offset: number,
  pageSize: number,
  space: number,
  pageNo: number,
): void {
  page.fill(0, offset, offset + pageSize);
  const dv = view(page, offset, pageSize);
  dv.setUint32(FIL_PAGE_OFFSET, pageNo);
  dv.setUint32(FIL_PAGE_PREV, FIL_NULL);
  dv.setUint32(FIL_PAGE_NEXT, FIL_NULL);
  dv.setUint32(FIL_PAGE_SPACE_ID, space);
}

/** Stores `lsn` in the header (8 bytes) and its low 32 bits in the trailer. */
export function writePageLsn(page: Uint8Array, offset: number, pageSize: number, lsn: bigint): void {
  const dv = view(page, offset, pageSize);
  dv.setBigUint64(FIL_PAGE_LSN, BigInt.asUintN(64, lsn));
  dv.setUint32(pageSize - 4, Number(BigInt.asUintN(32, lsn)));
}

/**
 * Prepares a page for writing (`buf_flush_init_for_writing`): stamps page number, space id and
 * LSN, then the checksum in the header and its copy in the trailer.
 */
export function sealPage(
  page: Uint8Array,
  offset: number,
  pageSize: number,
  space: number,
  pageNo: number,
  lsn: bigint,
): void {
  const dv = view(page, offset, pageSize);
  dv.setUint32(FIL_PAGE_OFFSET, pageNo);
  dv.setUint32(FIL_PAGE_SPACE_ID, space);
  writePageLsn(page, offset, pageSize, lsn);
  const sum = pageChecksum(page, offset, pageSize);
  dv.setUint32(FIL_PAGE_SPACE_OR_CHKSUM, sum);
  dv.setUint32(pageSize - FIL_PAGE_DATA_END, sum);
}

function isZero(page: Uint8Array, offset: number, pageSize: number): boolean {
  for (let i = offset; i < offset + pageSize; i++) if (page[i] !== 0) return false;
  return true;
}

/**
 * Verifies a page read from a device (`buf_page_is_corrupted` + the page-number check of
 * `buf_page_io_complete`). Returns `null` when it is sound, else the name of the first field that
 * does not match. An all-zero page is sound (a file extended but never written), as in InnoDB.
 */
export function verifyPage(
  page: Uint8Array,
  offset: number,
  pageSize: number,
  space: number,
  pageNo: number,
): string | null {
  const dv = view(page, offset, pageSize);
  const stored = dv.getUint32(FIL_PAGE_SPACE_OR_CHKSUM);
  if (stored === 0 && dv.getUint32(FIL_PAGE_OFFSET) === 0 && isZero(page, offset, pageSize)) return null;
  const sum = pageChecksum(page, offset, pageSize);
  if (stored !== sum) return 'checksum';
  if (dv.getUint32(pageSize - FIL_PAGE_DATA_END) !== sum) return 'trailer checksum';
  if (dv.getUint32(pageSize - 4) !== dv.getUint32(FIL_PAGE_LSN + 4)) return 'trailer lsn';
  if (dv.getUint32(FIL_PAGE_OFFSET) !== pageNo) return 'page number';
  if (dv.getUint32(FIL_PAGE_SPACE_ID) !== space) return 'space id';
  return null;
}

/** Reads the big-endian uint32 at `bytes[offset…offset+4)` (every envelope integer is big-endian). */
export function readUint32BE(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>>
    0
  );
}

/** Writes `value` (taken as uint32) big-endian at `bytes[offset…offset+4)`. */
export function writeUint32BE(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value >>> 24;
  bytes[offset + 1] = value >>> 16;
  bytes[offset + 2] = value >>> 8;
  bytes[offset + 3] = value;
}

// Page-envelope accessors for a page at `bytes[offset…]`, for users of the pool.

/** FIL_PAGE_OFFSET: the page's own number. */
export function getPageNo(bytes: Uint8Array, offset: number): number {
  return readUint32BE(bytes, offset + FIL_PAGE_OFFSET);
}
/** FIL_PAGE_PREV: the previous page of the level, {@link FIL_NULL} for none. */
export function getPrevPage(bytes: Uint8Array, offset: number): number {
  return readUint32BE(bytes, offset + FIL_PAGE_PREV);
}
/** Sets FIL_PAGE_PREV. */
export function setPrevPage(bytes: Uint8Array, offset: number, pageNo: number): void {
  writeUint32BE(bytes, offset + FIL_PAGE_PREV, pageNo);
}
/** FIL_PAGE_NEXT: the next page of the level, {@link FIL_NULL} for none. */
export function getNextPage(bytes: Uint8Array, offset: number): number {
  return readUint32BE(bytes, offset + FIL_PAGE_NEXT);
}
/** Sets FIL_PAGE_NEXT. */
export function setNextPage(bytes: Uint8Array, offset: number, pageNo: number): void {
  writeUint32BE(bytes, offset + FIL_PAGE_NEXT, pageNo);
}
/** FIL_PAGE_TYPE (uint16), e.g. {@link FIL_PAGE_INDEX}. */
export function getPageType(bytes: Uint8Array, offset: number): number {
  return (bytes[offset + FIL_PAGE_TYPE]! << 8) | bytes[offset + FIL_PAGE_TYPE + 1]!;
}
/** Sets FIL_PAGE_TYPE. */
export function setPageType(bytes: Uint8Array, offset: number, type: number): void {
  bytes[offset + FIL_PAGE_TYPE] = type >>> 8;
  bytes[offset + FIL_PAGE_TYPE + 1] = type;
}
/** FIL_PAGE_SPACE_ID: the tablespace the page belongs to. */
export function getSpaceId(bytes: Uint8Array, offset: number): number {
  return readUint32BE(bytes, offset + FIL_PAGE_SPACE_ID);
}
/** FIL_PAGE_LSN: the LSN of the page's newest modification (8 bytes). */
export function getPageLsn(bytes: Uint8Array, offset: number): bigint {
  return (
    (BigInt(readUint32BE(bytes, offset + FIL_PAGE_LSN)) << 32n) |
    BigInt(readUint32BE(bytes, offset + FIL_PAGE_LSN + 4))
  );
}
