import type { PageDevice } from '@enginekit/buffer-pool';
import { RedoLogError } from './errors.js';
import {
  BLOCK,
  BLOCK_HDR,
  BLOCK_HDR_DATA_LEN,
  BLOCK_HDR_NO,
  blockNo,
  CHECKPOINT_1,
  CHECKPOINT_2,
  type Checkpoint,
  decodeCheckpoint,
  decodeFileHeader,
  encodeCheckpoint,
  encodeFileHeader,
  FILE_HDR,
  LOG_START_LSN,
  type LogFileHeader,
  sealBlock,
  writeU16,
  writeU32,
} from './format.js';

/** Smallest `innodb_log_file_size` accepted: 64 KiB (MySQL's is 4 MiB; small files keep tests small). */
export const MIN_LOG_FILE_SIZE = 65536;

/**
 * The log file group: `files` devices of 512-byte pages (one page per log block), each starting
 * with four header blocks. Maps an LSN's block to its file and block index (docs/durability.md,
 * "LSN and where it lives"), writes and reads runs of blocks across file boundaries and around
 * the end of the group, and reads and writes the checkpoint slots of file 0.
 */
export class LogFiles {
  readonly devices: readonly PageDevice[];
  readonly fileSize: number;
  /** Bytes of blocks the group holds: files × (fileSize − 2048). */
  readonly capacity: bigint;
  readonly #perFile: bigint;
  /** Log blocks a file holds after its header. */
  readonly #blocksPerFile: number;
  readonly #touched: Set<number> = new Set();

  constructor(devices: readonly PageDevice[], fileSize: number) {
    this.devices = devices;
    this.fileSize = fileSize;
    this.#perFile = BigInt(fileSize - FILE_HDR);
    this.#blocksPerFile = (fileSize - FILE_HDR) / BLOCK;
    this.capacity = this.#perFile * BigInt(devices.length);
  }

  /**
   * Writes a fresh group: every file's header, two empty checkpoint slots, the first checkpoint,
   * and the empty first block (at `h.startLsn`), so a log that was never written still scans.
   */
  format(h: Omit<LogFileHeader, 'fileNo' | 'files' | 'fileSize'>, cp: Checkpoint): void {
    const zero = new Uint8Array(BLOCK);
    for (const [i, d] of this.devices.entries()) {
      d.writePage(
        0,
        encodeFileHeader({ ...h, fileNo: i, files: this.devices.length, fileSize: this.fileSize }),
        0,
      );
      for (let b = 1; b < FILE_HDR / BLOCK; b++) d.writePage(b, zero, 0);
      // The file's last block, so the file has its full length from the start.
      d.writePage(this.fileSize / BLOCK - 1, zero, 0);
      this.#touched.add(i);
    }
    const first = new Uint8Array(BLOCK);
    writeU32(first, BLOCK_HDR_NO, blockNo(h.startLsn));
    writeU16(first, BLOCK_HDR_DATA_LEN, BLOCK_HDR);
    sealBlock(first, 0);
    this.writeBlocks(h.startLsn, first, 0, 1);
    this.writeCheckpoint(cp);
    this.sync();
  }

  /** Validates every file's header against the first one; returns the first one. */
  readHeaders(): LogFileHeader {
    const b = new Uint8Array(BLOCK);
    let first: LogFileHeader | undefined;
    for (const [i, d] of this.devices.entries()) {
      if (d.size() < FILE_HDR / BLOCK)
        throw new RedoLogError(d.name, `is ${d.size() * BLOCK} bytes, shorter than a log file header`);
      d.readPages(0, 1, b, 0);
      const h = decodeFileHeader(b);
      if (typeof h === 'string') throw new RedoLogError(d.name, h);
      if (h.fileNo !== i) throw new RedoLogError(d.name, `is file ${h.fileNo} of its group, expected ${i}`);
      if (first === undefined) first = h;
      else if (h.databaseId !== first.databaseId || h.files !== first.files || h.fileSize !== first.fileSize)
        throw new RedoLogError(d.name, `belongs to another log group than ${this.devices[0]!.name}`);
      if (d.size() * BLOCK < h.fileSize)
        throw new RedoLogError(
          d.name,
          `is ${d.size() * BLOCK} bytes, its header says ${h.fileSize} (truncated)`,
        );
    }
    return first!;
  }

