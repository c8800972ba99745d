/**
 * The sorter's error taxonomy. Bad arguments are `TypeError`/`RangeError` naming the argument;
 * these classes name the states a caller may want to tell apart. Every one of them is thrown only
 * after the sorter has removed its temp files.
 */

/** The record source (iterator or scan callback) threw; `cause` is what it threw. */
export class SourceError extends Error {
  override readonly name: string = 'SourceError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A temp-file write failed because the device is full (`ENOSPC`) or over quota (`EDQUOT`). */
export class DiskFullError extends Error {
  override readonly name: string = 'DiskFullError';
  /** The directory the sorter was writing its runs into. */
  readonly directory: string;
  /** Bytes the sorter had written to temp files when the write failed. */
  readonly bytesWritten: number;
  constructor(message: string, directory: string, bytesWritten: number, options?: { cause?: unknown }) {
    super(message, options);
    this.directory = directory;
    this.bytesWritten = bytesWritten;
  }
}

/** Any other temp-file failure (open, read, write, remove); `cause` is the system error. */
export class TempFileError extends Error {
  override readonly name: string = 'TempFileError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The `AbortSignal` given in the options fired; `cause` is the signal's reason. */
export class SortAbortedError extends Error {
  override readonly name: string = 'AbortError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The sorter was used after it finished, failed or was closed. */
export class SorterStateError extends Error {
  override readonly name: string = 'SorterStateError';
}

/** Two records with equal keys in a sort with `unique: true`; `key` is a copy of the key. */
export class DuplicateKeyError extends Error {
  override readonly name: string = 'DuplicateKeyError';
  readonly key: Uint8Array;
  constructor(message: string, key: Uint8Array) {
    super(message);
    this.key = key;
  }
}
