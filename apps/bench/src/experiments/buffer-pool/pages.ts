import { FIL_NULL, initPage, MemoryDevice, sealPage, setNextPage, setPrevPage } from '@enginekit/buffer-pool';

export interface PagesOptions {
  /** Chain the pages with FIL_PAGE_PREV/NEXT as one index level, so linear read-ahead can follow them. */
  readonly linked?: boolean;
  /** Keep the pages in a SharedArrayBuffer so worker threads open the same device. */
  readonly shared?: boolean;
}

/** A memory device of `count` sealed pages of space 0; page i holds i at FIL_PAGE_DATA. */
export function deviceWithPages(count: number, pageSize: number, options: PagesOptions = {}): MemoryDevice {
  const device = new MemoryDevice(options.shared ? { pageSize, maxPages: count } : { pageSize });
  const page = new Uint8Array(pageSize);
  const view = new DataView(page.buffer);
  for (let i = 0; i < count; i++) {
    initPage(page, 0, pageSize, 0, i);
    if (options.linked) {
      setPrevPage(page, 0, i === 0 ? FIL_NULL : i - 1);
      setNextPage(page, 0, i === count - 1 ? FIL_NULL : i + 1);
    }
    view.setUint32(38, i);
    sealPage(page, 0, pageSize, 0, i, BigInt(i + 1));
    device.writePage(i, page, 0);
  }
  return device;
}

/** A millisecond clock that moves only when told to (for `innodb_old_blocks_time`). */
export class FakeClock {
  #t = 0;
  readonly now = (): number => this.#t;
  advance(ms: number): void {
    this.#t += ms;
  }
}
