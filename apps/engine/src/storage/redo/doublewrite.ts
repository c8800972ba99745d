import {
  type DeviceDescriptor,
  getPageLsn,
  getPageNo,
  type PageDevice,
  verifyPage,
} from '@enginekit/buffer-pool';
import { DoublewriteBatches, type DoublewriteDescriptor, type DoublewriteIo } from './doublewrite-batches.js';

/** This thread's part in the doublewrite batches: the shared batches, its file handle, its region. */
export interface DoublewriteRegion {
  readonly batches: DoublewriteBatches;
  /** This thread's handle on the doublewrite file. */
  readonly file: PageDevice;
  readonly region: number;
}

/**
 * The device under the buffer pool when the redo log is on, one per thread over its own file
 * handles: the WAL rule and the doublewrite buffer in one place, so the pool's write path needs no
 * hook of its own.
 *
 * - WAL: before a page goes anywhere, `walFlush(pageLsn)` makes the (shared) log durable past the
 *   LSN the sealed page carries (envelope bytes 16–23).
 * - Doublewrite (`innodb_doublewrite=ON`): pages enter this thread's region of the shared batches
 *   (doublewrite-batches.ts); a full batch, or `sync()`, goes to that region of the doublewrite
 *   file, which is fsynced, then in place. A crash inside the in-place writes leaves a whole copy
 *   to repair a torn page from ({@link readDoublewrite}). Reads of a page still in any thread's
 *   batch are served from the batch.
 */
export class DurableDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  readonly data: PageDevice;
  #dw: DoublewriteRegion | null;
  readonly #walFlush: (lsn: bigint) => void;
  #size: number;

  constructor(data: PageDevice, dblwr: DoublewriteRegion | null, walFlush: (lsn: bigint) => void) {
    this.data = data;
    this.#dw = dblwr;
    this.pageSize = data.pageSize;
    this.name = data.name;
    this.#walFlush = walFlush;
    this.#size = data.size();
    if (dblwr !== null && dblwr.batches.pageSize !== data.pageSize)
      throw new RangeError(
        `doublewrite batches of ${dblwr.batches.pageSize}-byte pages for ${data.name} (${data.pageSize})`,
      );
  }

  /** The doublewrite side, or null with `innodb_doublewrite=OFF`. */
  get doublewrite(): DoublewriteRegion | null {
    return this.#dw;
  }

  /** Pages written through the doublewrite file by every thread. */
  get doublewritePages(): number {
    return this.#dw?.batches.pagesWritten ?? 0;
  }

  /** Doublewrite batches written by every thread. */
  get doublewriteWrites(): number {
    return this.#dw?.batches.batchesWritten ?? 0;
  }

  /**
   * Makes room for `regions` threads in the doublewrite batches (the thread that creates them keeps
   * region 0): this thread's batch is written out and the file sized for every region. REQUIRES:
   * no other thread uses the batches yet. Returns what the other threads attach with.
   */
  shareDoublewrite(regions: number): DoublewriteDescriptor | null {
    const dw = this.#dw;
    if (dw === null) return null;
    if (dw.batches.regions !== regions) {
      dw.batches.syncAll(this.#io(dw));
      const batches = DoublewriteBatches.create(regions, this.pageSize);
      const last = regions * batches.slots - 1;
      if (dw.file.size() <= last) dw.file.writePage(last, new Uint8Array(this.pageSize), 0);
      dw.file.sync();
      this.#dw = { batches, file: dw.file, region: 0 };
    }
    return { buffer: this.#dw!.batches.sab, path: dw.file.name };
  }

  #io(dw: DoublewriteRegion): DoublewriteIo {
    return { data: this.data, file: dw.file };
  }

  size(): number {
    return Math.max(this.#size, this.data.size());
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    // The batches first: a page not there has had its in-place write (before it left the batch).
    const found = this.#dw?.batches.copyLive(first, count, dest, destOffset) ?? null;
    if (found === null) {
      this.data.readPages(first, count, dest, destOffset);
      return;
    }
    const ps = this.pageSize;
    let p = 0;
    while (p < count) {
      if (found[p] === true) {
        p++;
        continue;
      }
      let q = p;
      while (q < count && found[q] !== true) q++;
      this.data.readPages(first + p, q - p, dest, destOffset + p * ps);
      p = q;
    }
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    this.#walFlush(getPageLsn(src, srcOffset));
    const dw = this.#dw;
    if (dw === null) this.data.writePage(pageNo, src, srcOffset);
    else dw.batches.add(dw.region, pageNo, src, srcOffset, this.#io(dw));
    if (pageNo >= this.#size) this.#size = pageNo + 1;
  }

  /** Writes this thread's batch: doublewrite file, fsync, then the pages in place (not synced). */
  flushBatch(): void {
    const dw = this.#dw;
    if (dw !== null) dw.batches.flush(dw.region, this.#io(dw));
  }

  /** Every page written so far, by any thread, durable in place: all batches out, data fsynced. */
  sync(): void {
    const dw = this.#dw;
    if (dw === null) this.data.sync();
    else dw.batches.syncAll(this.#io(dw));
  }

  close(): void {
    this.data.close();
    this.#dw?.file.close();
  }

  descriptor(): DeviceDescriptor | null {
    return this.data.descriptor();
  }
}

/**
 * The valid page copies of a doublewrite file (`buf_dblwr_init_or_load_pages`): page number →
 * the copy with the highest LSN. Invalid slots (a torn write of the batch itself) are skipped.
 */
export function readDoublewrite(dblwr: PageDevice): Map<number, Uint8Array> {
  const ps = dblwr.pageSize;
  const out = new Map<number, Uint8Array>();
  const n = dblwr.size();
  const buf = new Uint8Array(ps);
  for (let s = 0; s < n; s++) {
    dblwr.readPages(s, 1, buf, 0);
    const pageNo = getPageNo(buf, 0);
    // An all-zero slot verifies (a page never written) but is no copy of anything.
    if (getPageLsn(buf, 0) === 0n) continue;
    if (verifyPage(buf, 0, ps, 0, pageNo) !== null) continue;
    const have = out.get(pageNo);
    if (have === undefined || getPageLsn(have, 0) < getPageLsn(buf, 0)) out.set(pageNo, buf.slice());
  }
  return out;
}
