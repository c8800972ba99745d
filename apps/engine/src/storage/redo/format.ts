import { crc32 } from 'node:zlib';

/**
 * The redo log's on-disk layout (docs/durability.md has the same tables). Big-endian integers.
 *
 * Log block (`OS_FILE_LOG_BLOCK_SIZE` = 512):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | block number, `(blockStart / 512) mod 2^30 + 1` |
 * | 4 | 2 | bytes used, header included (12 … 508, 512 when full) |
 * | 6 | 2 | offset of the first mini-transaction starting here, 0 if none |
 * | 8 | 4 | low 32 bits of the checkpoint number |
 * | 12 | 496 | record bytes |
 * | 508 | 4 | CRC-32 of [0, 508) |
 */
export const BLOCK = 512;
export const BLOCK_HDR_NO = 0;
export const BLOCK_HDR_DATA_LEN = 4;
export const BLOCK_FIRST_REC_GROUP = 6;
export const BLOCK_CHECKPOINT_NO = 8;
/** `LOG_BLOCK_HDR_SIZE`. */
export const BLOCK_HDR = 12;
/** Where the trailer (checksum) starts: `OS_FILE_LOG_BLOCK_SIZE − LOG_BLOCK_TRL_SIZE`. */
export const BLOCK_TRL = 508;
/** `LOG_START_LSN`: the LSN of the first block of a new group. */
export const LOG_START_LSN = 8192n;
/** `LOG_FILE_HDR_SIZE`: four blocks of header at the start of each file. */
export const FILE_HDR = 2048;
/** Checkpoint slots in file 0 (`LOG_CHECKPOINT_1`, `LOG_CHECKPOINT_2`). */
export const CHECKPOINT_1 = 512;
export const CHECKPOINT_2 = 1536;

/** File header (block 0 of every file). */
export const LOG_MAGIC: Uint8Array = new TextEncoder().encode('EKREDOLG');
export const LOG_FORMAT = 1;
export const FH_MAGIC = 0;
export const FH_FORMAT = 8;
export const FH_FILE_NO = 12;
export const FH_FILES = 16;
export const FH_FILE_SIZE = 20;
export const FH_DB_ID = 28;
export const FH_PAGE_SIZE = 36;
export const FH_START_LSN = 40;

/** Checkpoint slot. */
export const CP_NO = 0;
export const CP_LSN = 8;
export const CP_END_LSN = 16;
export const CP_NEXT_TRX = 24;
/** 1 when the checkpoint was written by a clean close (everything flushed, row counts stored). */
export const CP_CLEAN = 32;

/** Record types. */
export const MLOG_MTR_END = 0x01;
export const MLOG_NOOP = 0x02;
export const MLOG_PAGE_INIT = 0x10;
export const MLOG_PAGE_BYTES = 0x11;

/** `log_block_convert_lsn_to_no`. */
export function blockNo(blockStart: bigint): number {
  return Number((blockStart / 512n) & 0x3fffffffn) + 1;
}

/** CRC-32 of bytes [0, 508) of the 512 bytes at `b[off…]`. */
export function blockChecksum(b: Uint8Array, off: number): number {
  return crc32(b.subarray(off, off + BLOCK_TRL)) >>> 0;
}

export function readU16(b: Uint8Array, o: number): number {
  return (b[o]! << 8) | b[o + 1]!;
}

export function writeU16(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 8;
  b[o + 1] = v & 0xff;
}

export function readU32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
}

export function writeU32(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 24;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
}

export function readU64(b: Uint8Array, o: number): bigint {
  return (BigInt(readU32(b, o)) << 32n) | BigInt(readU32(b, o + 4));
}

export function writeU64(b: Uint8Array, o: number, v: bigint): void {
  writeU32(b, o, Number((v >> 32n) & 0xffffffffn));
  writeU32(b, o + 4, Number(v & 0xffffffffn));
}

