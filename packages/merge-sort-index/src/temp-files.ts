import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { DiskFullError, TempFileError } from './errors.js';

/**
 * The file-system calls the sorter makes for its temp files; `node:fs` by default. Tests pass
 * a wrapper that fails on purpose (a full disk, a failing read).
 */
export interface TempFileSystem {
  mkdtempSync(prefix: string): string;
  openSync(path: string, flags: string): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

/** `node:fs` as a `TempFileSystem`. */
export const nodeTempFileSystem: TempFileSystem = {
  mkdtempSync: (prefix) => nodeFs.mkdtempSync(prefix),
  openSync: (path, flags) => nodeFs.openSync(path, flags, 0o600),
  writeSync: (fd, buffer, offset, length, position) => nodeFs.writeSync(fd, buffer, offset, length, position),
  readSync: (fd, buffer, offset, length, position) => nodeFs.readSync(fd, buffer, offset, length, position),
  closeSync: (fd) => nodeFs.closeSync(fd),
  rmSync: (path, options) => nodeFs.rmSync(path, options),
};

function code(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/**
 * The sorter's temp files: a private directory `<tmpdir>/enginekit-sort-XXXXXX` made on the
 * first spill, holding up to two run files (InnoDB's `file` and `tmpfile`, swapped after each
 * merge pass). `remove()` closes and deletes everything; it is idempotent.
 */
export class TempFiles {
  readonly #fs: TempFileSystem;
  readonly #parent: string;
  #dir: string | undefined;
  readonly #fds: number[] = [];
  /** Bytes written through `write`. */
  bytesWritten = 0;
  /** Bytes read through `read`. */
  bytesRead = 0;
  /** Files opened. */
  created = 0;

  constructor(parent: string, fs: TempFileSystem = nodeTempFileSystem) {
    this.#parent = parent;
    this.#fs = fs;
  }

  /** The private directory, or undefined before the first file. */
  get directory(): string | undefined {
    return this.#dir;
  }

  /** Open a new, empty temp file for reading and writing; returns its descriptor. */
  open(): number {
    try {
      if (this.#dir === undefined) this.#dir = this.#fs.mkdtempSync(join(this.#parent, 'enginekit-sort-'));
      const fd = this.#fs.openSync(join(this.#dir, `run-${this.created}.tmp`), 'w+');
      this.#fds.push(fd);
      this.created++;
      return fd;
    } catch (err) {
      throw this.#wrap(err, 'create a temp file');
    }
  }

  /** Write `buf[0, length)` at `position`, all of it. */
  write(fd: number, buf: Uint8Array, length: number, position: number): void {
    let done = 0;
    try {
      while (done < length) {
        const n = this.#fs.writeSync(fd, buf, done, length - done, position + done);
        if (n <= 0) throw Object.assign(new Error('write returned 0 bytes'), { code: 'EIO' });
        done += n;
        this.bytesWritten += n;
      }
    } catch (err) {
      throw this.#wrap(err, `write ${length} bytes at offset ${position}`);
    }
  }

  /** Read up to `length` bytes at `position` into `buf[offset, …)`; returns the count. */
  read(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number {
    let done = 0;
    try {
      while (done < length) {
        const n = this.#fs.readSync(fd, buf, offset + done, length - done, position + done);
        if (n <= 0) break;
        done += n;
      }
    } catch (err) {
      throw this.#wrap(err, `read ${length} bytes at offset ${position}`);
    }
    this.bytesRead += done;
    return done;
  }

  /** Close every file and delete the directory. Never throws. */
  remove(): void {
    for (const fd of this.#fds.splice(0)) {
      try {
        this.#fs.closeSync(fd);
      } catch {
        // already closed or gone; the directory removal below is what matters
      }
    }
    if (this.#dir !== undefined) {
      try {
        this.#fs.rmSync(this.#dir, { recursive: true, force: true });
      } catch {
        // best effort: nothing more can be done from here
      }
      this.#dir = undefined;
    }
  }

  #wrap(err: unknown, what: string): Error {
    const c = code(err);
    const where = this.#dir ?? this.#parent;
    if (c === 'ENOSPC' || c === 'EDQUOT') {
      return new DiskFullError(
        `temp directory ${where} is full (${c}) after ${this.bytesWritten} bytes of sort runs: could not ${what}`,
        where,
        this.bytesWritten,
        { cause: err },
      );
    }
    const msg = err instanceof Error ? err.message : String(err);
    return new TempFileError(`could not ${what} in ${where}: ${msg}`, { cause: err });
  }
}
