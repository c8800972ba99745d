/**
 * memcmp order over two byte ranges: the first differing byte decides; on a common prefix the
 * shorter range sorts first. This is the order of InnoDB's binary collations and of
 * btree-sampler's key format, so a sorter, a tree and a join that compare keys this way agree.
 *
 * REQUIRES: `0 <= aStart <= aEnd <= a.length`, and the same for `b`.
 *
 * @example
 * ```ts
 * compareBytes(new Uint8Array([1, 2]), 0, 2, new Uint8Array([1, 2, 0]), 0, 3); // < 0
 * ```
 */
export function compareBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): number {
  const aLen = aEnd - aStart;
  const bLen = bEnd - bStart;
  const n = Math.min(aLen, bLen);
  for (let i = 0; i < n; i++) {
    const d = a[aStart + i]! - b[bStart + i]!;
    if (d !== 0) return d;
  }
  return aLen - bLen;
}

/** {@link compareBytes} over two whole arrays. */
export function compareKeys(a: Uint8Array, b: Uint8Array): number {
  return compareBytes(a, 0, a.length, b, 0, b.length);
}
