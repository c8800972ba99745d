/**
 * The sorter's own error classes. Bad arguments are `TypeError`/`RangeError` naming the argument;
 * the errors several packages throw (`DiskFullError`, `TempFileError`, `DuplicateKeyError`) are
 * `@enginekit/common`'s. Every error is thrown only after the sorter has removed its temp files.
 */

/** The record source (iterator or scan callback) threw; `cause` is what it threw. */
export class SourceError extends Error {
  override readonly name: string = 'SourceError';
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
