import type { DeviceDescriptor, PageDevice } from './device.js';
import { checkPageNo, checkRun } from './device.js';
import { checkPageSize } from './envelope.js';

/** Bytes before the pages in a shared `MemoryDevice` buffer: the page count (Int32, slot 0). */
const HEADER_BYTES = 64;

export interface MemoryDeviceOptions {
  /** Bytes per page; default 16384. */
  pageSize?: number;
  /** A label for messages; default `memory`. */
  name?: string;
  /**
   * Fixed capacity in pages. When given, the pages live in one `SharedArrayBuffer` and
   * `descriptor()` lets workers open the same device; without it the device grows without bound
   * but cannot be shared.
   */
  maxPages?: number;
  /** Opens the pages of another shared `MemoryDevice` (from its `descriptor().buffer`). */
  buffer?: SharedArrayBuffer;
}

/**
 * Pages in memory: for tests and in-memory databases. Shared (`maxPages` given) or growable.
 *
 * @example
 * const dev = new MemoryDevice({ pageSize: 4096 });
 */
export class MemoryDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  #bytes: Uint8Array;
  readonly #count: Int32Array;
  readonly #shared: SharedArrayBuffer | null;
  #closed = false;

  constructor(options: MemoryDeviceOptions = {}) {
    this.pageSize = checkPageSize(options.pageSize ?? 16384);
    this.name = options.name ?? 'memory';
    if (options.buffer !== undefined) {
      this.#shared = options.buffer;
    } else if (options.maxPages !== undefined) {
      const max = options.maxPages;
      if (!Number.isInteger(max) || max < 1) {
        throw new RangeError(`maxPages must be a positive integer, got ${String(max)}`);
      }
      this.#shared = new SharedArrayBuffer(HEADER_BYTES + max * this.pageSize);
    } else {
      this.#shared = null;
    }
    if (this.#shared !== null) {
      this.#count = new Int32Array(this.#shared, 0, 1);
      this.#bytes = new Uint8Array(this.#shared, HEADER_BYTES);
    } else {
      this.#count = new Int32Array(1);
      this.#bytes = new Uint8Array(this.pageSize * 16);
    }
  }

  size(): number {
    return Atomics.load(this.#count, 0);
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    this.#open();
    checkRun(first, count, this.size(), this.name);
    const ps = this.pageSize;
    dest.set(this.#bytes.subarray(first * ps, (first + count) * ps), destOffset);
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    this.#open();
    checkPageNo(pageNo);
    const ps = this.pageSize;
    const end = (pageNo + 1) * ps;
    if (end > this.#bytes.length) this.#grow(end);
    this.#bytes.set(src.subarray(srcOffset, srcOffset + ps), pageNo * ps);
    // Grow the page count monotonically; several workers may extend at once.
    for (;;) {
      const n = Atomics.load(this.#count, 0);
      if (n > pageNo || Atomics.compareExchange(this.#count, 0, n, pageNo + 1) === n) break;
    }
  }

  #grow(end: number): void {
    if (this.#shared !== null) {
      throw new RangeError(
        `page ${end / this.pageSize - 1} is past the capacity of shared ${this.name} (${this.#bytes.length / this.pageSize} pages)`,
      );
    }
    let cap = this.#bytes.length;
    while (cap < end) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.#bytes);
    this.#bytes = next;
  }

  sync(): void {}

  close(): void {
    this.#closed = true;
  }

  #open(): void {
    if (this.#closed) throw new Error(`${this.name} is closed`);
  }

  descriptor(): DeviceDescriptor | null {
    if (this.#shared === null) return null;
    return { kind: 'memory', name: this.name, pageSize: this.pageSize, buffer: this.#shared };
  }
}
