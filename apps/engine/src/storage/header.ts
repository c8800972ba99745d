import { closeSync, openSync, readSync } from 'node:fs';
import { checkPageSize, FIL_PAGE_DATA, readUint32BE } from '@enginekit/buffer-pool';
import { FormatVersionError, NotADatabaseError } from './errors.js';

/**
 * Page 0 of a database file: the usual 38-byte page envelope (checksum, page number, LSN…,
 * verified by the buffer pool on every read), then this body. Big-endian, as the envelope.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 38 | 8 | magic `ENGINEKT` (ASCII) |
 * | 46 | 4 | format version ({@link FORMAT_VERSION}) |
 * | 50 | 4 | page size in bytes |
 * | 54 | 4 | root page of SYS_TABLES |
 * | 58 | 4 | root page of SYS_COLUMNS |
 * | 62 | 4 | root page of SYS_INDEXES |
 * | 66 | 4 | root page of SYS_STATS |
 * | 70 | 4 | next table id |
 * | 74 | 4 | next index id |
 * | 78 | 4 | pages in the file when the header was last written (at every flush and close) |
 * | 82 | 8 | database identity: random at creation; the redo log files carry it (0: none yet) |
 * | 90 | 4 | the TRX_SYS page (transaction ids, rollback segments; see undo-format.ts) |
 * | 94 | 4 | first page of the free list (fsp.ts), 0xFFFFFFFF or 0: none |
 * | 98 | 4 | pages on the free list |
 */
export const MAGIC: Uint8Array = new TextEncoder().encode('ENGINEKT');
export const FORMAT_VERSION = 3;
export const HDR_MAGIC: number = FIL_PAGE_DATA;
export const HDR_VERSION: number = FIL_PAGE_DATA + 8;
export const HDR_PAGE_SIZE: number = FIL_PAGE_DATA + 12;
export const HDR_SYS_TABLES: number = FIL_PAGE_DATA + 16;
export const HDR_SYS_COLUMNS: number = FIL_PAGE_DATA + 20;
export const HDR_SYS_INDEXES: number = FIL_PAGE_DATA + 24;
export const HDR_SYS_STATS: number = FIL_PAGE_DATA + 28;
export const HDR_NEXT_TABLE_ID: number = FIL_PAGE_DATA + 32;
export const HDR_NEXT_INDEX_ID: number = FIL_PAGE_DATA + 36;
export const HDR_PAGE_COUNT: number = FIL_PAGE_DATA + 40;
export const HDR_DATABASE_ID: number = FIL_PAGE_DATA + 44;
export const HDR_TRX_SYS: number = FIL_PAGE_DATA + 52;
export const HDR_FREE_FIRST: number = FIL_PAGE_DATA + 56;
export const HDR_FREE_N: number = FIL_PAGE_DATA + 60;
/** Page type stamped on page 0 (InnoDB's FIL_PAGE_TYPE_FSP_HDR is 8). */
export const PAGE_TYPE_DB_HEADER = 8;

/** The smallest `innodb_page_size` MySQL accepts (4 KiB); the envelope itself allows smaller pages. */
export const INNODB_MIN_PAGE_SIZE = 4096;

/**
 * Checks an `innodb_page_size` for a new database: the buffer pool's page-size rule (a power of
 * two no larger than 64 KiB), and at least MySQL's 4 KiB.
 */
export function checkInnodbPageSize(pageSize: unknown): number {
  const p = checkPageSize(pageSize, 'innodb_page_size');
  if (p < INNODB_MIN_PAGE_SIZE) {
    throw new RangeError(`innodb_page_size must be at least ${INNODB_MIN_PAGE_SIZE}, got ${p}`);
  }
  return p;
}

/**
 * Read the start of page 0 straight from the file (before any pool exists, since the page size
 * is in it) and check magic and version. Returns the page size. The pool verifies the whole
 * page's checksum when it reads page 0 afterwards.
 */
export function probeHeader(path: string): number {
  const head = new Uint8Array(HDR_PAGE_SIZE + 4);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (n < head.length) throw new NotADatabaseError(path, `only ${n} bytes long`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (head[HDR_MAGIC + i] !== MAGIC[i]) throw new NotADatabaseError(path, 'no ENGINEKT magic in page 0');
  }
  const version = readUint32BE(head, HDR_VERSION);
  if (version === 0) throw new NotADatabaseError(path, 'format version 0');
  if (version !== FORMAT_VERSION) throw new FormatVersionError(path, version, FORMAT_VERSION);
  const pageSize = readUint32BE(head, HDR_PAGE_SIZE);
  try {
    return checkPageSize(pageSize);
  } catch {
    throw new NotADatabaseError(path, `page size ${pageSize} in the header`);
  }
}
