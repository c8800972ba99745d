import {
  BLOCK,
  BLOCK_CHECKPOINT_NO,
  BLOCK_FIRST_REC_GROUP,
  BLOCK_HDR,
  BLOCK_HDR_DATA_LEN,
  BLOCK_HDR_NO,
  BLOCK_TRL,
  blockNo,
  readU16,
  sealBlock,
  writeU16,
  writeU32,
} from './format.js';
import { CP_NO_LOW, LSN, type LogShared, WRITTEN } from './log-shared.js';

/** Record bytes one block carries. */
const PER_BLOCK = BLOCK_TRL - BLOCK_HDR;

/**
 * The log buffer (`log_sys->buf`, `innodb_log_buffer_size`) in shared memory: a ring of 512-byte
 * blocks, the block starting at LSN `b` in ring slot `b / 512 mod blocks`. Appenders (under the log
 * mutex) fill blocks from the current LSN on, never past the ring slot of the block holding the
 * written LSN, which the writer still has to write (again, when it is partial). The writer copies
 * blocks out without the log mutex ({@link copyOut}): every byte before the current LSN was stored
 * before the LSN was published, and the bytes past it in the last block, which an appender may be
 * writing at that moment, are replaced by the copy's own header and zeros.
 */
export class LogBuffer {
  /** Bytes of the ring. */
  readonly size: number;
  readonly #blocks: bigint;
  readonly #s: LogShared;
  readonly #ring: Uint8Array;

  constructor(shared: LogShared) {
    this.#s = shared;
    this.#ring = shared.ring;
    this.size = shared.ring.length;
    this.#blocks = BigInt(this.size / BLOCK);
  }

  /**
   * Sets up the ring for a log that continues at `lsn` (a record byte, offset 12 … 507 in its
   * block); `lastBlock`, when given, is that block as on disk (its bytes before `lsn` are kept).
   */
  init(lsn: bigint, lastBlock: Uint8Array | null): void {
    const blockLsn = lsn - (lsn % 512n);
    const at = this.#slot(blockLsn);
    const off = Number(lsn % 512n);
    // A log that ends right after a block's header holds nothing of that block: what the file has
    // there is a block of an older lap (its number, its checkpoint number), never to be kept.
    if (lastBlock !== null && off > BLOCK_HDR) this.#ring.set(lastBlock.subarray(0, BLOCK), at);
    else this.#initBlock(at, blockLsn);
    this.#ring.fill(0, at + off, at + BLOCK_TRL);
    writeU16(this.#ring, at + BLOCK_HDR_DATA_LEN, off);
    Atomics.store(this.#s.b64, LSN, lsn);
  }

  get lsn(): bigint {
    return Atomics.load(this.#s.b64, LSN);
  }

  #slot(blockLsn: bigint): number {
    return Number((blockLsn / 512n) % this.#blocks) * BLOCK;
  }

  /**
   * Record bytes that can be appended now: up to the last ring slot before the block holding the
   * written LSN comes round again, and never ending exactly at a trailer of that last slot (which
   * would start the next block in a slot still to be written).
   */
  room(): number {
    return this.#roomFrom(Atomics.load(this.#s.b64, WRITTEN));
  }

  /** {@link room} once everything appended so far is written. */
  roomWhenWritten(): number {
    return this.#roomFrom(this.lsn);
  }

  #roomFrom(written: bigint): number {
    const lsn = this.lsn;
    const first = lsn - (lsn % 512n);
    const lastAllowed = written - (written % 512n) + BigInt(this.size - BLOCK);
    if (lastAllowed < first) return 0;
    const r = BLOCK_TRL - Number(lsn % 512n) + Number((lastAllowed - first) / 512n) * PER_BLOCK - 1;
    return Math.max(0, r);
  }

  /** Whether `n` bytes fit now. */
  fits(n: number): boolean {
    return n <= this.room();
  }

  /**
   * Appends `n` bytes of `src` from `from`, filling block headers as it goes; `startsGroup` marks
   * the first byte as the start of a mini-transaction (the block's first-record-group field).
   * Publishes the new LSN last. REQUIRES: the log mutex, `n` ≤ {@link room}. Returns the start LSN.
   */
  append(src: Uint8Array, from: number, n: number, startsGroup: boolean): bigint {
    const b = this.#ring;
    const start = this.lsn;
    let blockLsn = start - (start % 512n);
    let at = this.#slot(blockLsn);
    let off = Number(start % 512n);
    if (startsGroup && readU16(b, at + BLOCK_FIRST_REC_GROUP) === 0)
      writeU16(b, at + BLOCK_FIRST_REC_GROUP, off);
    let i = 0;
    while (i < n) {
      const k = Math.min(BLOCK_TRL - off, n - i);
      b.set(src.subarray(from + i, from + i + k), at + off);
      i += k;
      off += k;
      if (off === BLOCK_TRL) {
        writeU16(b, at + BLOCK_HDR_DATA_LEN, BLOCK);
        blockLsn += 512n;
        at = this.#slot(blockLsn);
        this.#initBlock(at, blockLsn);
        off = BLOCK_HDR;
      } else writeU16(b, at + BLOCK_HDR_DATA_LEN, off);
    }
    Atomics.store(this.#s.b64, LSN, blockLsn + BigInt(off));
    return start;
  }

  #initBlock(at: number, blockLsn: bigint): void {
    const b = this.#ring;
    b.fill(0, at, at + BLOCK);
    writeU32(b, at + BLOCK_HDR_NO, blockNo(blockLsn));
    writeU16(b, at + BLOCK_HDR_DATA_LEN, BLOCK_HDR);
    writeU32(b, at + BLOCK_CHECKPOINT_NO, Atomics.load(this.#s.i32, CP_NO_LOW) >>> 0);
  }

  /**
   * Copies the blocks from the one holding `from` to the one holding `to` into `dest` (from 0),
   * sealed, the last one cut at `to`. REQUIRES: the write mutex (no other writer moves the written
   * LSN), `from` ≤ `to` ≤ the current LSN, `dest` large enough for the blocks. Returns the count.
   */
  copyOut(from: bigint, to: bigint, dest: Uint8Array): number {
    const first = from - (from % 512n);
    const last = to - (to % 512n);
    const count = Number((last - first) / 512n) + 1;
    for (let k = 0; k < count; k++) {
      const at = this.#slot(first + BigInt(k * BLOCK));
      dest.set(this.#ring.subarray(at, at + BLOCK), k * BLOCK);
    }
    const lo = (count - 1) * BLOCK;
    const used = Number(to % 512n);
    writeU16(dest, lo + BLOCK_HDR_DATA_LEN, used);
    dest.fill(0, lo + used, lo + BLOCK_TRL);
    // A group an appender started past `to` while we copied is not in this copy.
    if (readU16(dest, lo + BLOCK_FIRST_REC_GROUP) >= used) writeU16(dest, lo + BLOCK_FIRST_REC_GROUP, 0);
    for (let k = 0; k < count; k++) sealBlock(dest, k * BLOCK);
    return count;
  }
}
