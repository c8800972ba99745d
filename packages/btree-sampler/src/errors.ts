/** A page or the tree structure is not what the format promises; names the page and the check. */
export class CorruptionError extends Error {
  override readonly name = 'CorruptionError';
  /** The page number where the problem was seen (-1 when not tied to one page). */
  readonly pageNo: number;
  constructor(message: string, pageNo = -1) {
    super(pageNo >= 0 ? `page ${pageNo}: ${message}` : message);
    this.pageNo = pageNo;
  }
}

/** A unique tree already holds the key (InnoDB's DB_DUPLICATE_KEY). */
export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
}

/** The bulk loader was fed a key that is not strictly greater than the previous one. */
export class OutOfOrderError extends Error {
  override readonly name = 'OutOfOrderError';
}
