/**
 * A redo log file that cannot be used: missing, truncated, corrupt in the middle, of another
 * database, or of another format. Thrown before anything is written to the data file.
 */
export class RedoLogError extends Error {
  override readonly name = 'RedoLogError';
  /** The log file (or data file) the problem is in. */
  readonly file: string;
  constructor(file: string, why: string) {
    super(`redo log ${file}: ${why}`);
    this.file = file;
  }
}

/**
 * The log has no room for a mini-transaction even after flushing every page and checkpointing:
 * a transaction that has not committed holds the checkpoint back further than the log is long.
 */
export class RedoLogFullError extends Error {
  override readonly name = 'RedoLogFullError';
}
