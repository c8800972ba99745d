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
 * MariaDB 10.0 `DsMrr_impl::setup_buffer_sharing`: give each stage a share proportional to
 * what one key brings in. One key costs `keyElement` bytes and produces about `recordsPerKey`
 * row ids of `rowIdElement` bytes each, so
 *
 *   rowid_sz  = rowIdElement · rpc                     (rpc = ⌊recordsPerKey⌋, 0 ⇒ 1)
 *   rowIdBytes = ⌊0.5 + total · rowid_sz / (rowid_sz + keyElement)⌋
 *   keyBytes   = total − rowIdBytes
 *
 * then each share is raised to at least one element plus one byte, taking the difference from
 * the other share (keys first, then row ids, in MariaDB's order). The caller checks that the
 * result still holds one element of each (see {@link minimumSharedBufferSize}).
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

/** The smallest budget both stages can share: one element plus one byte each. */
export function minimumSharedBufferSize(rowIdElement: number, keyElement: number): number {
  return rowIdElement + 1 + keyElement + 1;
}