  /** The newest valid checkpoint, or a RedoLogError when neither slot is valid. */
  readCheckpoint(): Checkpoint {
    const d = this.devices[0]!;
    const b = new Uint8Array(BLOCK);
    let best: Checkpoint | null = null;
    for (const at of [CHECKPOINT_1, CHECKPOINT_2]) {
      d.readPages(at / BLOCK, 1, b, 0);
      const c = decodeCheckpoint(b);
      if (c !== null && (best === null || c.no > best.no)) best = c;
    }
    if (best === null)
      throw new RedoLogError(d.name, 'has no valid checkpoint (both slots fail their checksum)');
    return best;
  }

  /** Writes checkpoint `cp` into the slot its number picks (odd → slot 2). Not synced. */
  writeCheckpoint(cp: Checkpoint): void {
    const at = cp.no % 2n === 1n ? CHECKPOINT_2 : CHECKPOINT_1;
    this.devices[0]!.writePage(at / BLOCK, encodeCheckpoint(cp), 0);
    this.#touched.add(0);
  }

  /** (file, block index in the file) of the block starting at `blockLsn`. */
  #where(blockLsn: bigint): [number, number] {
    const o = (blockLsn - LOG_START_LSN) % this.capacity;
    const file = Number(o / this.#perFile);
    return [file, (FILE_HDR + Number(o % this.#perFile)) / BLOCK];
  }

  /**
   * Writes `count` blocks from `src[off…]`, the first being the block that starts at `blockLsn`:
   * each run of blocks that lie one after another in one file as one request where the device
   * takes runs (one `pwrite`), else block by block. Not synced: sync the files
   * {@link filesBetween} name.
   */
  writeBlocks(blockLsn: bigint, src: Uint8Array, off: number, count: number): void {
    let i = 0;
    while (i < count) {
      const [file, at] = this.#where(blockLsn + BigInt(i * BLOCK));
      // the run ends where the file does (the log wraps to the next file, or to the first)
      const room = this.#blocksPerFile - (at - FILE_HDR / BLOCK);
      const n = Math.min(count - i, room);
      const d = this.devices[file]!;
      if (d.writePages !== undefined) d.writePages(at, n, src, off + i * BLOCK);
      else for (let k = 0; k < n; k++) d.writePage(at + k, src, off + (i + k) * BLOCK);
      i += n;
    }
  }

  /** Reads the block starting at `blockLsn` into `dest[off…]`. */
  readBlock(blockLsn: bigint, dest: Uint8Array, off: number): void {
    const [file, at] = this.#where(blockLsn);
    this.devices[file]!.readPages(at, 1, dest, off);
  }

  /**
   * fsync of every file written since the last sync through this object (the headers and
   * checkpoint slots of {@link format} and {@link writeCheckpoint}); of every file when `all`.
   */
  sync(all = false): void {
    if (all) for (const d of this.devices) d.sync();
    else for (const f of this.#touched) this.devices[f]!.sync();
    this.#touched.clear();
  }

  /**
   * The files holding the blocks from the one of `from` to the one of `to` (LSNs, `from` ≤ `to`):
   * what an fsync must cover after the log was written over that range, by any thread (an fsync
   * makes a file durable whichever handle wrote it).
   */
  filesBetween(from: bigint, to: bigint): number[] {
    const n = this.devices.length;
    const a = from - (from % 512n);
    const b = to - (to % 512n);
    if (b - a + 512n >= this.capacity - this.#perFile) return Array.from({ length: n }, (_, i) => i);
    const last = this.#where(b)[0];
    let f = this.#where(a)[0];
    const out = [f];
    while (f !== last) {
      f = (f + 1) % n;
      out.push(f);
    }
    return out;
  }

  /** fsync of the given files. */
  syncFiles(files: readonly number[]): void {
    for (const f of files) this.devices[f]!.sync();
  }

  /** {@link syncFiles} without blocking the thread where the devices can (syncAsync). */
  async syncFilesAsync(files: readonly number[]): Promise<void> {
    for (const f of files) {
      const d = this.devices[f]!;
      if (d.syncAsync !== undefined) await d.syncAsync();
      else d.sync();
    }
  }

  close(): void {
    for (const d of this.devices) d.close();
  }
}
