import { closeSync, fstatSync, fsync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import type { DeviceDescriptor, PageDevice } from './device.js';
import { checkPageNo, checkRun } from './device.js';
import { checkPageSize } from './envelope.js';

export interface FileDeviceOptions {
  /** Bytes per page; default 16384. */
  pageSize?: number;
  /** Create the file if it does not exist (default true). */
  create?: boolean;
  /** Truncate an existing file to zero pages (default false). */
  truncate?: boolean;
}

/**
 * A real file, read and written with positioned I/O (`pread`/`pwrite` through `fs.readSync` /
 * `fs.writeSync` with a position), so one handle serves any page without seeking. Each worker
 * opens its own handle from `descriptor()`.
 *
 * @example
 * const dev = new FileDevice('/tmp/db.ibd', { pageSize: 16384 });
 */
export class FileDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  #fd: number;
  #pages: number;

  constructor(path: string, options: FileDeviceOptions = {}) {
    if (typeof path !== 'string' || path.length === 0) {
      throw new TypeError(`path must be a non-empty string, got ${String(path)}`);
    }
    this.pageSize = checkPageSize(options.pageSize ?? 16384);
    this.name = path;
    const create = options.create ?? true;
    const flags = options.truncate === true ? 'w+' : 'r+';
    // a file it creates is the owner's alone (0600, narrowed further by the umask)
    try {
      this.#fd = openSync(path, flags, 0o600);
    } catch (err) {
      if (!create || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.#fd = openSync(path, 'w+', 0o600);
    }
    this.#pages = Math.floor(fstatSync(this.#fd).size / this.pageSize);
  }

  size(): number {
    return this.#pages;
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    this.#checkOpen();
    // Another handle (a worker) may have grown the file since we looked.
    if (first + count > this.#pages) this.refreshSize();
    checkRun(first, count, this.#pages, this.name);
    const ps = this.pageSize;
    let done = 0;
    const want = count * ps;
    while (done < want) {
      const n = readSync(this.#fd, dest, destOffset + done, want - done, first * ps + done);
      if (n === 0) {
        // The file shrank under us (another process): report it as missing pages.
        throw new RangeError(`short read of ${this.name} at page ${first + Math.floor(done / ps)}`);
      }
      done += n;
    }
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    this.#checkOpen();
    checkPageNo(pageNo);
    const ps = this.pageSize;
    let done = 0;
    while (done < ps) done += writeSync(this.#fd, src, srcOffset + done, ps - done, pageNo * ps + done);
    if (pageNo >= this.#pages) this.#pages = pageNo + 1;
  }

  writePages(first: number, count: number, src: Uint8Array, srcOffset: number): void {
    this.#checkOpen();
    checkPageNo(first);
    if (!Number.isInteger(count) || count < 0)
      throw new RangeError(`page count must be a whole number ≥ 0, got ${count}`);
    const ps = this.pageSize;
    const want = count * ps;
    let done = 0;
    while (done < want) done += writeSync(this.#fd, src, srcOffset + done, want - done, first * ps + done);
    if (count > 0 && first + count > this.#pages) this.#pages = first + count;
  }

  sync(): void {
    this.#checkOpen();
    fsyncSync(this.#fd);
  }

  /** `fsync` on libuv's thread pool: resolves when the written pages are durable. */
  syncAsync(): Promise<void> {
    this.#checkOpen();
    const fd = this.#fd;
    return new Promise((resolve, reject) => {
      fsync(fd, (err) => (err === null ? resolve() : reject(err)));
    });
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }

  /** Re-reads the file size (another handle may have grown it). */
  refreshSize(): number {
    this.#checkOpen();
    this.#pages = Math.max(this.#pages, Math.floor(fstatSync(this.#fd).size / this.pageSize));
    return this.#pages;
  }

  descriptor(): DeviceDescriptor {
    return { kind: 'file', path: this.name, pageSize: this.pageSize };
  }

  #checkOpen(): void {
    if (this.#fd < 0) throw new Error(`${this.name} is closed`);
  }
}
