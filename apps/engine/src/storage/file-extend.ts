import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { DeviceDescriptor, PageDevice } from '@enginekit/buffer-pool';
import { MUTEX_SLOTS, mutexInit, mutexLock, mutexUnlock } from '@enginekit/mutex-atomics';

/**
 * Files that own their blocks before anything depends on them. A sparse file (a length set by
 * `ftruncate`, or a write past the end) has no blocks behind its holes, so a full disk would
 * show only when a page or a log block is written there — at a COMMIT, or while the pool writes
 * a page back — far from the statement that needed the space. InnoDB writes a log file whole at
 * creation (`os_file_set_size`) and extends a tablespace ahead of the pages it hands out
 * (`fsp_try_extend_data_file`), so the statement that allocates a page is the one that meets the
 * full disk and rolls back. These functions do the same with real zero writes (Node has no
 * `fallocate`); a write that fails leaves the file at its length before the call.
 */

/** Bytes of zeros written per `write` while extending. */
const CHUNK = 1 << 20;
const ZEROS = new Uint8Array(CHUNK);

/** The disk (or the quota) is full: no room to extend `file`. */
export class FileFullError extends Error {
  override readonly name = 'FileFullError';
  /** The file that could not grow. */
  readonly file: string;
  /** The table whose write needed the space, when the writer knows it. */
  table: string | undefined;
  constructor(file: string, bytes: number, options?: { cause?: unknown }) {
    super(`no space to extend ${file} to ${bytes} bytes (the disk or the quota is full)`, options);
    this.file = file;
  }
}

function isFull(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Writes zeros on `fd` from byte `from` up to `to`, then fsyncs. On ENOSPC / EDQUOT the file is
 * cut back to `from` and a {@link FileFullError} naming `name` is thrown.
 */
function zeroFill(fd: number, name: string, from: number, to: number): void {
  try {
    for (let at = from; at < to; ) {
      const n = Math.min(CHUNK, to - at);
      at += writeSync(fd, ZEROS, 0, n, at);
    }
    fsyncSync(fd);
  } catch (e) {
    try {
      ftruncateSync(fd, from);
    } catch {
      // the original error says more
    }
    if (isFull(e)) throw new FileFullError(name, to, { cause: e });
    throw e;
  }
}

/** Makes `path` (opened or created here) exactly `bytes` long with real blocks behind every byte. */
export function allocateFile(path: string, bytes: number): void {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size < bytes) zeroFill(fd, path, size, bytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * A data file's extension ahead of its page allocations: {@link ensure}(n) makes sure pages
 * [0, n) have real blocks, growing the file in steps as InnoDB grows a single-table tablespace
 * (`fsp_get_pages_to_extend_ibd`): one extent (1 MiB of pages) at a time while the file is below
 * 32 extents, four extents at a time beyond. Only pages past the file's current end are written,
 * and a page is handed out only once it lies below the end, so zeros never land on a page in use.
 */
export class FileExtender {
  readonly path: string;
  readonly pageSize: number;
  /** Pages per extent: 1 MiB of pages (64 for 16 KiB pages), InnoDB's FSP_EXTENT_SIZE. */
  readonly extentPages: number;
  /** Pages the file is known to hold (refreshed from the file when a request goes past it). */
  #pages = 0;
  /** Times the file was extended, for SHOW STATUS-like reports and tests. */
  extensions = 0;

  /**
   * The mutex every thread extending this file takes (a SharedArrayBuffer, see {@link shared}):
   * two threads reading the same end of file must not both zero-fill past it, or the second's
   * zeros could land on a page the first already handed out and wrote.
   */
  readonly #lock: Int32Array;

  /** `shared`: another thread's {@link FileExtender.shared}, to extend the same file under its mutex. */
  constructor(path: string, pageSize: number, shared?: SharedArrayBuffer) {
    this.path = path;
    this.pageSize = pageSize;
    this.extentPages = Math.max(1, (1 << 20) / pageSize);
    this.#lock = new Int32Array(shared ?? new SharedArrayBuffer(MUTEX_SLOTS * 4));
    if (shared === undefined) mutexInit(this.#lock, 0);
  }

  /** The buffer holding the extension mutex, for the threads attaching to this file. */
  get shared(): SharedArrayBuffer {
    return this.#lock.buffer as SharedArrayBuffer;
  }

  /** Pages [0, `pages`) have blocks on disk. Throws {@link FileFullError} when the disk is full. */
  ensure(pages: number): void {
    if (pages <= this.#pages) return;
    mutexLock(this.#lock, 0);
    try {
      this.#extend(pages);
    } finally {
      mutexUnlock(this.#lock, 0);
    }
  }

  #extend(pages: number): void {
    const fd = openSync(this.path, 'r+');
    try {
      const size = fstatSync(fd).size;
      this.#pages = Math.floor(size / this.pageSize);
      if (pages <= this.#pages) return;
      const step = this.#pages < 32 * this.extentPages ? this.extentPages : 4 * this.extentPages;
      let target = this.#pages + step;
      target -= target % this.extentPages;
      if (target < pages) target = pages + this.extentPages - (pages % this.extentPages);
      zeroFill(fd, this.path, this.#pages * this.pageSize, target * this.pageSize);
      this.#pages = target;
      this.extensions++;
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The data file's device as the buffer pool sees it: the file itself, extended ahead of the
 * pages the pool hands out ({@link FileExtender}), and sized by the pages in use rather than the
 * file's length — the zero pages at the end that an extension wrote are not pages of the
 * database yet (InnoDB's FSP_FREE_LIMIT against FSP_SIZE), so a reopened pool continues
 * allocating right after the last page ever written.
 */
export class ExtendingDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  readonly inner: PageDevice;
  readonly extender: FileExtender;
  #used: number;

  /** `shared`: the {@link FileExtender.shared} of the thread that opened the file, when attaching. */
  constructor(inner: PageDevice, path: string, shared?: SharedArrayBuffer) {
    this.inner = inner;
    this.pageSize = inner.pageSize;
    this.name = inner.name;
    this.extender = new FileExtender(path, inner.pageSize, shared);
    this.#used = usedPages(inner);
  }

  size(): number {
    return this.#used;
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    this.inner.readPages(first, count, dest, destOffset);
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    this.inner.writePage(pageNo, src, srcOffset);
    if (pageNo >= this.#used) this.#used = pageNo + 1;
  }

  sync(): void {
    this.inner.sync();
  }

  syncAsync(): Promise<void> {
    return this.inner.syncAsync === undefined ? Promise.resolve(this.inner.sync()) : this.inner.syncAsync();
  }

  close(): void {
    this.inner.close();
  }

  descriptor(): DeviceDescriptor | null {
    return this.inner.descriptor();
  }
}

/** Pages of `d` up to the last one that is not all zeros (a page in use always has a page number). */
function usedPages(d: PageDevice): number {
  const ps = d.pageSize;
  const buf = new Uint8Array(ps);
  let n = d.size();
  while (n > 0) {
    d.readPages(n - 1, 1, buf, 0);
    let zero = true;
    for (let i = 0; i < ps; i++)
      if (buf[i] !== 0) {
        zero = false;
        break;
      }
    if (!zero) break;
    n--;
  }
  return n;
}
