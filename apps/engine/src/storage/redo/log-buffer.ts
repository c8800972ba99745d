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

/**
 * The log buffer (`log_sys->buf`, `innodb_log_buffer_size`): whole 512-byte blocks from `start`
 * (a block boundary) to the block holding the current LSN. Appending fills block headers as it
 * goes; {@link LogBuffer.take} hands the blocks not yet written to the writer and keeps the last,
 * partial one at the front, since it will be written again as it fills.
 */
export class LogBuffer {
  #buf: Uint8Array;
  /** LSN of `buf[0]`, a multiple of 512. */
  #start: bigint;
  /** The current LSN: where the next record byte goes. */
  #lsn: bigint;
  /** Low 32 bits of the checkpoint number, stamped on new blocks. */
  checkpointNo = 0;

  /**
   * REQUIRES: `lsn` points at a record byte (offset 12 … 507 in its block). `lastBlock`, when
   * given, is that block as it is on disk (its bytes before `lsn` are kept).
   */
  constructor(size: number, lsn: bigint, lastBlock: Uint8Array | null) {
    this.#buf = new Uint8Array(Math.max(4 * BLOCK, size - (size % BLOCK)));
    this.#lsn = lsn;
    this.#start = lsn - (lsn % 512n);
    if (lastBlock !== null) this.#buf.set(lastBlock.subarray(0, BLOCK), 0);
    else this.#initBlock(0, this.#start);
    const off = Number(lsn % 512n);
    this.#buf.fill(0, off, BLOCK_TRL);
    writeU16(this.#buf, BLOCK_HDR_DATA_LEN, off);
  }

  get lsn(): bigint {
    return this.#lsn;
  }

  get size(): number {
    return this.#buf.length;
  }

  /** Whether `n` more record bytes fit without a write. */
  fits(n: number): boolean {
    // Each block carries 496 record bytes; one spare block for the one the append ends in.
    const blocks = Math.ceil((Number(this.#lsn - this.#start) + n + BLOCK) / (BLOCK_TRL - BLOCK_HDR)) + 1;
    return blocks * BLOCK <= this.#buf.length;
  }

  /** Grows the buffer so that `n` record bytes fit (an mtr larger than the buffer). */
  grow(n: number): void {
    let size = this.#buf.length;
    while (size < Number(this.#lsn - this.#start) + 2 * n + 4 * BLOCK) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf);
    this.#buf = next;
  }

  /**
   * Appends `n` bytes of `src` as one mini-transaction (the first byte starts a record group).
   * REQUIRES: {@link fits}(n). Returns the start LSN; {@link lsn} is the end.
   */
  append(src: Uint8Array, n: number): bigint {
    const b = this.#buf;
    const start = this.#lsn;
    let pos = Number(start - this.#start);
    let blk = pos - (pos % BLOCK);
    if (readU16(b, blk + BLOCK_FIRST_REC_GROUP) === 0) writeU16(b, blk + BLOCK_FIRST_REC_GROUP, pos - blk);
    let i = 0;
    while (i < n) {
      const room = BLOCK_TRL - (pos - blk);
      const k = Math.min(room, n - i);
      b.set(src.subarray(i, i + k), pos);
      i += k;
      pos += k;
      if (pos - blk === BLOCK_TRL) {
        writeU16(b, blk + BLOCK_HDR_DATA_LEN, BLOCK);
        blk += BLOCK;
        this.#initBlock(blk, this.#start + BigInt(blk));
        pos = blk + BLOCK_HDR;
      } else writeU16(b, blk + BLOCK_HDR_DATA_LEN, pos - blk);
    }
    this.#lsn = this.#start + BigInt(pos);
    return start;
  }

  #initBlock(at: number, blockLsn: bigint): void {
    const b = this.#buf;
    b.fill(0, at, at + BLOCK);
    writeU32(b, at + BLOCK_HDR_NO, blockNo(blockLsn));
    writeU16(b, at + BLOCK_HDR_DATA_LEN, BLOCK_HDR);
    writeU32(b, at + BLOCK_CHECKPOINT_NO, this.checkpointNo >>> 0);
  }

  /**
   * The blocks from the one holding `from` to the one holding the current LSN, sealed, for the
   * writer: `{ blockLsn, bytes, offset, count }`. Afterwards the buffer keeps only the last block.
   * The view is valid until the next append.
   */
  take(from: bigint): { blockLsn: bigint; bytes: Uint8Array; offset: number; count: number } {
    const first = from - (from % 512n);
    const last = this.#lsn - (this.#lsn % 512n);
    const off = Number(first - this.#start);
    const count = Number(last - first) / BLOCK + 1;
    for (let k = 0; k < count; k++) sealBlock(this.#buf, off + k * BLOCK);
    return { blockLsn: first, bytes: this.#buf, offset: off, count };
  }

  /** After the writer is done with {@link take}'s blocks: move the last block to the front. */
  compact(): void {
    const last = this.#lsn - (this.#lsn % 512n);
    const off = Number(last - this.#start);
    if (off > 0) this.#buf.copyWithin(0, off, off + BLOCK);
    this.#start = last;
  }
}
