/**
 * Where pages live: a file, memory, or a model of a disk wrapped around either. Pages are numbered
 * from 0; page `n` occupies bytes [n·pageSize, (n+1)·pageSize) of the device.
 *
 * REQUIRES: a device is used from one thread. Workers open their own device from its
 * `descriptor()` (a file path, or the shared memory of a `MemoryDevice`).
 */
export interface PageDevice {
  /** Bytes per page. */
  readonly pageSize: number;
  /** A name for messages: the file path, or a label. */
  readonly name: string;
  /** Pages the device holds now. */
  size(): number;
  /**
   * Reads pages [first, first + count) into `dest[destOffset…]` as one request.
   * REQUIRES: first + count ≤ size().
   */
  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void;
  /** Writes one page from `src[srcOffset…]`; writing at or past `size()` grows the device. */
  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void;
  /**
   * Optional: writes pages [first, first + count) from `src[srcOffset…]` as one request (one
   * `pwrite` for a file), as {@link writePage} would one by one. A caller falls back to
   * `writePage` per page (a device that models or injects faults per page leaves it out).
   */
  writePages?(first: number, count: number, src: Uint8Array, srcOffset: number): void;
  /** Makes written pages durable (`fsync`). */
  sync(): void;
  /**
   * Optional: `sync()` without blocking the thread (an `fsync` on libuv's thread pool), so other
   * work (other sessions' commits) can proceed while it runs. A caller falls back to `sync()`.
   */
  syncAsync?(): Promise<void>;
  /** Releases the handle; the device must not be used afterwards. */
  close(): void;
  /** How another thread opens the same pages, or `null` if it cannot. */
  descriptor(): DeviceDescriptor | null;
}

/** A structured-cloneable recipe to reopen a device in a worker (see `openDevice`). */
export type DeviceDescriptor =
  | { readonly kind: 'file'; readonly path: string; readonly pageSize: number }
  | {
      readonly kind: 'memory';
      readonly name: string;
      readonly pageSize: number;
      readonly buffer: SharedArrayBuffer;
    }
  | { readonly kind: 'simulated'; readonly inner: DeviceDescriptor; readonly profile: DiskProfile };

/**
 * A disk model for `SimulatedDevice`: a request that does not start where the previous one ended
 * pays `seekMs` plus half a rotation (`30000 / rpm` ms; nothing when `rpm` is 0), and every request
 * pays its bytes at `transferMBps` (10^6 bytes per second).
 */
export interface DiskProfile {
  readonly name: string;
  /** Average positioning time of a non-sequential request, milliseconds. */
  readonly seekMs: number;
  /** Spindle speed; 0 for flash (no rotational latency). */
  readonly rpm: number;
  /** Sustained transfer rate, MB/s (10^6 bytes/s). */
  readonly transferMBps: number;
  /**
   * Fixed cost of every request, sequential or not (command overhead), milliseconds. Default 0:
   * the built-in profiles follow the pure head model, where back-to-back single-page reads cost
   * transfer time only.
   */
  readonly requestMs?: number;
}

/** Checks a page number argument: an integer in [0, 2^32 − 2] (0xFFFFFFFF is FIL_NULL). */
export function checkPageNo(pageNo: unknown, name = 'pageNo'): number {
  if (typeof pageNo !== 'number' || !Number.isInteger(pageNo)) {
    throw new TypeError(`${name} must be an integer, got ${String(pageNo)}`);
  }
  if (pageNo < 0 || pageNo >= 0xffffffff) {
    throw new RangeError(`${name} must be in [0, 4294967294], got ${pageNo}`);
  }
  return pageNo;
}

/** Checks `first`/`count` of a read against the device size. */
export function checkRun(first: number, count: number, size: number, name: string): void {
  checkPageNo(first, 'first');
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new RangeError(`count must be a positive integer, got ${String(count)}`);
  }
  if (first + count > size) {
    throw new RangeError(`pages [${first}, ${first + count}) are past the end of ${name} (${size} pages)`);
  }
}
