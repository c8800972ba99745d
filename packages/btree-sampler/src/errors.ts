import { CorruptionError as PoolCorruptionError } from '@enginekit/buffer-pool';

/**
 * A page or the tree structure is not what the format promises; names the page and the check.
 *
 * A subclass of @enginekit/buffer-pool's `CorruptionError` (a page that failed its checksum on
 * read), and its `instanceof` also accepts the pool's errors, so `instanceof CorruptionError`
 * with the class of either package catches both. Fields
 * inherited from the pool's error: `pageNo` (-1 when not tied to one page), `space` (-1: not
 * known here), `file` (empty: the tree does not know the device) and `reason` (the message
 * without the page prefix).
 */
export class CorruptionError extends PoolCorruptionError {
  constructor(message: string, pageNo = -1) {
    super('', -1, pageNo, message);
    this.message = pageNo >= 0 ? `page ${pageNo}: ${message}` : message;
  }

  /** `x instanceof CorruptionError` is true for this package's and the buffer pool's errors. */
  static override [Symbol.hasInstance](x: unknown): boolean {
    return x instanceof PoolCorruptionError;
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
