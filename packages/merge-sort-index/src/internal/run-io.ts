import { type SpillDirectory, TempFileError } from '@enginekit/common';
import type { RecordCursor } from './cursor.js';
import { readVarint, varintSize } from './varint.js';

/**
 * Copy `len` bytes: a loop for short records, `set()` from a fresh view for longer ones
 * (measured: a byte loop costs ~2.3 ns/byte, the view + memcpy ~65 ns flat; `Buffer#copy`
 * ~100 ns flat).
 */
function copyBytes(src: Buffer, from: number, dst: Buffer, to: number, len: number): void {
  if (len < 40) {
    for (let i = 0; i < len; i++) dst[to + i] = src[from + i]!;
  } else {
    dst.set(new Uint8Array(src.buffer, src.byteOffset + from, len), to);
  }
}

/**
 * Appends encoded records to a temp file through one block buffer, writing a full block at a
 * time (`row_merge_write` of InnoDB writes one `srv_sort_buf_size` block per call). Records may
 * straddle blocks, as in InnoDB.
 */
export class RunWriter {
  readonly block: Buffer;
  readonly #files: SpillDirectory;
  #fd = -1;
  #fill = 0;
  /** File offset where the block buffer's first byte goes. */
  #pos = 0;

  constructor(block: Buffer, files: SpillDirectory) {
    this.block = block;
    this.#files = files;
  }

  /** Start writing at `position` of file `fd`. */
  open(fd: number, position: number): void {
    this.#fd = fd;
    this.#pos = position;
    this.#fill = 0;
  }

  /** File offset just after the last appended byte. */
  get position(): number {
    return this.#pos + this.#fill;
  }

  append(src: Buffer, start: number, len: number): void {
    const block = this.block;
    const size = block.length;
    while (len > 0) {
      const room = size - this.#fill;
      const n = Math.min(len, room);
      copyBytes(src, start, block, this.#fill, n);
      this.#fill += n;
      start += n;
      len -= n;
      if (this.#fill === size) this.flush();
    }
  }

  /** Write out the partly filled block. */
  flush(): void {
    if (this.#fill === 0) return;
    this.#files.write(this.#fd, this.block, 0, this.#fill, this.#pos);
    this.#pos += this.#fill;
    this.#fill = 0;
  }

  /**
   * End a run as MySQL 5.6 does (`row_merge_buf_write`, `row_merge_write_eof`): a 0 end-of-run
   * byte, then the rest of the block, written whole (`row_merge_write` always writes a full
   * `srv_sort_buf_size` block). REQUIRES: the run started at a block boundary. The next run
   * starts at the next block boundary.
   */
  endRunWithMarker(): void {
    const block = this.block;
    block[this.#fill++] = 0;
    if (this.#fill === block.length) {
      this.flush();
      return;
    }
    block.fill(0, this.#fill);
    this.#fill = block.length;
    this.flush();
  }
}

/**
 * Reads one run (a byte range of a temp file) record by record through a fixed buffer. When
 * the buffer holds only part of the next record, the tail is moved to the front and the rest
 * read behind it (InnoDB instead copies a straddling record into a side buffer, `mrec_buf`).
 * REQUIRES: every record of the run is at most `buf.length` bytes.
 */
export class RunReader implements RecordCursor {
  readonly buf: Buffer;
  readonly #files: SpillDirectory;
  #fd = -1;
  /** Next file offset to read. */
  #filePos = 0;
  /** End of the run's records in the file. */
  #fileEnd = 0;
  /** End of the run's last block (after the end marker and padding); ≥ #fileEnd. */
  #blockEnd = 0;
  /** Valid bytes in buf: [0, dataEnd). */
  #dataEnd = 0;
  recordStart = 0;
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;

  constructor(buf: Buffer, files: SpillDirectory) {
    this.buf = buf;
    this.#files = files;
  }

  /**
   * Position on the run whose records are `[start, end)` of `fd`, before its first record.
   * `blockEnd` (default `end`): where the run's blocks end; the bytes after its records (end
   * marker, padding) are read too once the records are exhausted, as MySQL 5.6 reads whole blocks.
   */
  open(fd: number, start: number, end: number, blockEnd: number = end): void {
    this.#fd = fd;
    this.#filePos = start;
    this.#fileEnd = end;
    this.#blockEnd = blockEnd;
    this.#dataEnd = 0;
    this.valueEnd = 0;
  }

  /** Read the run's tail after its records (end marker and padding), counted as read. */
  #readTail(): void {
    const buf = this.buf;
    let pos = this.#fileEnd;
    while (pos < this.#blockEnd) {
      const want = Math.min(buf.length, this.#blockEnd - pos);
      const got = this.#files.read(this.#fd, buf, 0, want, pos);
      if (got !== want)
        throw new TempFileError(`temp file ended early: wanted ${want} bytes at ${pos}, got ${got}`);
      pos += got;
    }
    this.#blockEnd = this.#fileEnd;
    this.#dataEnd = 0;
    this.valueEnd = 0;
  }

  /** Keep `[p, dataEnd)`, moved to the front, and fill the rest; returns the new offset of p. */
  #refill(p: number): number {
    const buf = this.buf;
    const keep = this.#dataEnd - p;
    if (keep > 0 && p > 0) buf.copy(buf, 0, p, this.#dataEnd);
    const want = Math.min(buf.length - keep, this.#fileEnd - this.#filePos);
    const got = this.#files.read(this.#fd, buf, keep, want, this.#filePos);
    if (got !== want)
      throw new TempFileError(`temp file ended early: wanted ${want} bytes at ${this.#filePos}, got ${got}`);
    this.#filePos += got;
    this.#dataEnd = keep + got;
    return 0;
  }

  next(): boolean {
    let p = this.valueEnd;
    const more = this.#filePos < this.#fileEnd;
    if (p >= this.#dataEnd && !more) {
      if (this.#blockEnd > this.#fileEnd) this.#readTail();
      return false;
    }
    const buf = this.buf;
    if (this.#dataEnd - p < 4 && more) p = this.#refill(p);
    const kl = readVarint(buf, p);
    let ks = p + varintSize(kl);
    if (ks + kl + 4 > this.#dataEnd && this.#filePos < this.#fileEnd) {
      ks -= p;
      p = this.#refill(p);
    }
    const ke = ks + kl;
    const vl = readVarint(buf, ke);
    const vs = ke + varintSize(vl);
    const ve = vs + vl;
    if (ve > this.#dataEnd) {
      if (this.#filePos >= this.#fileEnd || p === 0) {
        throw new TempFileError(`corrupt run: a record of ${ve - p} bytes runs past the end of its run`);
      }
      const shift = p;
      this.#refill(p);
      this.recordStart = 0;
      this.keyStart = ks - shift;
      this.keyEnd = ke - shift;
      this.valueStart = vs - shift;
      this.valueEnd = ve - shift;
      if (this.valueEnd > this.#dataEnd)
        throw new TempFileError('corrupt run: record longer than the read buffer');
      return true;
    }
    this.recordStart = p;
    this.keyStart = ks;
    this.keyEnd = ke;
    this.valueStart = vs;
    this.valueEnd = ve;
    return true;
  }
}

/** Copy a whole run's bytes to the writer unchanged (InnoDB's `row_merge_blocks_copy`). */
export function copyRun(reader: RunReader, writer: RunWriter): number {
  let n = 0;
  while (reader.next()) {
    writer.append(reader.buf, reader.recordStart, reader.valueEnd - reader.recordStart);
    n++;
  }
  return n;
}
