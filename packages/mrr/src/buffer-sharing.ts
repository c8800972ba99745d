/** Bytes of the association (range id) kept beside each key or row id: `sizeof(char*)` on 64-bit. */
export const ASSOCIATION_BYTES = 8;

/** How one MRR buffer is split between the rowid stage (front) and the key stage (back). */
export interface BufferSplit {
  /** Bytes at the front of the buffer for (row id, association) entries. */
  readonly rowIdBytes: number;
  /** Bytes at the back of the buffer for (key, association) entries. */
  readonly keyBytes: number;
}

/**
 * MariaDB 10.0 `DsMrr_impl::setup_buffer_sharing` (sql/multi_range_read.cc): give each stage a
 * share proportional to what one key brings in. One key costs `keyElement` bytes and produces
 * about `recordsPerKey` row ids of `rowIdElement` bytes each, so
 *
 *   rowid_sz  = rowIdElement · rpc                     (rpc = ⌊recordsPerKey⌋, 0 ⇒ 1)
 *   rowIdBytes = round(total · rowid_sz / (rowid_sz + keyElement))
 *   keyBytes   = total − rowIdBytes
 *
 * then each share is raised to at least one element plus one byte, taking the difference from
 * the other share (keys first, then row ids, in MariaDB's order). The split is final: MariaDB
 * assigns `redistribute_buffer_space` but never calls it, so key space a batch leaves unused is
 * not handed to the row ids. The caller checks that each share still holds one element
 * ({@link sharedBufferFits}).
 */
export function setupBufferSharing(
  totalBytes: number,
  rowIdElement: number,
  keyElement: number,
  recordsPerKey = 1,
): BufferSplit {
  let rpc = Math.floor(recordsPerKey);
  if (!(rpc >= 1)) rpc = 1;
  const rowidSize = rowIdElement * rpc;
  let rowIdBytes = Math.floor(0.5 + (totalBytes * rowidSize) / (rowidSize + keyElement));
  let keyBytes = totalBytes - rowIdBytes;
  if (keyBytes < keyElement + 1) {
    rowIdBytes -= keyElement + 1 - keyBytes;
    keyBytes = keyElement + 1;
  }
  if (rowIdBytes < rowIdElement + 1) {
    keyBytes -= rowIdElement + 1 - rowIdBytes;
    rowIdBytes = rowIdElement + 1;
  }
  return { rowIdBytes, keyBytes };
}

/**
 * `setup_buffer_sharing`'s last check: each share holds at least one element
 * (`have_space_for`); when it fails `dsmrr_init` falls back to the default implementation.
 */
export function sharedBufferFits(split: BufferSplit, rowIdElement: number, keyElement: number): boolean {
  return split.keyBytes >= keyElement && split.rowIdBytes >= rowIdElement;
}

/**
 * The smallest total (after the interruption reserve) both stages can share:
 * `rowIdElement + 1 + keyElement` — the row ids are raised to one element plus a byte, the key
 * share keeps at least one element.
 */
export function minimumSharedBufferSize(rowIdElement: number, keyElement: number): number {
  return rowIdElement + 1 + keyElement;
}
