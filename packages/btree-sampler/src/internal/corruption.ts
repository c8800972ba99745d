import { CorruptionError } from '@enginekit/buffer-pool';

/**
 * A broken page or key, as the buffer pool's `CorruptionError` (one class for every corruption a
 * reader of the file meets). `file` is empty (the tree does not know the device); `pageNo` and
 * `space` are -1 when the problem is not tied to one page (a key handed in by a caller).
 */
export function corruption(reason: string, pageNo = -1, space = -1): CorruptionError {
  const e = new CorruptionError('', space, pageNo, reason);
  e.message = pageNo >= 0 ? `corrupt page ${pageNo} of space ${space}: ${reason}` : `corrupt key: ${reason}`;
  return e;
}
