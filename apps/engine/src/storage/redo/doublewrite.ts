import {
  type DeviceDescriptor,
  getPageLsn,
  getPageNo,
  type PageDevice,
  verifyPage,
} from '@enginekit/buffer-pool';

/** Pages per doublewrite batch (`srv_doublewrite_batch_size`'s role; InnoDB writes up to 120). */
export const DOUBLEWRITE_BATCH = 64;

/**
 * The device under the buffer pool when the redo log is on: the WAL rule and the doublewrite
 * buffer in one place, so the pool's write path needs no hook of its own.
 *
 * - WAL: before a page goes anywhere, `walFlush(pageLsn)` makes the log durable past the LSN the
 *   sealed page carries (envelope bytes 16–23).
 * - Doublewrite (`innodb_doublewrite=ON`, `dblwr` given): pages are collected in a batch of up to
 *   {@link DOUBLEWRITE_BATCH}; a full batch, or `sync()`, writes the batch to the doublewrite file
 *   (slot i = page i of that file), fsyncs it, then writes each page in place. A crash inside
 *   the in-place writes leaves a whole copy to repair a torn page from ({@link readDoublewrite}).
 *   Reads of a page still in the batch are served from the batch.
 */
export class DurableDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  readonly data: PageDevice;
  readonly dblwr: PageDevice | null;
  readonly #walFlush: (lsn: bigint) => void;
  readonly #batch: Uint8Array;
  readonly #batchPages: number[] = [];
  #size: number;
  /** Pages written through the doublewrite file, and batches. */
  doublewritePages = 0;
  doublewriteWrites = 0;

  constructor(data: PageDevice, dblwr: PageDevice | null, walFlush: (lsn: bigint) => void) {
    this.data = data;
    this.dblwr = dblwr;
    this.pageSize = data.pageSize;
    this.name = data.name;
    this.#walFlush = walFlush;
    this.#batch = new Uint8Array(dblwr === null ? 0 : DOUBLEWRITE_BATCH * data.pageSize);
    this.#size = data.size();
  }

  size(): number {
    return this.#size;
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    const ps = this.pageSize;
    const onDisk = this.data.size();
    if (first + count <= onDisk) this.data.readPages(first, count, dest, destOffset);
    else {
      for (let p = first; p < first + count; p++) {
        if (p < onDisk) this.data.readPages(p, 1, dest, destOffset + (p - first) * ps);
        else if (!this.#batchPages.includes(p))
          throw new RangeError(`pages [${first}, ${first + count}) are past the end of ${this.name}`);
      }
    }
    for (const [slot, p] of this.#batchPages.entries()) {
      if (p >= first && p < first + count)
        dest.set(this.#batch.subarray(slot * ps, (slot + 1) * ps), destOffset + (p - first) * ps);
    }
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    this.#walFlush(getPageLsn(src, srcOffset));
    if (this.dblwr === null) {
      this.data.writePage(pageNo, src, srcOffset);
    } else {
      const ps = this.pageSize;
      let slot = this.#batchPages.indexOf(pageNo);
      if (slot < 0) {
        if (this.#batchPages.length === DOUBLEWRITE_BATCH) this.flushBatch();
        slot = this.#batchPages.length;
        this.#batchPages.push(pageNo);
      }
      this.#batch.set(src.subarray(srcOffset, srcOffset + ps), slot * ps);
    }
    if (pageNo >= this.#size) this.#size = pageNo + 1;
  }

  /** Writes the batch: doublewrite file, fsync, then the pages in place (not synced). */
  flushBatch(): void {
    const dw = this.dblwr;
    const n = this.#batchPages.length;
    if (dw === null || n === 0) return;
    const ps = this.pageSize;
    for (let s = 0; s < n; s++) dw.writePage(s, this.#batch, s * ps);
    dw.sync();
    for (let s = 0; s < n; s++) this.data.writePage(this.#batchPages[s]!, this.#batch, s * ps);
    this.#batchPages.length = 0;
    this.doublewritePages += n;
    this.doublewriteWrites++;
  }

  sync(): void {
    this.flushBatch();
    this.data.sync();
  }

  close(): void {
    this.data.close();
    this.dblwr?.close();
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
