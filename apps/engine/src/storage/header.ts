import { closeSync, openSync, readSync } from 'node:fs';
import { FIL_PAGE_DATA } from '@enginekit/buffer-pool';
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
 */
export const MAGIC: Uint8Array = new TextEncoder().encode('ENGINEKT');
export const FORMAT_VERSION = 1;
export const HDR_MAGIC: number = FIL_PAGE_DATA;
export const HDR_VERSION: number = FIL_PAGE_DATA + 8;
export const HDR_PAGE_SIZE: number = FIL_PAGE_DATA + 12;
export const HDR_SYS_TABLES: number = FIL_PAGE_DATA + 16;
export const HDR_SYS_COLUMNS: number = FIL_PAGE_DATA + 20;
export const HDR_SYS_INDEXES: number = FIL_PAGE_DATA + 24;
export const HDR_SYS_STATS: number = FIL_PAGE_DATA + 28;
export const HDR_NEXT_TABLE_ID: number = FIL_PAGE_DATA + 32;
export const HDR_NEXT_INDEX_ID: number = FIL_PAGE_DATA + 36;
/** Page type stamped on page 0 (InnoDB's FIL_PAGE_TYPE_FSP_HDR is 8). */
export const PAGE_TYPE_DB_HEADER = 8;

export function readU32(b: Uint8Array, p: number): number {
  return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
}

export function writeU32(b: Uint8Array, p: number, v: number): void {
  b[p] = v >>> 24;
  b[p + 1] = (v >>> 16) & 0xff;
  b[p + 2] = (v >>> 8) & 0xff;
  b[p + 3] = v & 0xff;
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
  const version = readU32(head, HDR_VERSION);
  if (version > FORMAT_VERSION) throw new FormatVersionError(path, version, FORMAT_VERSION);
  if (version === 0) throw new NotADatabaseError(path, 'format version 0');
  const pageSize = readU32(head, HDR_PAGE_SIZE);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    throw new NotADatabaseError(path, `page size ${pageSize} in the header`);
  return pageSize;
}
