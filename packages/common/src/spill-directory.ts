import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskFullError, TempFileError } from './errors.js';

/**
 * The file-system calls a {@link SpillDirectory} makes; `node:fs` by default. Tests pass a
 * wrapper that fails on purpose (a full disk, a failing read).
 */
export interface SpillFileSystem {
  mkdtempSync(prefix: string): string;
  openSync(path: string, flags: string, mode: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

/** `node:fs` as a {@link SpillFileSystem}. */
export const nodeSpillFileSystem: SpillFileSystem = {
  mkdtempSync: (prefix) => nodeFs.mkdtempSync(prefix),
  openSync: (path, flags, mode) => nodeFs.openSync(path, flags, mode),
  writeSync: (fd, buffer, offset, length, position) => nodeFs.writeSync(fd, buffer, offset, length, position),
  readSync: (fd, buffer, offset, length, position) => nodeFs.readSync(fd, buffer, offset, length, position),
  closeSync: (fd) => nodeFs.closeSync(fd),
  rmSync: (path, options) => nodeFs.rmSync(path, options),
};

/** Options of a {@link SpillDirectory}. */
export interface SpillDirectoryOptions {
  /** Parent directory of the private directory. Default: `os.tmpdir()` (MySQL's `tmpdir`). */
  readonly parent?: string;
  /** Name prefix of the private directory, e.g. `'enginekit-sort-'`. Default `'enginekit-spill-'`. */
  readonly prefix?: string;
  /** File-system calls; `node:fs` by default. */
  readonly fs?: SpillFileSystem;
}

/** Every directory not yet removed, so a signal handler can remove them all. */
const live = new Set<SpillDirectory>();

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/**
 * Spill files in a private temp directory `<parent>/<prefix><pid>-XXXXXX`, made on the first
 * {@link open}: each file is created with mode 0600, written and read by position, and
 * {@link remove} closes and deletes everything (idempotent, never throws). A full device is a
 * {@link DiskFullError}, any other failure a {@link TempFileError}, both naming the directory.
 *
 * Directories not yet removed are listed by {@link removeAllSpillDirectories}, which a program's
 * SIGINT/SIGTERM handler calls so an interrupted sort or join leaves nothing behind.
 */
export class SpillDirectory {
  readonly #fs: SpillFileSystem;
  readonly #parent: string;
  readonly #prefix: string;
  #dir: string | undefined;
  readonly #fds: number[] = [];
  /** Bytes written through {@link write}. */
  bytesWritten = 0;
  /** Bytes read through {@link read}. */
  bytesRead = 0;
  /** Files created. */
  created = 0;

  constructor(options: SpillDirectoryOptions = {}) {
    this.#parent = options.parent ?? tmpdir();
    this.#prefix = options.prefix ?? 'enginekit-spill-';
    this.#fs = options.fs ?? nodeSpillFileSystem;
  }

  /** The private directory, or undefined before the first file and after {@link remove}. */
  get directory(): string | undefined {
    return this.#dir;
  }

  /** Create a new, empty file for reading and writing; returns its descriptor. */
  open(): number {
    try {
      if (this.#dir === undefined) {
        // the owner's pid in the name: a later process removes it if this one died (see below)
        this.#dir = this.#fs.mkdtempSync(join(this.#parent, `${this.#prefix}${process.pid}-`));
        live.add(this);
      }
      const fd = this.#fs.openSync(join(this.#dir, `spill-${this.created}.tmp`), 'w+', 0o600);
      this.#fds.push(fd);
      this.created++;
      return fd;
    } catch (err) {
      throw this.#wrap(err, 'create a temp file');
    }
  }

  /** Write `buf[offset, offset + length)` at file `position`, all of it. */
  write(fd: number, buf: Uint8Array, offset: number, length: number, position: number): void {
    let done = 0;
    try {
      while (done < length) {
        const n = this.#fs.writeSync(fd, buf, offset + done, length - done, position + done);
        if (n <= 0) throw Object.assign(new Error('write returned 0 bytes'), { code: 'EIO' });
        done += n;
        this.bytesWritten += n;
      }
    } catch (err) {
      throw this.#wrap(err, `write ${length} bytes at offset ${position}`);
    }
  }

  /** Read up to `length` bytes at `position` into `buf[offset, …)`; returns the count (short at EOF). */
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

  /** Close every file and delete the directory. Idempotent; never throws. */
  remove(): void {
    for (const fd of this.#fds.splice(0)) {
      try {
        this.#fs.closeSync(fd);
      } catch {
        // already closed: the directory removal below is what matters
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
    live.delete(this);
  }

  #wrap(err: unknown, what: string): Error {
    const c = errorCode(err);
    const where = this.#dir ?? this.#parent;
    if (c === 'ENOSPC' || c === 'EDQUOT') {
      return new DiskFullError(
        `temp directory ${where} is full (${c}) after ${this.bytesWritten} bytes: could not ${what}`,
        where,
        this.bytesWritten,
        { cause: err },
      );
    }
    const msg = err instanceof Error ? err.message : String(err);
    return new TempFileError(`could not ${what} in ${where}: ${msg}`, { cause: err });
  }
}

/** How many spill directories exist now (made and not yet removed), in this thread. */
export function liveSpillDirectories(): number {
  return live.size;
}

/**
 * Remove every spill directory of this thread that is not yet removed; returns how many. For a
 * SIGINT/SIGTERM handler: synchronous, never throws.
 */
export function removeAllSpillDirectories(): number {
  const all = [...live];
  for (const d of all) d.remove();
  return all.length;
}

/** `enginekit-<kind>-<pid>-XXXXXX`: a spill directory and the process that made it. */
const SPILL_NAME = /^enginekit-[a-z]+-(\d+)-[A-Za-z0-9]{6}$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists, owned by someone else
    return errorCode(err) === 'EPERM';
  }
}

/**
 * Removes the spill directories in `parent` (default `os.tmpdir()`) left by processes that no
 * longer run — a crash or a SIGKILL gives no handler the chance to remove them. Directories of
 * running processes (this one included) are left alone. Returns the paths removed; never throws.
 */
export function removeDeadSpillDirectories(parent: string = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = nodeFs.readdirSync(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = SPILL_NAME.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    const path = join(parent, name);
    try {
      nodeFs.rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another process removed it, or it is not ours to remove
    }
  }
  return removed;
}
