import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { DeviceDescriptor, PageDevice } from '@enginekit/buffer-pool';
import { redoFiles } from './redo/durability.js';
import { RedoLogError } from './redo/errors.js';
import { BLOCK, decodeFileHeader } from './redo/format.js';
import { LogFiles } from './redo/log-files.js';
import { scanLog } from './redo/log-scan.js';

/**
 * A file opened with `O_RDONLY`: pages are read with positioned reads, and any write is an error
 * naming the file. What a read-only {@link Database} open reads through (InnoDB's
 * `innodb_read_only`), so nothing it does can change the file, its length or its mtime.
 */
export class ReadOnlyFileDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  #fd: number;
  #pages: number;

  constructor(path: string, pageSize: number) {
    this.pageSize = pageSize;
    this.name = path;
    this.#fd = openSync(path, 'r');
    this.#pages = Math.floor(fstatSync(this.#fd).size / pageSize);
  }

  size(): number {
    return this.#pages;
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    this.#checkOpen();
    if (
      !Number.isInteger(first) ||
      !Number.isInteger(count) ||
      first < 0 ||
      count < 1 ||
      first + count > this.#pages
    )
      throw new RangeError(
        `pages [${first}, ${first + count}) are past the end of ${this.name} (${this.#pages} pages)`,
      );
    const want = count * this.pageSize;
    let done = 0;
    while (done < want) {
      const n = readSync(this.#fd, dest, destOffset + done, want - done, first * this.pageSize + done);
      if (n === 0) throw new RangeError(`short read of ${this.name} at page ${first}`);
      done += n;
    }
  }

  writePage(pageNo: number): void {
    throw new Error(`${this.name} is open read-only: page ${pageNo} cannot be written`);
  }

  /** Nothing was written, so there is nothing to make durable. */
  sync(): void {}

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }

  descriptor(): DeviceDescriptor | null {
    return null;
  }

  #checkOpen(): void {
    if (this.#fd < 0) throw new Error(`${this.name} is closed`);
  }
}

/**
 * A database that needs crash recovery (redo to apply, transactions to roll back), opened
 * read-only: recovery writes, so the open is refused, naming the file that says so.
 */
export class NeedsRecoveryError extends Error {
  override readonly name = 'NeedsRecoveryError';
  /** The redo log file, or the database file itself. */
  readonly file: string;
  constructor(file: string, why: string, database: string = file) {
    super(
      `${file} ${why}: ${database} needs crash recovery, which a read-only open does not do (open it read-write once, e.g. enginekit sql --db ${database} -e "SELECT 1")`,
    );
    this.file = file;
  }
}

/** What a read-only open learns from the redo log beside the file, without writing anything. */
export interface ReadOnlyRedo {
  /** End LSN of the log (0n without one): the pool's LSNs continue above it. */
  readonly end: bigint;
  /** The last shutdown was clean; false: the row counts stored in the dictionary may be stale. */
  readonly clean: boolean;
}

/**
 * Reads the redo log group of the database at `path` (if it has one) to the end, with read-only
 * handles. A log that has mini-transactions to apply after its checkpoint means the database
 * needs crash recovery, which writes: a NeedsRecoveryError naming the log file and the database.
 */
export function readRedoReadOnly(path: string, pageSize: number): ReadOnlyRedo {
  const log0 = redoFiles(path, 1).logs[0] as string;
  if (!existsSync(log0)) return { end: 0n, clean: true };
  const head = new ReadOnlyFileDevice(log0, BLOCK);
  const hb = new Uint8Array(BLOCK);
  try {
    if (head.size() < 1) throw new RedoLogError(log0, 'is empty');
    head.readPages(0, 1, hb, 0);
  } finally {
    head.close();
  }
  const h = decodeFileHeader(hb);
  if (typeof h === 'string') throw new RedoLogError(log0, h);
  const paths = redoFiles(path, h.files).logs;
  for (const p of paths)
    if (!existsSync(p)) throw new RedoLogError(p, `is missing (the group has ${h.files} files)`);
  const files = new LogFiles(
    paths.map((p) => new ReadOnlyFileDevice(p, BLOCK)),
    h.fileSize,
  );
  try {
    files.readHeaders();
    const scan = scanLog(files, pageSize);
    if (scan.mtrs.length > 0)
      throw new NeedsRecoveryError(
        log0,
        `has ${scan.mtrs.length} mini-transaction(s) to apply after its checkpoint`,
        path,
      );
    return { end: scan.end, clean: scan.checkpoint.clean };
  } finally {
    files.close();
  }
}
