/**
 * Record encoding, used in the sort buffer and in the run files alike (after InnoDB 5.5's
 * `row_merge_buf_write`, which writes a 1–2 byte header before each temp-format record):
 *
 * | size | field |
 * |---|---|
 * | 1–4 | key length, unsigned LEB128 (7 bits a byte, low bits first) |
 * | keyLen | key bytes |
 * | 1–4 | value length, unsigned LEB128 |
 * | valLen | value bytes |
 *
 * The key comes first so a comparison decodes one length only. Lengths below 128 take one byte.
 * Runs carry no end marker: the sorter keeps each run's byte range in memory.
 */

/** Largest key or value length the 4-byte LEB128 header can hold (2^28 − 1). */
export const MAX_FIELD_LENGTH = 0x0fffffff;

/** Bytes the LEB128 header of `n` takes (n ≤ MAX_FIELD_LENGTH). */
export function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : 4;
}

/** Write `n` at `buf[at]`; returns the offset after it. */
export function writeVarint(buf: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[at++] = n;
  return at;
}

/** Encoded size of a record with the given field lengths. */
export function recordSize(keyLen: number, valLen: number): number {
  return varintSize(keyLen) + keyLen + varintSize(valLen) + valLen;
}

/**
 * Read the LEB128 length at `buf[at]`. The bytes it took are `varintSize(result)` (the
 * writer always emits the shortest form).
 */
export function readVarint(buf: Uint8Array, at: number): number {
  let b = buf[at]!;
  if (b < 0x80) return b;
  let n = b & 0x7f;
  b = buf[at + 1]!;
  n |= (b & 0x7f) << 7;
  if (b < 0x80) return n;
  b = buf[at + 2]!;
  n |= (b & 0x7f) << 14;
  if (b < 0x80) return n;
  return n | ((buf[at + 3]! & 0x7f) << 21);
}