/** Seals a 512-byte header or checkpoint block: its CRC-32 at 508. */
export function sealBlock(b: Uint8Array, off: number): void {
  writeU32(b, off + BLOCK_TRL, blockChecksum(b, off));
}

export function blockValid(b: Uint8Array, off: number): boolean {
  return readU32(b, off + BLOCK_TRL) === blockChecksum(b, off);
}

/** What the file header of every log file says. */
export interface LogFileHeader {
  readonly fileNo: number;
  readonly files: number;
  readonly fileSize: number;
  readonly databaseId: bigint;
  readonly pageSize: number;
  readonly startLsn: bigint;
}

export function encodeFileHeader(h: LogFileHeader): Uint8Array {
  const b = new Uint8Array(BLOCK);
  b.set(LOG_MAGIC, FH_MAGIC);
  writeU32(b, FH_FORMAT, LOG_FORMAT);
  writeU32(b, FH_FILE_NO, h.fileNo);
  writeU32(b, FH_FILES, h.files);
  writeU64(b, FH_FILE_SIZE, BigInt(h.fileSize));
  writeU64(b, FH_DB_ID, h.databaseId);
  writeU32(b, FH_PAGE_SIZE, h.pageSize);
  writeU64(b, FH_START_LSN, h.startLsn);
  sealBlock(b, 0);
  return b;
}

/** The header, or a sentence saying what is wrong with it. */
export function decodeFileHeader(b: Uint8Array): LogFileHeader | string {
  for (let i = 0; i < LOG_MAGIC.length; i++) if (b[FH_MAGIC + i] !== LOG_MAGIC[i]) return 'no EKREDOLG magic';
  if (!blockValid(b, 0)) return 'header checksum mismatch';
  const format = readU32(b, FH_FORMAT);
  if (format !== LOG_FORMAT) return `log format ${format}, this enginekit reads ${LOG_FORMAT}`;
  return {
    fileNo: readU32(b, FH_FILE_NO),
    files: readU32(b, FH_FILES),
    fileSize: Number(readU64(b, FH_FILE_SIZE)),
    databaseId: readU64(b, FH_DB_ID),
    pageSize: readU32(b, FH_PAGE_SIZE),
    startLsn: readU64(b, FH_START_LSN),
  };
}

export interface Checkpoint {
  readonly no: bigint;
  readonly lsn: bigint;
  readonly endLsn: bigint;
  readonly nextTrxId: bigint;
  readonly clean: boolean;
}

export function encodeCheckpoint(c: Checkpoint): Uint8Array {
  const b = new Uint8Array(BLOCK);
  writeU64(b, CP_NO, c.no);
  writeU64(b, CP_LSN, c.lsn);
  writeU64(b, CP_END_LSN, c.endLsn);
  writeU64(b, CP_NEXT_TRX, c.nextTrxId);
  b[CP_CLEAN] = c.clean ? 1 : 0;
  sealBlock(b, 0);
  return b;
}

export function decodeCheckpoint(b: Uint8Array): Checkpoint | null {
  if (!blockValid(b, 0)) return null;
  const c = {
    no: readU64(b, CP_NO),
    lsn: readU64(b, CP_LSN),
    endLsn: readU64(b, CP_END_LSN),
    nextTrxId: readU64(b, CP_NEXT_TRX),
    clean: b[CP_CLEAN] === 1,
  };
  return c.lsn >= LOG_START_LSN ? c : null;
}

/** The LSN after `lsn` once `n` record bytes are appended (skipping block headers and trailers). */
export function advanceLsn(lsn: bigint, n: number): bigint {
  let l = lsn;
  let left = n;
  while (left > 0) {
    const off = Number(l % 512n);
    const room = BLOCK_TRL - off;
    if (left < room) return l + BigInt(left);
    left -= room;
    l += BigInt(room + BLOCK_HDR + (BLOCK - BLOCK_TRL));
  }
  return l;
}
