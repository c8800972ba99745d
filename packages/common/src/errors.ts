/**
 * The error classes more than one enginekit package throws. Each is defined here once, so
 * `instanceof` works whichever package threw it. Bad arguments stay `TypeError`/`RangeError`
 * naming the argument.
 */

/**
 * A key that must be unique was met twice: a unique tree already holds it (InnoDB's
 * `DB_DUPLICATE_KEY`), or a unique sort found two equal keys. `key` is a copy of the encoded key
 * when the thrower has it.
 */
export class DuplicateKeyError extends Error {
  override readonly name: string = 'DuplicateKeyError';
  readonly key: Uint8Array | undefined;
  constructor(message: string, key?: Uint8Array, options?: { cause?: unknown }) {
    super(message, options);
    this.key = key;
  }
}

/** A temp-file write failed because the device is full (`ENOSPC`) or over quota (`EDQUOT`). */
export class DiskFullError extends Error {
  override readonly name: string = 'DiskFullError';
  /** The directory being written into. */
  readonly directory: string;
  /** Bytes written to this set of temp files when the write failed. */
  readonly bytesWritten: number;
  constructor(message: string, directory: string, bytesWritten: number, options?: { cause?: unknown }) {
    super(message, options);
    this.directory = directory;
    this.bytesWritten = bytesWritten;
  }
}

/** Any other temp-file failure (create, read, write); `cause` is the system error. */
export class TempFileError extends Error {
  override readonly name: string = 'TempFileError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
