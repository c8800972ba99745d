import { RedoLogError } from './errors.js';
import {
  advanceLsn,
  BLOCK,
  BLOCK_HDR,
  BLOCK_HDR_DATA_LEN,
  BLOCK_TRL,
  blockNo,
  blockValid,
  type Checkpoint,
  MLOG_MTR_END,
  MLOG_NOOP,
  MLOG_PAGE_BYTES,
  MLOG_PAGE_INIT,
  readU16,
  readU32,
} from './format.js';
import type { LogFiles } from './log-files.js';
import { skipPageBytes } from './page-diff.js';

/** One complete mini-transaction found in the log. */
export interface ScannedMtr {
  readonly start: bigint;
  readonly end: bigint;
  /** Its records: [from, to) in {@link LogScan.bytes}, MLOG_MTR_END excluded. */
  readonly from: number;
  readonly to: number;
}

/** The log from the checkpoint to its end, as complete mini-transactions. */
export interface LogScan {
  readonly checkpoint: Checkpoint;
  /** Record bytes from the checkpoint LSN on, headers and trailers removed. */
  readonly bytes: Uint8Array;
  readonly mtrs: ScannedMtr[];
  /** End of the last complete mtr: where the log continues. */
  readonly end: bigint;
  /** The block holding `end`, as on disk (its bytes past `end` are dropped by the writer). */
  readonly lastBlock: Uint8Array;
}

/**
 * Reads the log from the newest checkpoint (`recv_group_scan_log_recs`): block by block while
 * the block number, checksum and length are right. A bad block before the end LSN the checkpoint
 * recorded (durable when it was written) is corruption (RedoLogError); after it, the first bad or
 * partial block ends the log. Records are parsed into whole mini-transactions; an mtr without its
 * end record (the log was cut inside it) is dropped.
 */
export function scanLog(files: LogFiles, pageSize: number): LogScan {
  const cp = files.readCheckpoint();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const blk = new Uint8Array(BLOCK);
  let blockLsn = cp.lsn - (cp.lsn % 512n);
  let from = Number(cp.lsn % 512n);
  const maxBytes = files.capacity;
  for (;;) {
    files.readBlock(blockLsn, blk, 0);
    const len = readU16(blk, BLOCK_HDR_DATA_LEN);
    const ok =
      blockValid(blk, 0) &&
      blockNo(blockLsn) === readU32(blk, 0) &&
      len >= BLOCK_HDR &&
      (len <= BLOCK_TRL || len === BLOCK);
    if (!ok) {
      if (blockLsn === cp.lsn - (cp.lsn % 512n))
        throw new RedoLogError(
          files.devices[0]!.name,
          `the block at the checkpoint (LSN ${cp.lsn}) is corrupt`,
        );
      // The checkpoint was written after the log was durable to its end LSN: a bad block before
      // that is damage, not the unsynced tail of a crash (whose blocks may reach the disk in any
      // order, so a good block after a bad one proves nothing).
      if (blockLsn + 512n <= cp.endLsn)
        throw new RedoLogError(
          files.devices[0]!.name,
          `the log block at LSN ${blockLsn} is corrupt, before the end (${cp.endLsn}) the last checkpoint recorded`,
        );
      break;
    }
    const to = len === BLOCK ? BLOCK_TRL : len;
    if (to < from) break;
    chunks.push(blk.slice(from, to));
    total += to - from;
    if (len !== BLOCK) break;
    blockLsn += 512n;
    from = BLOCK_HDR;
    if (BigInt(total) > maxBytes) break;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const mtrs = parseMtrs(bytes, cp.lsn, pageSize, files.devices[0]!.name);
  const end = mtrs.length > 0 ? mtrs[mtrs.length - 1]!.end : cp.lsn;
  const lastBlock = new Uint8Array(BLOCK);
  files.readBlock(end - (end % 512n), lastBlock, 0);
  return { checkpoint: cp, bytes, mtrs, end, lastBlock };
}

/** Splits record bytes into complete mtrs; the LSN of byte 0 is `lsn0`. */
function parseMtrs(b: Uint8Array, lsn0: bigint, ps: number, file: string): ScannedMtr[] {
  const out: ScannedMtr[] = [];
  let p = 0;
  let lsn = lsn0;
  while (p < b.length) {
    const from = p;
    let q = p;
    let complete = false;
    while (q < b.length) {
      const t = b[q]!;
      const r = recordEnd(b, q, ps);
      if (r === -2)
        throw new RedoLogError(
          file,
          `unknown record type 0x${t.toString(16)} at LSN ${advanceLsn(lsn, q - from)}`,
        );
      if (r < 0) break;
      if (t === MLOG_MTR_END) {
        complete = true;
        q = r;
        break;
      }
      q = r;
    }
    if (!complete) break;
    const end = advanceLsn(lsn, q - from);
    out.push({ start: lsn, end, from, to: q - 1 });
    lsn = end;
    p = q;
  }
  return out;
}

/** The offset after the record at `b[q]`: −1 if it runs past the bytes, −2 for an unknown type. */
export function recordEnd(b: Uint8Array, q: number, ps: number): number {
  const n = b.length;
  switch (b[q]) {
    case MLOG_MTR_END:
      return q + 1;
    case MLOG_NOOP:
      return q + 5 <= n && q + 5 + readU32(b, q + 1) <= n ? q + 5 + readU32(b, q + 1) : -1;
    case MLOG_PAGE_INIT:
      return q + 9 <= n ? q + 9 : -1;
    case MLOG_PAGE_BYTES:
      return q + 9 <= n ? skipPageBytes(b, q + 9, n, ps) : -1;
    default:
      return -2;
  }
}
